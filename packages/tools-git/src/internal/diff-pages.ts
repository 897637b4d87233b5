import type { MountedTools } from "@agentool/contract";
import {
  formatCount,
  formatNextCall,
  formatPageMarker,
  formatTruncationMarker,
  isOffsetPastEnd,
  type NextCallValue,
  offsetPastEnd,
} from "@agentool/contract";
import { refuse, refuseWith } from "./git-failure.js";
import type { GitCallResult, GitRunner } from "./git-runner.js";
import {
  type DiffFile,
  formatDiffFiles,
  parseNumstatPatch,
  summarizeDiffTotals,
  totalsOf,
} from "./parse-diff.js";
import { literalPathspec } from "./paths.js";
import { redactPatchKeys } from "./redact.js";
import { failFromGit } from "./tool-support.js";

/** Patch lines on one page when the diff covers one file and no `limit` is given. */
export const DEFAULT_DIFF_LINE_LIMIT = 2_000;

/** Most patch lines one page may hold. */
export const MAX_DIFF_LINE_LIMIT = 5_000;

/** Largest single-file patch read to page through (beyond it: `TOO_LARGE`). */
const MAX_SINGLE_PATCH_BYTES = 32 * 1_048_576;

/** A file on a files page whose patch alone was larger than the page: only its first lines are shown. */
export interface DiffPartialFile {
  /** The file (its new name for renames). */
  file: string;
  /** Patch lines shown. */
  shown_lines: number;
  /** Lines in the file's whole patch. */
  total_lines: number;
  /** The line `offset` of a call with `path` set to this file that shows the rest. */
  next_offset: number;
}

/** One line longer than a whole page: only its beginning is shown. */
export interface DiffCutLine {
  /** The line's number in the patch (1-based). */
  line: number;
  /** Characters shown. */
  shown_characters: number;
  /** Characters in the whole line. */
  total_characters: number;
}

/** One page of a diff, in the paging vocabulary (`total`, `next_offset`, `truncated`). */
export interface DiffPage {
  /**
   * What `offset` counts: `"files"` (the changed files), or `"lines"` (the patch lines) when the
   * diff covers exactly one file.
   */
  unit: "files" | "lines";
  /** The files on this page (lines unit: the one file), with their +/− counts. */
  files: DiffFile[];
  /** Changed files in all (exact). */
  total_files: number;
  /** Lines added over all files (exact). */
  additions: number;
  /** Lines deleted over all files (exact). */
  deletions: number;
  /** Binary files over all files (their content is summarised, never shown). */
  binary_files: number;
  /** The patch text of this page, as git wrote it (no markers). */
  diff: string;
  /** The 1-based position of this page's first file (or line). */
  offset: number;
  /** Files (or patch lines) in all (exact). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether files (or lines) after this page were left out. */
  truncated: boolean;
  /** The page's only file, when its patch alone exceeds the page: the rest pages with `path`. */
  partial?: DiffPartialFile;
  /** A single patch line longer than the page, cut. */
  cut_line?: DiffCutLine;
}

/** How to ask git for the diff. */
export interface DiffCommand {
  /** git's arguments before the output flags, e.g. `["diff", "--no-color", …, "--cached", hash]`. */
  args: readonly string[];
  /** The positive pathspecs (the filter), already literal. */
  pathspecs: readonly string[];
  /** The secret exclusions, appended to every call. */
  exclusions: readonly string[];
  /** The call reads the working tree (drivers are switched off by name). */
  workingTree: boolean;
  /** For messages, e.g. `"git diff"`. */
  action: string;
}

/** What page to cut. */
export interface DiffPageRequest {
  /** The tool answering (for the offset-past-end failure). */
  tool: string;
  /** 1-based offset (files, or lines when the diff covers one file). */
  offset: number;
  /** Page size as asked (files, or lines); `undefined` for the defaults. */
  limit: number | undefined;
  /** List files only, no patch text (offset always counts files). */
  filesOnly: boolean;
  /** Byte budget of the patch text on one page. */
  maxOutputBytes: number;
  /** Most files on one page (the default files page size). */
  maxFiles: number;
  /** The tools a hint may name. */
  mounted: MountedTools;
}

