import {
  defineTool,
  givenCallArguments,
  joinSentences,
  type MountedTools,
  type NextCallValue,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import {
  DEFAULT_DIFF_LINE_LIMIT,
  type DiffPage,
  formatDiffPage,
  MAX_DIFF_LINE_LIMIT,
  pageDiff,
} from "./internal/diff-pages.js";
import { guard, refuse } from "./internal/git-failure.js";
import { confinePath, literalPathspec, secretExclusionPathspecs } from "./internal/paths.js";
import { parseRange, resolveCommit } from "./internal/revisions.js";
import {
  formatRevisionPath,
  type GitShowDirectory,
  type GitShowFile,
  showRevisionPath,
} from "./internal/show-revision-path.js";
import {
  createSettings,
  DEFAULT_MAX_ENTRIES,
  failFromGit,
  type GitToolSettings,
  gitToolOptionsShape,
} from "./internal/tool-support.js";

export type { GitShowDirectory, GitShowFile } from "./internal/show-revision-path.js";

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
  /** The filter on the commit's diff (`path`, repository-relative), when one was given. */
  path?: string;
  /** Why the diff is empty, when it is (a path the commit did not touch, an empty commit). */
  empty_reason?: string;
  /** The call's arguments as given, besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, NextCallValue>;
}

/** What `git_show` returns. */
export type GitShowToolData = GitShowCommit | GitShowFile | GitShowDirectory;

function createShowInputSchema(maxEntries: number) {
  return z.object({
    revision: z.string().describe("A hash, branch, tag or expression such as 'HEAD~2'."),
    path: z
      .string()
      .optional()
      .describe(
        "Only the commit's changes to this file or directory; for one file, offset and limit count patch lines.",
      ),
    file_at_revision: z
      .string()
      .optional()
      .describe("Show this file's content at the revision instead (a directory: its entries)."),
    ...pagingInputShape({
      unit: "item",
      defaultLimit: maxEntries,
      maxLimit: Math.max(maxEntries, MAX_DIFF_LINE_LIMIT),
      offsetDescription: "1-based first changed file, entry or line (default 1).",
      limitDescription: `Most files or entries (default ${maxEntries}), or lines (default ${DEFAULT_DIFF_LINE_LIMIT}).`,
    }),
  });
}

/** The show tool's input schema (with the default caps). */
export const gitShowInputSchema = createShowInputSchema(DEFAULT_MAX_ENTRIES);

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
  diff_path: "path",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Show one commit: author, date, full message and diff (a merge: against its first parent).",
    "path narrows the diff; file_at_revision shows instead a file's content (or a directory's entries) at that revision, e.g. to recover deleted text.",
    mounted.when("git_log", "Get revisions from git_log."),
    "A cut result ends with a marker naming the next call. Read-only.",
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
  if (data.kind !== "commit") return formatRevisionPath(data, tool);
  const diff = formatDiffPage(data, { tool, args: data.call_arguments, pathField: "path" });
  const lines = [
    `commit ${data.hash}${data.parents.length > 1 ? ` (merge of ${data.parents.map((parent) => parent.slice(0, 7)).join(", ")}; diff against the first parent)` : ""}`,
    `Author: ${data.author} <${data.author_email}>`,
    `Date:   ${data.date}`,
    "",
    data.message.replace(/^/gm, "    "),
    "",
    `${data.path === undefined ? "" : `${data.path}: `}${diff[0]}`,
    ...diff.slice(1),
  ];
  if (data.empty_reason !== undefined) lines.push(`No changes: ${data.empty_reason}`);
  return lines.join("\n");
}

/** A commit: its header and one page of its diff (against its first parent). */
async function showCommit(
  settings: GitToolSettings,
  request: {
    revision: string;
    hash: string;
    path: string | undefined;
    offset: number;
    limit: number | undefined;
    callArguments: Record<string, NextCallValue>;
  },
  signal: AbortSignal,
): Promise<GitShowCommit> {
  const { runner, maxEntries, maxOutputBytes, mounted, name } = settings;
  const { revision, hash, path, offset, limit } = request;
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
      pathspecs: [literalPathspec(path ?? ".")],
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
    ...(path === undefined || path === "." ? {} : { path }),
    ...page,
    call_arguments: request.callArguments,
  };
  if (page.total_files === 0) {
    commit.empty_reason =
      commit.path !== undefined
        ? `this commit did not change ${commit.path}.`
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
 * await gitShow.run({ revision: "HEAD", path: "src/a.ts" }); // what the commit changed in src/a.ts
 * await gitShow.run({ revision: "HEAD~3", file_at_revision: "README.md" }); // data.kind === "file"
 * await gitShow.run({ revision: "HEAD", path: "src/big.ts", offset: 2001 }); // patch lines 2001…
 */
export function createGitShowTool(options: GitToolOptions): GitShowTool {
  const parsed = parseOptions("createGitShowTool", showOptionsSchema, options);
  const settings = createSettings(parsed, GIT_SHOW_TOOL_NAME);
  const { runner, maxEntries, mounted, name } = settings;
  const input = createShowInputSchema(maxEntries) as typeof gitShowInputSchema;

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
        if (request.path !== undefined && request.file_at_revision !== undefined) {
          refuse(
            "INVALID_INPUT",
            "path (the commit's changes to a file) and file_at_revision (a file's content at the revision) cannot be combined.",
            {
              hint: "Pass path to see what the commit changed in the file, or file_at_revision to read the file as it was.",
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
        const page = {
          revision: request.revision,
          hash,
          offset: request.offset ?? 1,
          limit: request.limit,
          callArguments: givenCallArguments(request),
        };
        if (request.file_at_revision !== undefined) {
          return ok(
            await showRevisionPath(
              settings,
              { ...page, path: request.file_at_revision },
              context.signal,
            ),
          );
        }
        const path =
          request.path === undefined ? undefined : await confinePath(runner, request.path, "path");
        return ok(await showCommit(settings, { ...page, path }, context.signal));
      }),
    render: (data) => formatGitShow(data, { toolName: name }),
  });
}
