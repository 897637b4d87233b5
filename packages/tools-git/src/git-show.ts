import {
  defineTool,
  formatCount,
  formatPageMarker,
  formatTruncationMarker,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pageItems,
  pagingInputShape,
  parseOptions,
  redactPrivateKeys,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import {
  DEFAULT_DIFF_LINE_LIMIT,
  type DiffCutLine,
  type DiffPage,
  formatDiffPage,
  MAX_DIFF_LINE_LIMIT,
  pageDiff,
} from "./internal/diff-pages.js";
import { guard, refuse, refuseWith } from "./internal/git-failure.js";
import {
  confinePath,
  literalPathspec,
  normalizeRepositoryPath,
  secretExclusionPathspecs,
} from "./internal/paths.js";
import { parseRange, resolveCommit } from "./internal/revisions.js";
import {
  createSettings,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_OUTPUT_BYTES,
  failFromGit,
  type GitToolSettings,
  gitToolOptionsShape,
  looksBinary,
} from "./internal/tool-support.js";

/** The default name of the show tool. */
export const GIT_SHOW_TOOL_NAME = "git_show";

/**
 * A commit shown by `git_show`: its header and one page of its diff ({@link DiffPage}: the page's
 * files, the exact totals, the patch text, `offset`, `total`, `next_offset`, `truncated`). A merge
 * shows its changes against its first parent.
 */
export interface GitShowCommit extends DiffPage {
  /** What was shown. */
  kind: "commit";
  /** The revision as given (repeated by the next-page call). */
  revision: string;
  /** The full hash. */
  hash: string;
  /** The abbreviated hash. */
  short_hash: string;
  /** The author's name. */
  author: string;
  /** The author's email. */
  author_email: string;
  /** The author date, ISO 8601. */
  date: string;
  /** The parents' full hashes (two or more for a merge, none for the first commit). */
  parents: string[];
  /** The full message. */
  message: string;
  /** The filter on the commit's diff (repository-relative), when one was given. */
  diff_path?: string;
  /** Why the diff is empty, when it is (a diff_path the commit did not touch, an empty commit). */
  empty_reason?: string;
}

/** A file's content at a revision, one page of lines. */
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
}

/** A directory's entries at a revision, one page. */
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
}

/** What `git_show` returns. */
export type GitShowToolData = GitShowCommit | GitShowFile | GitShowDirectory;

function createShowInputSchema(maxEntries: number, maxOutputBytes: number) {
  return z.object({
    revision: z
      .string()
      .describe("The commit to show: a hash, branch, tag or expression such as 'HEAD~2'."),
    path: z
      .string()
      .optional()
      .describe(
        "Optional: show this file (or directory) as it was at that revision instead of the commit.",
      ),
    diff_path: z
      .string()
      .optional()
      .describe(
        "Optional: show only the commit's changes to this file or directory. When they cover one file, offset and limit count that file's patch lines.",
      ),
    ...pagingInputShape({
      unit: "item",
      defaultLimit: maxEntries,
      maxLimit: Math.max(maxEntries, MAX_DIFF_LINE_LIMIT),
      offsetDescription:
        "1-based position of the first item to return (default 1): the commit's changed files (its patch lines when the diff covers one file); with path, the file's lines or the directory's entries. Use the next_offset a cut result gives to get the next page.",
      limitDescription: `Most items to return: changed files or directory entries (default and at most ${maxEntries}), patch or file lines (default ${DEFAULT_DIFF_LINE_LIMIT}, at most ${MAX_DIFF_LINE_LIMIT}). A page also stops at about ${formatCount(maxOutputBytes)} bytes of text.`,
    }),
  });
}

/** The show tool's input schema (with the default caps). */
export const gitShowInputSchema = createShowInputSchema(
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_OUTPUT_BYTES,
);

/** The show tool's type. */
export type GitShowTool = Tool<typeof gitShowInputSchema, GitShowToolData>;