const HEADER = /^(?:diff --(?:git|cc|combined) |\* Unmerged path )/gm;

function mergeDuplicates(files: readonly DiffFile[]): DiffFile[] {
  const merged: DiffFile[] = [];
  const seen = new Map<string, DiffFile>();
  for (const file of files) {
    const key = `${file.from ?? ""}\0${file.file}`;
    const earlier = seen.get(key);
    if (earlier === undefined) {
      const copy = { ...file };
      seen.set(key, copy);
      merged.push(copy);
      continue;
    }
    // A conflicted file is listed once per side; keep one entry with the larger counts.
    if (earlier.binary || file.binary) {
      earlier.binary = true;
      earlier.additions = null;
      earlier.deletions = null;
    } else {
      earlier.additions = Math.max(earlier.additions ?? 0, file.additions ?? 0);
      earlier.deletions = Math.max(earlier.deletions ?? 0, file.deletions ?? 0);
    }
  }
  return merged;
}

function headerNames(header: string, file: DiffFile): boolean {
  return (
    header.endsWith(` b/${file.file}`) ||
    header === `diff --cc ${file.file}` ||
    header === `diff --combined ${file.file}` ||
    header === `* Unmerged path ${file.file}`
  );
}

/**
 * Splits patch text into one chunk per file (aligned with `files`; a file without a chunk gets
 * `""`).
 *
 * @param patch - the patch text
 * @param files - the files, in git's order
 * @returns the chunks, index-aligned with `files`
 */
export function splitPatch(patch: string, files: readonly DiffFile[]): string[] {
  const starts: number[] = [];
  HEADER.lastIndex = 0;
  for (let match = HEADER.exec(patch); match !== null; match = HEADER.exec(patch)) {
    starts.push(match.index);
  }
  const chunks = starts.map((start, index) =>
    patch.slice(start, starts[index + 1] ?? patch.length),
  );
  if (chunks.length === 0) return files.map((_, index) => (index === 0 ? patch : ""));
  if (starts[0] !== undefined && starts[0] > 0)
    chunks[0] = patch.slice(0, starts[1] ?? patch.length);
  const aligned = files.map(() => "");
  if (chunks.length === files.length) return chunks;
  let pointer = 0;
  for (const chunk of chunks) {
    const header = chunk.slice(0, chunk.indexOf("\n") === -1 ? chunk.length : chunk.indexOf("\n"));
    let found = -1;
    for (let index = pointer; index < files.length; index += 1) {
      const file = files[index];
      if (file !== undefined && headerNames(header, file)) {
        found = index;
        break;
      }
    }
    if (found !== -1) pointer = found;
    aligned[pointer] = `${aligned[pointer] ?? ""}${chunk}`;
  }
  return aligned;
}

function patchLines(patch: string): string[] {
  if (patch.length === 0) return [];
  return (patch.endsWith("\n") ? patch.slice(0, -1) : patch).split("\n");
}

function cutToBytes(text: string, maxBytes: number): string {
  const cut = Buffer.from(text, "utf8").subarray(0, maxBytes).toString("utf8");
  return cut.replace(/\uFFFD+$/, "");
}

/** Takes lines from `start` while they fit `limit` and `maxBytes` (at least one line, cut if need be). */
function takeLines(
  lines: readonly string[],
  start: number,
  limit: number,
  maxBytes: number,
): { text: string; shown: number; cutLine?: DiffCutLine } {
  const kept: string[] = [];
  let bytes = 0;
  for (let index = start; index < lines.length && kept.length < limit; index += 1) {
    const line = lines[index] ?? "";
    const size = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + size > maxBytes) {
      if (kept.length === 0) {
        const shown = cutToBytes(line, Math.max(1, maxBytes - 1));
        return {
          text: `${shown}\n`,
          shown: 1,
          cutLine: {
            line: index + 1,
            shown_characters: shown.length,
            total_characters: line.length,
          },
        };
      }
      break;
    }
    kept.push(line);
    bytes += size;
  }
  return { text: kept.length === 0 ? "" : `${kept.join("\n")}\n`, shown: kept.length };
}

