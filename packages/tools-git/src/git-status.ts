import {
  defineTool,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  truncateList,
} from "@agentool/contract";
import { z } from "zod";
import { guard, refuse } from "./internal/git-failure.js";
import { type FileChange, parsePorcelainStatus } from "./internal/parse-status.js";
import { confinePath } from "./internal/paths.js";
import {
  createSettings,
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
  /** Changed files (capped), staged entries before unstaged ones. */
  changes: FileChange[];
  /** How many changes there are in all. */
  total_changes: number;
  /** Whether there is nothing to commit and nothing untracked. */
  clean: boolean;
  /** The truncation marker, when `changes` was capped. */
  truncated?: string;
}

/** The status tool's input schema. */
export const gitStatusInputSchema = z.object({
  path: z.string().optional().describe(pathFieldDescription),
});

/** The status tool's type. */
export type GitStatusTool = Tool<typeof gitStatusInputSchema, GitStatusToolData>;

const DEFAULT_DESCRIPTION = [
  "Show the state of the git repository: the current branch (or detached HEAD), how far it is",
  "ahead/behind its upstream, and every changed file with its status (added, modified, deleted,",
  "renamed — with the old name —, untracked, conflicted) and whether the change is staged.",
  "Call it first before diffing or committing, and again after git_add to check what will be",
  "committed. Pass path to look at one file or directory only. Read-only: it changes nothing.",
].join(" ");

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

/**
 * Renders a status for the model: the branch line, then changes grouped as conflicted, staged,
 * not staged and untracked.
 *
 * @param data - the status tool's data
 * @returns model-facing text
 * @example
 * formatGitStatus(result.data); // "On branch main.\nStaged:\n  added     src/a.ts\n…"
 */
export function formatGitStatus(data: GitStatusToolData): string {
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
      "Working tree clean: nothing to commit, nothing untracked (matching files may be ignored by .gitignore).",
    );
    return lines.join("\n");
  }
  const titles: Record<string, string> = {
    conflicted: "Conflicted (resolve, then git_add):",
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
  if (data.truncated !== undefined) lines.push(data.truncated);
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
  const settings = createSettings(parsed);
  const { runner, maxEntries } = settings;

  return defineTool({
    name: parsed.name ?? GIT_STATUS_TOOL_NAME,
    description: parsed.description ?? DEFAULT_DESCRIPTION,
    input: gitStatusInputSchema,
    annotations: { title: "Git status", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (input, context): Promise<ToolResult<GitStatusToolData>> =>
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
        if (input.path !== undefined) {
          args.push("--", await confinePath(runner, input.path, "path"));
        }
        const result = await runner.run(args, {
          signal: context.signal,
          workingTree: true,
        });
        if (result.truncated) {
          refuse("TOO_LARGE", "git status produced more output than the tools read (8 MiB).", {
            hint: "Call git_status again with path set to a directory, or add build output to .gitignore.",
          });
        }
        if (result.exitCode !== 0) failFromGit(result, "git status");
        const status = parsePorcelainStatus(result.stdout);
        const sorted = status.changes
          .map((change, index) => ({ change, index }))
          .sort(
            (left, right) =>
              (ORDER[group(left.change)] ?? 9) - (ORDER[group(right.change)] ?? 9) ||
              left.index - right.index,
          )
          .map((item) => item.change);
        const kept = truncateList(sorted, maxEntries, {
          unit: "changes",
          next: "call git_status again with path set to a directory to see its changes",
        });
        const data: GitStatusToolData = {
          branch: status.branch,
          detached: status.branch === null,
          head: status.head === null ? null : status.head.slice(0, 7),
          no_commits: status.head === null,
          upstream: status.upstream,
          ahead: status.ahead,
          behind: status.behind,
          changes: kept.items,
          total_changes: sorted.length,
          clean: sorted.length === 0,
        };
        if (kept.marker !== undefined) data.truncated = kept.marker;
        return ok(data);
      }),
    render: formatGitStatus,
  });
}
