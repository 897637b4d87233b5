import {
  defineTool,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  truncateList,
  truncateText,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import { guard, refuse } from "./internal/git-failure.js";
import {
  type DiffFile,
  formatDiffFiles,
  parseNumstatPatch,
  summarizeDiffFiles,
} from "./internal/parse-diff.js";
import { normalizeRepositoryPath, secretExclusionPathspecs } from "./internal/paths.js";
import { resolveCommit } from "./internal/revisions.js";
import {
  createSettings,
  failFromGit,
  gitToolOptionsShape,
  looksBinary,
} from "./internal/tool-support.js";

/** The default name of the show tool. */
export const GIT_SHOW_TOOL_NAME = "git_show";

/** A commit shown by `git_show`. */
export interface GitShowCommit {
  /** What was shown. */
  kind: "commit";
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
  /** The files the commit changed (capped). */
  files: DiffFile[];
  /** How many files it changed. */
  total_files: number;
  /** The commit's diff (capped; binary files summarised). */
  diff: string;
  /** Whether the diff or the file list was cut. */
  truncated: boolean;
}

/** A file's content at a revision. */
export interface GitShowFile {
  /** What was shown. */
  kind: "file";
  /** The commit it was read from (full hash). */
  revision: string;
  /** The file's path. */
  path: string;
  /** Size in bytes. */
  size: number;
  /** Whether the content is binary (then `content` is empty). */
  binary: boolean;
  /** The text, from line `offset` on (capped). */
  content: string;
  /** Lines in the whole file. */
  total_lines: number;
  /** The first line shown (1-based). */
  offset: number;
  /** Whether the content was cut. */
  truncated: boolean;
}

/** A directory's entries at a revision. */
export interface GitShowDirectory {
  /** What was shown. */
  kind: "directory";
  /** The commit it was read from (full hash). */
  revision: string;
  /** The directory's path (`"."` for the root). */
  path: string;
  /** Entry names; directories end with `/` (capped). */
  entries: string[];
  /** How many entries there are. */
  total_entries: number;
  /** The truncation marker, when `entries` was capped. */
  truncated?: string;
}

/** What `git_show` returns. */
export type GitShowToolData = GitShowCommit | GitShowFile | GitShowDirectory;

/** The show tool's input schema. */
export const gitShowInputSchema = z.object({
  revision: z
    .string()
    .describe("The commit to show: a hash, branch, tag or expression such as 'HEAD~2'."),
  path: z
    .string()
    .optional()
    .describe(
      "Optional: show this file (or directory) as it was at that revision instead of the commit's diff.",
    ),
  offset: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .optional()
    .describe(
      "With path: the first line to show (1-based), to page through a long file. Default 1.",
    ),
});

/** The show tool's type. */
export type GitShowTool = Tool<typeof gitShowInputSchema, GitShowToolData>;

const DEFAULT_DESCRIPTION = [
  "Show one commit: its author, date, full message, changed files and diff (capped).",
  "With path: the content of that file as it was at the revision (e.g. to compare with today's",
  "version or recover deleted text), or a directory's entries. Get revisions from git_log.",
  "Long file content is cut with a marker: call again with the offset it names. Binary files are",
  "summarised, not dumped. Read-only.",
].join(" ");

const showOptionsSchema = z.object(gitToolOptionsShape);

const FIELD = "\x1f";

/**
 * Renders what `git_show` found: a commit header and diff, a file's lines, or a directory listing.
 *
 * @param data - the show tool's data
 * @returns model-facing text
 * @example
 * formatGitShow(result.data); // "commit a1b2c3d…\nAuthor: Ada <ada@example.com>\n…"
 */
export function formatGitShow(data: GitShowToolData): string {
  if (data.kind === "file") {
    const where = `${data.path} at ${data.revision.slice(0, 7)}`;
    if (data.binary) return `${where}: binary file, ${data.size} bytes (content not shown).`;
    if (data.total_lines === 0) return `${where}: empty file.`;
    return `${where} (${data.total_lines} lines, from line ${data.offset}):\n${data.content}`;
  }
  if (data.kind === "directory") {
    const lines = [`${data.path} at ${data.revision.slice(0, 7)}: ${data.total_entries} entries`];
    lines.push(...data.entries.map((entry) => `  ${entry}`));
    if (data.truncated !== undefined) lines.push(data.truncated);
    return lines.join("\n");
  }
  const lines = [
    `commit ${data.hash}${data.parents.length > 1 ? ` (merge of ${data.parents.map((parent) => parent.slice(0, 7)).join(", ")})` : ""}`,
    `Author: ${data.author} <${data.author_email}>`,
    `Date:   ${data.date}`,
    "",
    data.message.replace(/^/gm, "    "),
    "",
    summarizeDiffFiles(data.files),
  ];
  if (data.truncated || data.files.some((file) => file.binary)) {
    lines.push(...formatDiffFiles(data.files));
  }
  if (data.diff.length > 0) lines.push("", data.diff);
  return lines.join("\n");
}

/**
 * Creates the `git_show` tool: a commit's message and capped diff, or a file's content (or a
 * directory's entries) at a revision. The revision is resolved to a hash first; textconv and
 * external diff drivers never run.
 *
 * @param options - the repository root, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitShow = createGitShowTool({ root: "/work/repo" });
 * await gitShow.run({ revision: "HEAD~3", path: "README.md" }); // data.kind === "file"
 */
export function createGitShowTool(options: GitToolOptions): GitShowTool {
  const parsed = parseOptions("createGitShowTool", showOptionsSchema, options);
  const settings = createSettings(parsed);
  const { runner, maxEntries, maxOutputBytes } = settings;

  async function showPath(
    hash: string,
    path: string,
    offset: number,
    signal: AbortSignal,
  ): Promise<GitShowFile | GitShowDirectory> {
    const realRoot = await runner.realRoot();
    const relative = normalizeRepositoryPath(runner, realRoot, path, "path");
    const shownPath = relative === "" ? "." : relative;
    const result = await runner.run(["cat-file", "--batch"], {
      signal,
      input: `${hash}:${relative}\n`,
      maxOutputBytes: Math.max(maxOutputBytes * 20, 4 * 1_048_576),
    });
    if (result.exitCode !== 0 && !result.truncated) failFromGit(result, "git cat-file");
    const newline = result.stdoutBytes.indexOf(10);
    const header = result.stdoutBytes.subarray(0, newline === -1 ? undefined : newline).toString();
    const match = /^([0-9a-f]{40,64}) (blob|tree|commit) (\d+)$/.exec(header);
    if (match === null) {
      refuse(
        "FILE_NOT_FOUND",
        `${shownPath} does not exist at ${hash.slice(0, 7)} (it may have been added later or renamed).`,
        {
          hint: "Call git_log with path to find the commits that touched it, or git_show with path='.' to list the files at that revision.",
        },
      );
    }
    const [, objectId = "", type = "", sizeText = "0"] = match;
    if (type === "tree") {
      const listing = await runner.run(["ls-tree", "-z", objectId], { signal });
      if (listing.exitCode !== 0) failFromGit(listing, "git ls-tree");
      const entries = listing.stdout
        .split("\0")
        .filter((line) => line.length > 0)
        .map((line) => {
          const tab = line.indexOf("\t");
          const kind = line.split(" ")[1];
          const name = line.slice(tab + 1);
          return kind === "tree" ? `${name}/` : name;
        });
      const list = truncateList(entries, maxEntries, {
        next: "call git_show again with path set to a subdirectory",
      });
      const directory: GitShowDirectory = {
        kind: "directory",
        revision: hash,
        path: shownPath,
        entries: list.items,
        total_entries: entries.length,
      };
      if (list.marker !== undefined) directory.truncated = list.marker;
      return directory;
    }
    const size = Number(sizeText);
    const body = result.stdoutBytes.subarray(newline + 1, newline + 1 + size);
    const file: GitShowFile = {
      kind: "file",
      revision: hash,
      path: shownPath,
      size,
      binary: looksBinary(body),
      content: "",
      total_lines: 0,
      offset,
      truncated: false,
    };
    if (file.binary) return file;
    const text = body.toString("utf8");
    const lines = text.length === 0 ? [] : text.replace(/\n$/, "").split("\n");
    file.total_lines = lines.length;
    if (offset > lines.length && lines.length > 0) {
      refuse(
        "INVALID_INPUT",
        `offset ${offset} is past the end of ${shownPath} (${lines.length} lines).`,
        {
          hint: `Call again with an offset between 1 and ${lines.length}.`,
        },
      );
    }
    const rest = lines.slice(offset - 1).join("\n");
    const cut = truncateText(rest, {
      maxBytes: maxOutputBytes,
      maxLines: 2_000,
      next: (details) => `call git_show again with offset=${offset + details.shownLines}`,
    });
    file.content = cut.text;
    file.truncated = cut.truncated || (result.truncated && body.length < size);
    return file;
  }

  async function showCommit(hash: string, signal: AbortSignal): Promise<GitShowCommit> {
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
    if (header.exitCode !== 0) failFromGit(header, "git show");
    const [fullHash = hash, shortHash = "", author = "", email = "", date = "", parents = ""] =
      header.stdout.split(FIELD);
    const message = header.stdout.split(FIELD).slice(6).join(FIELD).trim();
    const patchResult = await runner.run(
      [
        "show",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        "--find-renames",
        "--format=",
        "--numstat",
        "--patch",
        "-z",
        hash,
        "--",
        ".",
        ...secretExclusionPathspecs(runner),
      ],
      { signal, pathspecMagic: true, maxOutputBytes: Math.max(maxOutputBytes * 4, 1_048_576) },
    );
    if (patchResult.exitCode !== 0 && !patchResult.truncated) {
      failFromGit(patchResult, "git show");
    }
    const { files, patch } = parseNumstatPatch(patchResult.stdout);
    const narrow =
      "call git_diff with ref set to this commit's parent and path set to one file, or git_show with path to read a file at this revision";
    const text = truncateText(patch, {
      maxBytes: maxOutputBytes,
      next: patchResult.truncated ? `the diff is larger still; ${narrow}` : narrow,
    });
    const list = truncateList(files, maxEntries, { unit: "files" });
    return {
      kind: "commit",
      hash: fullHash,
      short_hash: shortHash,
      author,
      author_email: email,
      date,
      parents: parents.split(" ").filter((parent) => parent.length > 0),
      message,
      files: list.items,
      total_files: files.length,
      diff: text.text,
      truncated: text.truncated || patchResult.truncated || list.omitted > 0,
    };
  }

  return defineTool({
    name: parsed.name ?? GIT_SHOW_TOOL_NAME,
    description: parsed.description ?? DEFAULT_DESCRIPTION,
    input: gitShowInputSchema,
    annotations: { title: "Git show", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (input, context): Promise<ToolResult<GitShowToolData>> =>
      guard(async () => {
        const hash = await resolveCommit(runner, input.revision, "revision", context.signal);
        if (input.path !== undefined) {
          return ok(await showPath(hash, input.path, input.offset ?? 1, context.signal));
        }
        return ok(await showCommit(hash, context.signal));
      }),
    render: formatGitShow,
  });
}