function narrowedPathspecs(files: readonly DiffFile[]): string[] {
  const specs: string[] = [];
  for (const file of files) {
    if (file.from !== undefined) specs.push(literalPathspec(file.from));
    specs.push(literalPathspec(file.file));
  }
  return specs;
}

/** Runs one git diff call: extra arguments, pathspecs, an optional stdout cap. */
type DiffCall = (
  extra: readonly string[],
  pathspecs: readonly string[],
  maxBytes?: number,
) => Promise<GitCallResult>;

/**
 * The changed files of a diff and, when the whole patch fits what the tools read, each file's
 * patch (redacted); a diff too large for that gets its file list only.
 */
async function readDiffFiles(
  call: DiffCall,
  command: DiffCommand,
  request: DiffPageRequest,
  tooLarge: (what: string) => never,
): Promise<{ files: DiffFile[]; patches: string[] | undefined }> {
  const { mounted, maxOutputBytes } = request;
  let files: DiffFile[];
  let patches: string[] | undefined;
  if (request.filesOnly) {
    const listing = await call(["--numstat", "-z"], command.pathspecs);
    if (listing.truncated) tooLarge("8 MiB of file list");
    if (listing.exitCode !== 0) failFromGit(listing, command.action, mounted);
    files = mergeDuplicates(parseNumstatPatch(listing.stdout).files);
  } else {
    const whole = await call(
      ["--numstat", "--patch", "-z"],
      command.pathspecs,
      Math.max(maxOutputBytes * 4, 1_048_576),
    );
    if (whole.exitCode !== 0 && !whole.truncated) failFromGit(whole, command.action, mounted);
    if (whole.truncated) {
      const listing = await call(["--numstat", "-z"], command.pathspecs);
      if (listing.truncated) tooLarge("8 MiB of file list");
      if (listing.exitCode !== 0) failFromGit(listing, command.action, mounted);
      files = mergeDuplicates(parseNumstatPatch(listing.stdout).files);
    } else {
      const parsed = parseNumstatPatch(whole.stdout);
      files = mergeDuplicates(parsed.files);
      patches = splitPatch(parsed.patch, files).map(redactPatchKeys);
    }
  }

  return { files, patches };
}

/**
 * Reads a diff and cuts one page out of it. The file list (with exact totals) always comes
 * complete; the patch text is read for the page's files only when the whole diff is too large to
 * read at once.
 *
 * @param runner - the repository's runner
 * @param command - how to ask git for the diff
 * @param request - the page
 * @param signal - cancels the calls
 * @returns the page
 */
