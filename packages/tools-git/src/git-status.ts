import { lstat } from "node:fs/promises";
import * as nodePath from "node:path";
import {
  defineTool,
  formatCount,
  formatPageMarker,
  givenCallArguments,
  isOffsetPastEnd,
  joinSentences,
  listWords,
  type MountedTools,
  offsetPastEnd,
  ok,
  pageItems,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import { guard, refuse, refuseWith } from "./internal/git-failure.js";
import { CHANGE_STATUSES, type FileChange, parsePorcelainStatus } from "./internal/parse-status.js";
import { confinePath } from "./internal/paths.js";
import {
  createSettings,
  DEFAULT_MAX_ENTRIES,
  failFromGit,
  gitToolOptionsShape,
  pathFieldDescription,
} from "./internal/tool-support.js";

export type { ChangeStatus, FileChange } from "./internal/parse-status.js";

/** The default name of the status tool. */
export const GIT_STATUS_TOOL_NAME = "git_status";

/** Options shared by every git tool factory. */
export interface GitToolOptions {
  /** The repository's top-level directory (required). Paths are confined to it. */
  root: string;
  /** Let the repository's hooks run. Default `false`: no hook ever runs. */
  runHooks?: boolean;
  /** Per-call time limit in milliseconds (`0` = none). Default 30,000. */
  timeoutMs?: number;
  /** Cap on model-facing text per call (diff, show), in UTF-8 bytes. Default 50,000. */
  maxOutputBytes?: number;
  /** Cap on listed entries (changes, files, branches). Default 500. */
  maxEntries?: number;
  /** Secret-path globs: refused by name, left out of diffs, shows and `commit all`. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (readable by name). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Names of the tools mounted beside this one: the default description, hints and rendered text
   * name only these (and the tool itself). `createGitTools` passes what it mounts. Default: none.
   */
  mountedTools?: readonly string[];
}

/** What `git_status` returns. */
export interface GitStatusToolData {
  /** The current branch, or `null` when HEAD is detached. */
  branch: string | null;
  /** Whether HEAD is detached (not on a branch). */
  detached: boolean;
  /** The short hash HEAD points at, or `null` before the first commit. */
  head: string | null;
  /** Whether the repository has no commits yet. */
  no_commits: boolean;
  /** The upstream branch, when set. */
  upstream: string | null;
  /** Commits not yet pushed to the upstream, when there is one. */
  ahead: number | null;
  /** Commits on the upstream not yet here, when there is one. */
  behind: number | null;
  /** The path filter (repository-relative), when one was given. */
  path?: string;
  /** This page of changed files: conflicted, then staged, not staged and untracked. */
  changes: FileChange[];
  /** The 1-based position of the page's first change. */
  offset: number;
  /** Changes in all (exact). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether changes after this page were left out. */
  truncated: boolean;
  /** Whether there is nothing to commit and nothing untracked (under `path`, when given). */
  clean: boolean;
  /** The call's arguments as given (`path`, `limit`), besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, string | number>;
  /** Why a path-filtered status is empty (nothing changed there, or it is ignored). */
  empty_reason?: string;
}

function createStatusInputSchema(maxEntries: number) {
  return z.object({
    path: z.string().optional().describe(pathFieldDescription),
    ...pagingInputShape({
      unit: "change",
      defaultLimit: maxEntries,
      maxLimit: maxEntries,
      offsetDescription: "1-based first change (default 1).",
      limitDescription: `Most changes (default ${maxEntries}).`,
    }),
  });
}

/** The status tool's input schema (with the default cap). */
export const gitStatusInputSchema = createStatusInputSchema(DEFAULT_MAX_ENTRIES);

const fileChangeOutputSchema = z.object({
  file: z.string().describe("The path relative to the repository root (the new name for renames)."),
  status: z.enum(CHANGE_STATUSES).describe("What happened to it."),
  staged: z
    .boolean()
    .describe(
      "True when the change is in the index (will be committed), false for the working tree.",
    ),
  from: z.string().optional().describe("The old name, for renames."),
});

/**
 * The zod schema of `git_status`'s data ({@link GitStatusToolData}), declared as the tool's
 * `output` so hosts that read structured results (MCP's `outputSchema` + `structuredContent`) get
 * the status as data. Keys are listed in the order the tool writes them.
 *
 * @example
 * gitStatusOutputSchema.parse(result.data).clean; // true
 */
export const gitStatusOutputSchema = z.object({
  branch: z.string().nullable().describe("The current branch, or null when HEAD is detached."),
  detached: z.boolean().describe("Whether HEAD is detached (not on a branch)."),
  head: z
    .string()
    .nullable()
    .describe("The short hash HEAD points at, or null before the first commit."),
  no_commits: z.boolean().describe("Whether the repository has no commits yet."),
  upstream: z.string().nullable().describe("The upstream branch, or null when none is set."),
  ahead: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe("Commits not yet pushed to the upstream; null without an upstream."),
  behind: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe("Commits on the upstream not yet here; null without an upstream."),
  path: z
    .string()
    .optional()
    .describe("The path filter (repository-relative), when one was given."),
  changes: z
    .array(fileChangeOutputSchema)
    .describe("This page of changed files: conflicted, then staged, not staged and untracked."),
  offset: z.number().int().min(1).describe("The 1-based position of the page's first change."),
  total: z.number().int().min(0).describe("Changes in all (exact)."),
  truncated: z.boolean().describe("Whether changes after this page were left out."),
  next_offset: z
    .number()
    .int()
    .min(2)
    .optional()
    .describe("The offset of the next page; absent on the last page."),
  clean: z
    .boolean()
    .describe("Whether there is nothing to commit and nothing untracked (under path, when given)."),
  call_arguments: z
    .record(z.string(), z.union([z.string(), z.number()]))
    .describe("The call's arguments as given, besides offset (the next page repeats them)."),
  empty_reason: z
    .string()
    .optional()
    .describe("Why a path-filtered status is empty (nothing changed there, or it is ignored)."),
});

/** Field aliases `git_status` accepts silently (alias → field). */
export const GIT_STATUS_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  pathspec: "path",
};

