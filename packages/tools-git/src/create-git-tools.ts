import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { createGitAddTool } from "./git-add.js";
import { createGitBranchTool } from "./git-branch.js";
import { createGitCommitTool, type GitAuthor } from "./git-commit.js";
import { createGitDiffTool } from "./git-diff.js";
import { createGitLogTool } from "./git-log.js";
import { createGitShowTool } from "./git-show.js";
import { createGitStatusTool } from "./git-status.js";
import { gitToolOptionsShape } from "./internal/tool-support.js";

/** What the git tools may do: only look, or also stage, commit and create branches. */
export type GitToolsMode = "read-only" | "read-write";

/** Options of {@link createGitTools}. */
export interface GitToolsOptions {
  /** The repository's top-level directory (required). Every path is confined to it. */
  root: string;
  /**
   * `"read-only"` (default): `git_status`, `git_diff`, `git_log`, `git_show`, `git_branch`
   * (list). `"read-write"` adds `git_add`, `git_commit` and `git_branch` create.
   */
  mode?: GitToolsMode;
  /** Identity for commits. Default: the repository's `user.name` / `user.email`. */
  author?: GitAuthor;
  /** Let the repository's hooks run. Default `false`: no hook ever runs. */
  runHooks?: boolean;
  /** Per-call time limit in milliseconds (`0` = none). Default 30,000. */
  timeoutMs?: number;
  /** Cap on model-facing text per call (diff, show), in UTF-8 bytes. Default 50,000. */
  maxOutputBytes?: number;
  /** Cap on listed entries (changes, files, branches). Default 500. */
  maxEntries?: number;
  /** Most commits one `git_log` call may return. Default 100. */
  maxLogLimit?: number;
  /** Secret-path globs: refused by name, left out of diffs, shows and `commit all`. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (readable by name). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /**
   * Tools of other families mounted beside the git tools (e.g. `["read_file"]`); descriptions may
   * name them. The git tools this call mounts are added by themselves.
   */
  mountedTools?: readonly string[];
}

const { name: _name, description: _description, ...sharedShape } = gitToolOptionsShape;

/** The tools every mode mounts. */
export const GIT_READ_TOOL_NAMES: readonly string[] = [
  "git_status",
  "git_diff",
  "git_log",
  "git_show",
  "git_branch",
];

/** The tools only `mode: "read-write"` adds. */
export const GIT_WRITE_TOOL_NAMES: readonly string[] = ["git_add", "git_commit"];

const gitToolsOptionsSchema = z.object({
  ...sharedShape,
  mode: z.enum(["read-only", "read-write"]).optional(),
  author: z.object({ name: z.string(), email: z.string() }).strict().optional(),
  maxLogLimit: z.number().int().min(1).max(10_000).optional(),
});

/**
 * Creates the git tools for one repository. Read-only by default (status, diff, log, show,
 * branch list); `mode: "read-write"` adds `git_add`, `git_commit` and branch creation, all
 * annotated `readOnly: false, destructive: false` (they add to history and never overwrite
 * files). Hooks and every config-driven command of the repository stay switched off unless
 * `runHooks` is set.
 *
 * @param options - the root, the mode, the author and caps
 * @returns the tools, ready for an adapter
 * @throws AgentoolError when the options are invalid
 * @example
 * import { toLangChainTools } from "@agentool/adapters/langchain";
 * const tools = toLangChainTools(
 *   createGitTools({ root: "/work/repo", mode: "read-write", author: { name: "Agent", email: "agent@example.com" } }),
 * );
 */
export function createGitTools(options: GitToolsOptions): AnyTool[] {
  const parsed = parseOptions("createGitTools", gitToolsOptionsSchema, options);
  const { mode, author, maxLogLimit, ...shared } = parsed;
  const readWrite = mode === "read-write";
  const mountedTools = [...GIT_READ_TOOL_NAMES, ...(readWrite ? GIT_WRITE_TOOL_NAMES : [])];
  const common = { ...shared, mountedTools: [...(shared.mountedTools ?? []), ...mountedTools] };
  const tools: AnyTool[] = [
    createGitStatusTool(common),
    createGitDiffTool(common),
    createGitLogTool({
      ...common,
      ...(maxLogLimit === undefined ? {} : { maxLimit: maxLogLimit }),
    }),
    createGitShowTool(common),
    createGitBranchTool({ ...common, allowCreate: readWrite }),
  ];
  if (readWrite) {
    tools.push(
      createGitAddTool(common),
      createGitCommitTool({ ...common, ...(author === undefined ? {} : { author }) }),
    );
  }
  return tools;
}