export async function pageDiff(
  runner: GitRunner,
  command: DiffCommand,
  request: DiffPageRequest,
  signal: AbortSignal,
): Promise<DiffPage> {
  const { mounted, maxOutputBytes } = request;
  const call = (extra: readonly string[], pathspecs: readonly string[], maxBytes?: number) =>
    runner.run([...command.args, ...extra, "--", ...pathspecs, ...command.exclusions], {
      signal,
      workingTree: command.workingTree,
      pathspecMagic: true,
      ...(maxBytes === undefined ? {} : { maxOutputBytes: maxBytes }),
    });
  const tooLarge = (what: string): never =>
    refuse("TOO_LARGE", `${command.action} produced more output than the tools read (${what}).`, {
      hint: "Call again with path set to a directory or one file, or with context_lines=0.",
    });

  const { files, patches } = await readDiffFiles(call, command, request, tooLarge);

  const totals = totalsOf(files);

  const wholePatchOf = async (file: DiffFile, known: string | undefined): Promise<string> => {
    if (known !== undefined) return known;
    const single = await call(["--patch"], narrowedPathspecs([file]), MAX_SINGLE_PATCH_BYTES);
    if (single.truncated) tooLarge(`the patch of ${file.file} is over 32 MiB`);
    if (single.exitCode !== 0) failFromGit(single, command.action, mounted);
    return redactPatchKeys(single.stdout);
  };

  const offset = request.offset;
  const only = files[0];
  if (!request.filesOnly && files.length === 1 && only !== undefined) {
    const lines = patchLines(await wholePatchOf(only, patches?.[0]));
    if (isOffsetPastEnd(offset, lines.length)) {
      refuseWith(
        offsetPastEnd({ tool: request.tool, offset, total: lines.length, unit: "patch lines" }),
      );
    }
    const limit = Math.min(request.limit ?? DEFAULT_DIFF_LINE_LIMIT, MAX_DIFF_LINE_LIMIT);
    const taken = takeLines(lines, offset - 1, limit, maxOutputBytes);
    const end = offset - 1 + taken.shown;
    const page: DiffPage = {
      unit: "lines",
      files: [only],
      ...totals,
      diff: taken.text,
      offset,
      total: lines.length,
      truncated: end < lines.length,
    };
    if (end < lines.length) page.next_offset = end + 1;
    if (taken.cutLine !== undefined) page.cut_line = taken.cutLine;
    return page;
  }

  if (isOffsetPastEnd(offset, files.length)) {
    refuseWith(offsetPastEnd({ tool: request.tool, offset, total: files.length, unit: "files" }));
  }
  const limit = Math.min(request.limit ?? request.maxFiles, request.maxFiles);
  const candidates = files.slice(offset - 1, offset - 1 + limit);
  let shown: DiffFile[] = candidates;
  let diff = "";
  let partial: DiffPartialFile | undefined;
  if (!request.filesOnly && candidates.length > 0) {
    let chunks: Array<string | undefined>;
    if (patches !== undefined) chunks = patches.slice(offset - 1, offset - 1 + limit);
    else {
      const narrowed = await call(
        ["--numstat", "--patch", "-z"],
        narrowedPathspecs(candidates),
        Math.max(maxOutputBytes * 4, 1_048_576),
      );
      if (narrowed.exitCode !== 0 && !narrowed.truncated) {
        failFromGit(narrowed, command.action, mounted);
      }
      const split = splitPatch(parseNumstatPatch(narrowed.stdout).patch, candidates).map(
        redactPatchKeys,
      );
      chunks = split;
      if (narrowed.truncated) {
        // The last chunk read may be incomplete, and the ones after it are missing.
        let last = split.length - 1;
        while (last > 0 && (split[last] ?? "") === "") last -= 1;
        chunks = split.map((chunk, index) => (index < last ? chunk : undefined));
      }
    }
    const kept: string[] = [];
    let bytes = 0;
    for (const [index, chunk] of chunks.entries()) {
      const size =
        chunk === undefined ? Number.POSITIVE_INFINITY : Buffer.byteLength(chunk, "utf8");
      if (bytes + size <= maxOutputBytes) {
        kept.push(chunk ?? "");
        bytes += size;
        continue;
      }
      if (index === 0) {
        const file = candidates[0] as DiffFile;
        const lines = patchLines(await wholePatchOf(file, chunk));
        const taken = takeLines(lines, 0, DEFAULT_DIFF_LINE_LIMIT, maxOutputBytes);
        kept.push(taken.text);
        if (taken.shown < lines.length) {
          partial = {
            file: file.file,
            shown_lines: taken.shown,
            total_lines: lines.length,
            next_offset: taken.shown + 1,
          };
        }
      }
      break;
    }
    shown = candidates.slice(0, kept.length);
    diff = kept.join("");
  }
  const end = offset - 1 + shown.length;
  const page: DiffPage = {
    unit: "files",
    files: shown,
    ...totals,
    diff,
    offset,
    total: files.length,
    truncated: end < files.length,
  };
  if (end < files.length) page.next_offset = end + 1;
  if (partial !== undefined) page.partial = partial;
  return page;
}