/** The status tool's type. */
export type GitStatusTool = Tool<typeof gitStatusInputSchema, GitStatusToolData>;

function defaultDescription(mounted: MountedTools): string {
  const next = mounted.filter(["git_diff", "git_commit"]);
  return joinSentences([
    "Show the repository state: the current branch, ahead/behind its upstream, and each changed file with its status (added, modified, deleted, renamed, untracked, conflicted) and whether it is staged.",
    next.length > 0
      ? `Call it first, before ${listWords(next.map((tool) => (tool === "git_diff" ? "diffing" : "committing")))}.`
      : "",
    mounted.when("git_add", "Call it again after git_add to check what will be committed."),
    "A cut list ends with a marker naming the next call. Read-only.",
  ]);
}

const statusOptionsSchema = z.object(gitToolOptionsShape);

const ORDER: Record<string, number> = {
  conflicted: 0,
  staged: 1,
  unstaged: 2,
  untracked: 3,
};

function group(change: FileChange): string {
  if (change.status === "conflicted") return "conflicted";
  if (change.status === "untracked") return "untracked";
  return change.staged ? "staged" : "unstaged";
}

/** What {@link formatGitStatus} needs besides the data. */
export interface GitStatusFormatOptions {
  /** The tool's name, for the next-page call. Default `"git_status"`. */
  toolName?: string;
  /** Names of the tools mounted beside it (the conflict heading names git_add only when mounted). */
  mountedTools?: readonly string[];
}

/**
 * Renders a status for the model: the branch line, then changes grouped as conflicted, staged,
 * not staged and untracked, and the contract's page marker when more changes remain.
 *
 * @param data - the status tool's data
 * @param options - the tool's name and the tools mounted beside it
 * @returns model-facing text
 * @example
 * formatGitStatus(result.data); // "On branch main.\nStaged (will be committed):\n  added     src/a.ts\n…"
 */