/** Field aliases `git_show` accepts silently (alias → field). */
export const GIT_SHOW_ALIASES: Readonly<Record<string, string>> = {
  commit: "revision",
  ref: "revision",
  hash: "revision",
  sha: "revision",
  rev: "revision",
  file_path: "path",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Show one commit: its author, date, full message and its diff (exact totals, then the changed files and patch; a merge shows its changes against its first parent).",
    "diff_path narrows the diff to one file or directory. With path: that file's content as it was at the revision (e.g. to compare with today's version or recover deleted text), or a directory's entries.",
    mounted.when("git_log", "Get revisions from git_log."),
    "Everything long comes in pages (offset, limit): a cut result ends with a marker naming the exact next call. Binary files are summarised, not dumped. Read-only.",
  ]);
}

const showOptionsSchema = z.object(gitToolOptionsShape);

const FIELD = "\x1f";

/** What {@link formatGitShow} needs besides the data. */
export interface GitShowFormatOptions {
  /** The tool's name, for the next-page call. Default `"git_show"`. */
  toolName?: string;
}

/**
 * Renders what `git_show` found: a commit header and one page of its diff, a page of a file's
 * lines, or a page of a directory listing — each cut page with the contract's marker naming the
 * exact next call.
 *
 * @param data - the show tool's data
 * @param options - the tool's name
 * @returns model-facing text
 * @example
 * formatGitShow(result.data); // "commit a1b2c3d…\nAuthor: Ada <ada@example.com>\n…"
 */
export function formatGitShow(data: GitShowToolData, options: GitShowFormatOptions = {}): string {
  const tool = options.toolName ?? GIT_SHOW_TOOL_NAME;
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
          args: { revision: data.revision, path: data.path },
        }),
      );
    }
    return lines.join("\n");
  }
  if (data.kind === "directory") {
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
          args: { revision: data.revision, path: data.path },
        }),
      );
    }
    return lines.join("\n");
  }
  const args: Record<string, NextCallValue> = { revision: data.revision };
  if (data.diff_path !== undefined) args.diff_path = data.diff_path;
  const diff = formatDiffPage(data, { tool, args, pathField: "diff_path" });
  const lines = [
    `commit ${data.hash}${data.parents.length > 1 ? ` (merge of ${data.parents.map((parent) => parent.slice(0, 7)).join(", ")}; diff against the first parent)` : ""}`,
    `Author: ${data.author} <${data.author_email}>`,
    `Date:   ${data.date}`,
    "",
    data.message.replace(/^/gm, "    "),
    "",
    `${data.diff_path === undefined ? "" : `${data.diff_path}: `}${diff[0]}`,
    ...diff.slice(1),
  ];
  if (data.empty_reason !== undefined) lines.push(`No changes: ${data.empty_reason}`);
  return lines.join("\n");
}

/** The file or directory at `path` in a commit, one page of it. */
async function showPath(
  settings: GitToolSettings,
  revision: string,
  hash: string,
  path: string,
  offset: number,
  limit: number | undefined,
  signal: AbortSignal,
): Promise<GitShowFile | GitShowDirectory> {
  const { runner, maxEntries, maxOutputBytes, mounted, name } = settings;
  const realRoot = await runner.realRoot();
  const relative = normalizeRepositoryPath(runner, realRoot, path, "path");
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
          `${mounted.has("git_log") ? "call" : "Call"} ${name} with path='.' to list the files at that revision.`,
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
  };
  if (end < lines.length) file.next_offset = end + 1;
  if (cutLine !== undefined) file.cut_line = cutLine;
  return file;
}

