import {
  formatCount,
  formatPageMarker,
  formatTruncationMarker,
  isOffsetPastEnd,
  joinSentences,
  type NextCallValue,
  offsetPastEnd,
  pageItems,
  redactPrivateKeys,
} from "@agentool/contract";
import { DEFAULT_DIFF_LINE_LIMIT, type DiffCutLine, MAX_DIFF_LINE_LIMIT } from "./diff-pages.js";
import { refuse, refuseWith } from "./git-failure.js";
import { normalizeRepositoryPath } from "./paths.js";
import { failFromGit, type GitToolSettings, looksBinary } from "./tool-support.js";

/** A file's content at a revision (`file_at_revision`), one page of lines. */
export interface GitShowFile {
  /** What was shown. */
  kind: "file";
  /** The revision as given. */
  revision: string;
  /** The commit it was read from (full hash). */
  hash: string;
  /** The file's path. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Whether the content is binary (then `content` is empty). */
  binary: boolean;
  /** The text of this page's lines, as they are (no line numbers). */
  content: string;
  /** The first line on this page (1-based). */
  offset: number;
  /** Lines in the whole file. */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether lines after this page were left out. */
  truncated: boolean;
  /** A single line longer than the whole page: only its beginning is in `content`. */
  cut_line?: DiffCutLine;
  /** The call's arguments as given, besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, NextCallValue>;
}

/** A directory's entries at a revision (`file_at_revision`), one page. */
export interface GitShowDirectory {
  /** What was shown. */
  kind: "directory";
  /** The revision as given. */
  revision: string;
  /** The commit it was read from (full hash). */
  hash: string;
  /** The directory's path (`"."` for the root). */
  path: string;
  /** This page's entry names; directories end with `/`. */
  entries: string[];
  /** The first entry on this page (1-based). */
  offset: number;
  /** Entries in all. */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether entries after this page were left out. */
  truncated: boolean;
  /** The call's arguments as given, besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, NextCallValue>;
}

/** What {@link showRevisionPath} reads. */
export interface RevisionPathRequest {
  /** The revision as given. */
  revision: string;
  /** Its commit (full hash). */
  hash: string;
  /** The path as given (`file_at_revision`). */
  path: string;
  /** 1-based first line or entry. */
  offset: number;
  /** Page size as asked; `undefined` for the defaults. */
  limit: number | undefined;
  /** The call's arguments as given, besides offset (repeated by the next-page marker). */
  callArguments: Record<string, NextCallValue>;
}

/**
 * The file or directory at a path in a commit, one page of it (`git_show`'s `file_at_revision`).
 *
 * @param settings - the tool's runner, caps and name
 * @param request - the revision as given, its hash, the path, the page and the call's arguments
 * @param signal - cancels the calls
 * @returns the file's lines or the directory's entries
 */
export async function showRevisionPath(
  settings: GitToolSettings,
  request: RevisionPathRequest,
  signal: AbortSignal,
): Promise<GitShowFile | GitShowDirectory> {
  const { runner, maxEntries, maxOutputBytes, mounted, name } = settings;
  const { revision, hash, path, offset, limit } = request;
  const realRoot = await runner.realRoot();
  const relative = normalizeRepositoryPath(runner, realRoot, path, "file_at_revision");
  const shownPath = relative === "" ? "." : relative;
  const result = await runner.run(["cat-file", "--batch"], {
    signal,
    input: `${hash}:${relative}\n`,
    maxOutputBytes: Math.max(maxOutputBytes * 20, 4 * 1_048_576),
  });
  if (result.exitCode !== 0 && !result.truncated) failFromGit(result, "git cat-file", mounted);
  const newline = result.stdoutBytes.indexOf(10);
  const header = result.stdoutBytes.subarray(0, newline === -1 ? undefined : newline).toString();
  const match = /^([0-9a-f]{40,64}) (blob|tree|commit) (\d+)$/.exec(header);
  if (match === null) {
    refuse(
      "FILE_NOT_FOUND",
      `${shownPath} does not exist at ${hash.slice(0, 7)} (it may have been added later or renamed).`,
      {
        hint: joinSentences([
          mounted.when("git_log", "Call git_log with path to find the commits that touched it, or"),
          `${mounted.has("git_log") ? "call" : "Call"} ${name} with file_at_revision='.' to list the files at that revision.`,
        ]),
      },
    );
  }
  const [, objectId = "", type = "", sizeText = "0"] = match;
  if (type === "tree") {
    const listing = await runner.run(["ls-tree", "-z", objectId], { signal });
    if (listing.exitCode !== 0) failFromGit(listing, "git ls-tree", mounted);
    const entries = listing.stdout
      .split("\0")
      .filter((line) => line.length > 0)
      .map((line) => {
        const tab = line.indexOf("\t");
        const kind = line.split(" ")[1];
        const entry = line.slice(tab + 1);
        return kind === "tree" ? `${entry}/` : entry;
      });
    if (isOffsetPastEnd(offset, entries.length)) {
      refuseWith(offsetPastEnd({ tool: name, offset, total: entries.length, unit: "entries" }));
    }
    const page = pageItems(entries, {
      offset,
      limit: Math.min(limit ?? maxEntries, maxEntries),
    });
    return {
      kind: "directory",
      revision,
      hash,
      path: shownPath,
      entries: page.items,
      offset,
      ...page.page,
      call_arguments: request.callArguments,
    };
  }
  const size = Number(sizeText);
  const body = result.stdoutBytes.subarray(newline + 1, newline + 1 + size);
  if (result.truncated && body.length < size) {
    refuse(
      "TOO_LARGE",
      `${shownPath} at ${hash.slice(0, 7)} is ${formatCount(size)} bytes, more than ${name} reads at once.`,
      { hint: "Ask the user for another way to read this file." },
    );
  }
  const binary = looksBinary(body);
  // A private key in the file is redacted before paging, so no page shows any of it.
  const text = binary ? "" : redactPrivateKeys(body.toString("utf8"));
  const lines = text.length === 0 ? [] : text.replace(/\n$/, "").split("\n");
  if (isOffsetPastEnd(offset, lines.length)) {
    refuseWith(offsetPastEnd({ tool: name, offset, total: lines.length, unit: "lines" }));
  }
  const maxLines = Math.min(limit ?? DEFAULT_DIFF_LINE_LIMIT, MAX_DIFF_LINE_LIMIT);
  const kept: string[] = [];
  let bytes = 0;
  let cutLine: DiffCutLine | undefined;
  for (let index = offset - 1; index < lines.length && kept.length < maxLines; index += 1) {
    const line = lines[index] ?? "";
    const lineBytes = Buffer.byteLength(line, "utf8") + 1;
    if (bytes + lineBytes > maxOutputBytes) {
      if (kept.length > 0) break;
      const shown = Buffer.from(line)
        .subarray(0, maxOutputBytes)
        .toString("utf8")
        .replace(/\uFFFD+$/, "");
      cutLine = {
        line: index + 1,
        shown_characters: shown.length,
        total_characters: line.length,
      };
      kept.push(shown);
      break;
    }
    kept.push(line);
    bytes += lineBytes;
  }
  const end = offset - 1 + kept.length;
  const file: GitShowFile = {
    kind: "file",
    revision,
    hash,
    path: shownPath,
    size,
    binary,
    content: kept.join("\n"),
    offset,
    total: lines.length,
    truncated: end < lines.length,
    call_arguments: request.callArguments,
  };
  if (end < lines.length) file.next_offset = end + 1;
  if (cutLine !== undefined) file.cut_line = cutLine;
  return file;
}

/**
 * Renders a file's page of lines or a directory's page of entries at a revision, a cut page with
 * the contract's marker naming the exact next call (every argument of this one).
 *
 * @param data - the file or directory page
 * @param tool - the tool's name
 * @returns model-facing text
 */
export function formatRevisionPath(data: GitShowFile | GitShowDirectory, tool: string): string {
  if (data.kind === "file") {
    const where = `${data.path} at ${data.hash.slice(0, 7)}`;
    if (data.binary) return `${where}: binary file, ${data.size} bytes (content not shown).`;
    if (data.total === 0) return `${where}: empty file.`;
    const last = data.next_offset === undefined ? data.total : data.next_offset - 1;
    const range =
      data.offset === 1 && !data.truncated
        ? `${formatCount(data.total)} lines`
        : `lines ${formatCount(data.offset)}–${formatCount(last)} of ${formatCount(data.total)}`;
    const lines = [`${where} (${range}):`, data.content];
    if (data.cut_line !== undefined) {
      lines.push(
        formatTruncationMarker({
          omitted: data.cut_line.total_characters - data.cut_line.shown_characters,
          unit: "characters",
          next: `line ${formatCount(data.cut_line.line)} is longer than a page; the rest of it is not shown`,
        }),
      );
    }
    if (data.next_offset !== undefined) {
      lines.push(
        formatPageMarker({
          tool,
          nextOffset: data.next_offset,
          omitted: data.total - data.next_offset + 1,
          unit: "lines",
          args: data.call_arguments,
        }),
      );
    }
    return lines.join("\n");
  }
  const range =
    data.offset === 1 && !data.truncated
      ? `${formatCount(data.total)} entries`
      : `entries ${formatCount(data.offset)}–${formatCount(data.offset + data.entries.length - 1)} of ${formatCount(data.total)}`;
  const lines = [`${data.path} at ${data.hash.slice(0, 7)}: ${range}`];
  lines.push(...data.entries.map((entry) => `  ${entry}`));
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "entries",
        args: data.call_arguments,
      }),
    );
  }
  return lines.join("\n");
}