export function formatGitStatus(
  data: GitStatusToolData,
  options: GitStatusFormatOptions = {},
): string {
  const toolName = options.toolName ?? GIT_STATUS_TOOL_NAME;
  const canAdd = (options.mountedTools ?? []).includes("git_add");
  const lines: string[] = [];
  let head = data.detached
    ? `HEAD detached at ${data.head ?? "(unknown)"}.`
    : `On branch ${data.branch ?? "(unknown)"}.`;
  if (data.no_commits) head = `On branch ${data.branch ?? "(unknown)"} — no commits yet.`;
  if (data.upstream !== null) {
    head += ` Upstream ${data.upstream}: ${data.ahead ?? 0} ahead, ${data.behind ?? 0} behind.`;
  }
  lines.push(head);
  if (data.clean) {
    lines.push(
      data.empty_reason !== undefined
        ? `No changes under ${data.path}: ${data.empty_reason}`
        : "Working tree clean: nothing to commit, nothing untracked (matching files may be ignored by .gitignore).",
    );
    return lines.join("\n");
  }
  const whole = data.offset === 1 && !data.truncated;
  if (!whole) {
    lines.push(
      `Changes ${formatCount(data.offset)}–${formatCount(data.offset + data.changes.length - 1)} of ${formatCount(data.total)}${data.path === undefined ? "" : ` under ${data.path}`}:`,
    );
  }
  const titles: Record<string, string> = {
    conflicted: canAdd ? "Conflicted (resolve, then git_add):" : "Conflicted (resolve these):",
    staged: "Staged (will be committed):",
    unstaged: "Not staged:",
    untracked: "Untracked:",
  };
  let current = "";
  for (const change of data.changes) {
    const section = group(change);
    if (section !== current) {
      lines.push(titles[section] ?? section);
      current = section;
    }
    const name = change.from === undefined ? change.file : `${change.from} -> ${change.file}`;
    lines.push(
      section === "untracked" || section === "conflicted"
        ? `  ${name}`
        : `  ${change.status.padEnd(9)} ${name}`,
    );
  }
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: toolName,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "changes",
        args: data.call_arguments,
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `git_status` tool: branch, upstream ahead/behind and changed files, read-only (it
 * never writes the index; config-driven commands and filters are switched off).
 *
 * @param options - the repository root, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitStatus = createGitStatusTool({ root: "/work/repo" });
 * await gitStatus.run({}); // { success: true, data: { branch: "main", changes: [...], clean: false, … } }
 */
export function createGitStatusTool(options: GitToolOptions): GitStatusTool {
  const parsed = parseOptions("createGitStatusTool", statusOptionsSchema, options);
  const settings = createSettings(parsed, GIT_STATUS_TOOL_NAME);
  const { runner, maxEntries, mounted, name } = settings;
  const input = createStatusInputSchema(maxEntries) as typeof gitStatusInputSchema;

  async function emptyReason(path: string, signal: AbortSignal): Promise<string> {
    const realRoot = await runner.realRoot();
    const exists = await lstat(nodePath.join(realRoot, ...path.split("/"))).then(
      () => true,
      () => false,
    );
    if (!exists) {
      refuse(
        "FILE_NOT_FOUND",
        `${path} does not exist in the working tree, and git has no change for it.`,
        {
          hint: joinSentences([
            `Call ${name} without path to list every change.`,
            mounted.when(
              "git_log",
              "If it was deleted in an earlier commit, git_log with this path finds the commits that touched it.",
            ),
          ]),
        },
      );
    }
    // check-ignore takes plain paths and refuses GIT_LITERAL_PATHSPECS, so magic stays "on"
    // for it (it reads no pathspec magic either way).
    const ignored = await runner.run(["check-ignore", "-q", "--", path], {
      signal,
      pathspecMagic: true,
    });
    if (ignored.exitCode === 0) {
      return `it is ignored by .gitignore, and ${name} never lists ignored files.`;
    }
    return `nothing changed there since the last commit; the rest of the repository was not checked (call ${name} without path for all of it).`;
  }

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    aliases: GIT_STATUS_ALIASES,
    annotations: { title: "Git status", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    output: gitStatusOutputSchema,
    execute: (request, context): Promise<ToolResult<GitStatusToolData>> =>
      guard(async () => {
        const args = [
          "status",
          "--porcelain=v2",
          "--branch",
          "-z",
          "--untracked-files=normal",
          "--ignore-submodules=dirty",
          "--renames",
        ];
        const path =
          request.path === undefined ? undefined : await confinePath(runner, request.path, "path");
        if (path !== undefined) args.push("--", path);
        const result = await runner.run(args, {
          signal: context.signal,
          workingTree: true,
        });
        if (result.truncated) {
          refuse("TOO_LARGE", "git status produced more output than the tools read (8 MiB).", {
            hint: `Call ${name} again with path set to a directory, or add build output to .gitignore.`,
          });
        }
        if (result.exitCode !== 0) failFromGit(result, "git status", mounted);
        const status = parsePorcelainStatus(result.stdout);
        const sorted = status.changes
          .map((change, index) => ({ change, index }))
          .sort(
            (left, right) =>
              (ORDER[group(left.change)] ?? 9) - (ORDER[group(right.change)] ?? 9) ||
              left.index - right.index,
          )
          .map((item) => item.change);
        const offset = request.offset ?? 1;
        if (isOffsetPastEnd(offset, sorted.length)) {
          refuseWith(offsetPastEnd({ tool: name, offset, total: sorted.length, unit: "changes" }));
        }
        const { items, page } = pageItems(sorted, { offset, limit: request.limit ?? maxEntries });
        const data: GitStatusToolData = {
          branch: status.branch,
          detached: status.branch === null,
          head: status.head === null ? null : status.head.slice(0, 7),
          no_commits: status.head === null,
          upstream: status.upstream,
          ahead: status.ahead,
          behind: status.behind,
          ...(path === undefined || path === "." ? {} : { path }),
          changes: items,
          offset,
          ...page,
          clean: sorted.length === 0,
          // path and limit: a string and a number.
          call_arguments: givenCallArguments(request) as Record<string, string | number>,
        };
        if (data.clean && data.path !== undefined) {
          data.empty_reason = await emptyReason(data.path, context.signal);
        }
        return ok(data);
      }),
    render: (data) =>
      formatGitStatus(data, { toolName: name, mountedTools: mounted.filter(["git_add"]) }),
  });
}