/** A commit: its header and one page of its diff (against its first parent). */
async function showCommit(
  settings: GitToolSettings,
  revision: string,
  hash: string,
  diffPath: string | undefined,
  offset: number,
  limit: number | undefined,
  signal: AbortSignal,
): Promise<GitShowCommit> {
  const { runner, maxEntries, maxOutputBytes, mounted, name } = settings;
  const header = await runner.run(
    [
      "show",
      "--no-color",
      "-s",
      `--format=%H${FIELD}%h${FIELD}%an${FIELD}%ae${FIELD}%aI${FIELD}%P${FIELD}%B`,
      hash,
      "--",
    ],
    { signal },
  );
  if (header.exitCode !== 0) failFromGit(header, "git show", mounted);
  const [fullHash = hash, shortHash = "", author = "", email = "", date = "", parents = ""] =
    header.stdout.split(FIELD);
  const message = header.stdout.split(FIELD).slice(6).join(FIELD).trim();
  const page = await pageDiff(
    runner,
    {
      args: [
        "show",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--find-renames",
        "--diff-merges=first-parent",
        "--format=",
        hash,
      ],
      pathspecs: [literalPathspec(diffPath ?? ".")],
      exclusions: secretExclusionPathspecs(runner),
      workingTree: false,
      action: "git show",
    },
    {
      tool: name,
      offset,
      limit,
      filesOnly: false,
      maxOutputBytes,
      maxFiles: maxEntries,
      mounted,
    },
    signal,
  );
  const commit: GitShowCommit = {
    kind: "commit",
    revision,
    hash: fullHash,
    short_hash: shortHash,
    author,
    author_email: email,
    date,
    parents: parents.split(" ").filter((parent) => parent.length > 0),
    message,
    ...(diffPath === undefined || diffPath === "." ? {} : { diff_path: diffPath }),
    ...page,
  };
  if (page.total_files === 0) {
    commit.empty_reason =
      commit.diff_path !== undefined
        ? `this commit did not change ${commit.diff_path}.`
        : `the commit changes no file${commit.parents.length > 0 ? " against its first parent" : ""} (an empty commit, or one that touches only secret paths, which the git tools never show).`;
  }
  return commit;
}

/**
 * Creates the `git_show` tool: a commit's message and its diff paged by file (or by patch line
 * when it covers one file), or a file's content (or a directory's entries) at a revision, paged.
 * The revision is resolved to a hash first; textconv and external diff drivers never run.
 *
 * @param options - the repository root, caps, the mounted tools and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitShow = createGitShowTool({ root: "/work/repo" });
 * await gitShow.run({ revision: "HEAD~3", path: "README.md" }); // data.kind === "file"
 * await gitShow.run({ revision: "HEAD", diff_path: "src/big.ts", offset: 2001 }); // patch lines 2001…
 */
export function createGitShowTool(options: GitToolOptions): GitShowTool {
  const parsed = parseOptions("createGitShowTool", showOptionsSchema, options);
  const settings = createSettings(parsed, GIT_SHOW_TOOL_NAME);
  const { runner, maxEntries, maxOutputBytes, mounted, name } = settings;
  const input = createShowInputSchema(maxEntries, maxOutputBytes) as typeof gitShowInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    aliases: GIT_SHOW_ALIASES,
    annotations: { title: "Git show", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (request, context): Promise<ToolResult<GitShowToolData>> =>
      guard(async () => {
        if (request.path !== undefined && request.diff_path !== undefined) {
          refuse(
            "INVALID_INPUT",
            "path (a file's content at the revision) and diff_path (the commit's changes to a file) cannot be combined.",
            {
              hint: "Pass path to read the file as it was, or diff_path to see what the commit changed in it.",
            },
          );
        }
        const range = parseRange(request.revision);
        if (range !== undefined) {
          refuse(
            "INVALID_INPUT",
            `revision ${JSON.stringify(request.revision)} is a range of commits; git_show shows one commit.`,
            {
              hint: mounted.has("git_diff")
                ? `Call git_diff with ref=${JSON.stringify(request.revision)} to compare the two commits, or git_show with one of them.`
                : "Pass one commit, e.g. the right-hand side of the range.",
            },
          );
        }
        const hash = await resolveCommit(
          runner,
          request.revision,
          "revision",
          context.signal,
          mounted,
        );
        const offset = request.offset ?? 1;
        if (request.path !== undefined) {
          return ok(
            await showPath(
              settings,
              request.revision,
              hash,
              request.path,
              offset,
              request.limit,
              context.signal,
            ),
          );
        }
        const diffPath =
          request.diff_path === undefined
            ? undefined
            : await confinePath(runner, request.diff_path, "diff_path");
        return ok(
          await showCommit(
            settings,
            request.revision,
            hash,
            diffPath,
            offset,
            request.limit,
            context.signal,
          ),
        );
      }),
    render: (data) => formatGitShow(data, { toolName: name }),
  });
}