/** A call written as `git_diff with staged=true, path="a.ts", offset=3` (not a marker). */
function describeCall(tool: string, args: Readonly<Record<string, NextCallValue>>): string {
  return formatNextCall(tool, args).replace(`call ${tool} again with `, `${tool} with `);
}

/** How {@link formatDiffPage} names the next calls. */
export interface DiffPageFormat {
  /** The tool serving the next page. */
  tool: string;
  /** The arguments every next call repeats (the call's own, besides offset), in order. */
  args: Readonly<Record<string, NextCallValue>>;
  /** The field that narrows to one file (`path` for git_diff, `diff_path` for git_show). */
  pathField: string;
}

/**
 * Renders a diff page: the summary (exact totals), the page's files when the page is not the
 * whole diff, the patch text, then the contract's one marker naming the exact next call (a file
 * cut on a files page names the call for its rest in a sentence, not a second marker).
 *
 * @param page - the page
 * @param format - the tool and the arguments its next calls repeat
 * @returns the lines (the summary first, without a heading)
 */
export function formatDiffPage(page: DiffPage, format: DiffPageFormat): string[] {
  const lines = [summarizeDiffTotals(page)];
  const shownFiles = page.files.length;
  if (page.unit === "files") {
    const whole = page.offset === 1 && !page.truncated;
    if (!whole || page.binary_files > 0 || page.partial !== undefined || page.diff.length === 0) {
      if (!whole) {
        lines.push(
          shownFiles === 0
            ? "No files on this page."
            : `Files ${formatCount(page.offset)}–${formatCount(page.offset + shownFiles - 1)} of ${formatCount(page.total)}:`,
        );
      }
      lines.push(...formatDiffFiles(page.files));
    }
  } else {
    lines.push(...formatDiffFiles(page.files));
    const last = page.offset + patchLines(page.diff).length - 1;
    if (page.offset > 1 || page.truncated) {
      lines.push(
        `Patch lines ${formatCount(page.offset)}–${formatCount(last)} of ${formatCount(page.total)}:`,
      );
    }
  }
  if (page.diff.length > 0) lines.push("", page.diff.replace(/\n$/, ""));
  if (page.cut_line !== undefined) {
    lines.push(
      formatTruncationMarker({
        omitted: page.cut_line.total_characters - page.cut_line.shown_characters,
        unit: "characters",
        next: `patch line ${formatCount(page.cut_line.line)} is longer than a page; the rest of it is not shown`,
      }),
    );
  }
  if (page.partial !== undefined) {
    // A page carries one marker (the next files); the rest of the cut file is named in a
    // sentence, as a call on that file alone (limit counts its patch lines there, so it is left out).
    const { [format.pathField]: _path, limit: _limit, ...rest } = format.args;
    const call = describeCall(format.tool, {
      ...rest,
      [format.pathField]: page.partial.file,
      offset: page.partial.next_offset,
    });
    lines.push(
      `${page.partial.file}: patch lines 1–${formatCount(page.partial.shown_lines)} of ${formatCount(page.partial.total_lines)} are shown; ${call} shows the rest of it.`,
    );
  }
  if (page.next_offset !== undefined) {
    // Paging lines of the one file: name it, so the next call still covers that file alone.
    const only = page.files[0];
    const args =
      page.unit === "lines" && format.args[format.pathField] === undefined && only !== undefined
        ? { ...format.args, [format.pathField]: only.file }
        : format.args;
    lines.push(
      formatPageMarker({
        tool: format.tool,
        nextOffset: page.next_offset,
        omitted: page.total - page.next_offset + 1,
        unit: page.unit,
        args,
      }),
    );
  }
  return lines;
}
