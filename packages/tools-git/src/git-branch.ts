import {
  defineTool,
  formatPageMarker,
  givenCallArguments,
  isOffsetPastEnd,
  listWords,
  type MountedTools,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pageItems,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import { guard, refuse, refuseWith } from "./internal/git-failure.js";
import { checkRevisionText, resolveCommit } from "./internal/revisions.js";
import {
  createSettings,
  DEFAULT_MAX_ENTRIES,
  failFromGit,
  gitToolOptionsShape,
} from "./internal/tool-support.js";

/** The default name of the branch tool. */
export const GIT_BRANCH_TOOL_NAME = "git_branch";

/** One local branch. */
export interface GitBranchSummary {
  /** The branch name. */
  name: string;
  /** Whether HEAD is on it. */
  current: boolean;
  /** The short hash it points at. */
  short_hash: string;
  /** The subject of its last commit. */
  subject: string;
  /** The upstream branch, when set. */
  upstream: string | null;
  /** e.g. `"ahead 2, behind 1"`, `"gone"`, or `null` when in sync or without upstream. */
  tracking: string | null;
}

/** What `git_branch` returns for `action: "list"`. */
export interface GitBranchListData {
  /** What was done. */
  action: "list";
  /** The current branch, or `null` when HEAD is detached or there are no commits. */
  current: string | null;
  /** This page of local branches, most recently committed first. */
  branches: GitBranchSummary[];
  /** The 1-based position of the page's first branch. */
  offset: number;
  /** Local branches in all (exact). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether branches after this page were left out. */
  truncated: boolean;
  /** Why the list is empty, when it is. */
  empty_reason?: string;
  /** The call's arguments as given, besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, NextCallValue>;
}

/** What `git_branch` returns for `action: "create"`. */
export interface GitBranchCreateData {
  /** What was done. */
  action: "create";
  /** The new branch. */
  name: string;
  /** The commit it points at (full hash). */
  hash: string;
  /** Always `false`: creating a branch never switches to it. */
  checked_out: false;
}

/** What `git_branch` returns. */
export type GitBranchToolData = GitBranchListData | GitBranchCreateData;

/** Options of {@link createGitBranchTool}. */
export interface GitBranchToolOptions extends GitToolOptions {
  /** Allow `action: "create"` (read-write mode). Default `false`: list only, read-only. */
  allowCreate?: boolean;
}

function createBranchInputSchema(allowCreate: boolean, maxEntries: number) {
  const paging = {
    ...pagingInputShape({
      unit: "branch",
      units: "branches",
      defaultLimit: maxEntries,
      maxLimit: maxEntries,
      offsetDescription: "1-based first branch (default 1).",
      limitDescription: `Most branches (default ${maxEntries}).`,
    }),
  };
  if (!allowCreate) {
    // List only: action may be left out, and create is refused by the schema with a message
    // that says why (not a bare "expected list"); name and base do not exist here.
    return z.object({
      action: z
        .enum(["list"], {
          error:
            'only action "list" is available: creating branches is not enabled (the git tools are read-only)',
        })
        .optional()
        .describe('"list" (the default): local branches.'),
      ...paging,
    });
  }
  return z.object({
    action: z.enum(["list", "create"]).describe("What to do."),
    name: z.string().optional().describe("For create: the new branch's name."),
    base: z.string().optional().describe("For create: the start point (default HEAD)."),
    ...paging,
  });
}

/** The branch tool's input schema (with create and the default cap). */
export const gitBranchInputSchema = createBranchInputSchema(true, DEFAULT_MAX_ENTRIES);

/** Field aliases `git_branch` accepts silently (alias → field). */
export const GIT_BRANCH_ALIASES: Readonly<Record<string, string>> = {
  branch: "name",
  branch_name: "name",
  start_point: "base",
};

/** The branch tool's type. */
export type GitBranchTool = Tool<typeof gitBranchInputSchema, GitBranchToolData>;

function defaultDescription(allowCreate: boolean, mounted: MountedTools): string {
  const list =
    "list: local branches with their last commit and ahead/behind upstream; a cut list ends with a marker naming the next call.";
  const users = mounted.filter(["git_log", "git_diff"]);
  const use = users.length > 0 ? ` Use a name as ref in ${listWords(users)}.` : "";
  if (!allowCreate) return `List git branches (read-only). ${list}${use}`;
  return [
    "List or create git branches.",
    `${list}${use}`,
    "create: makes branch name from base without switching to it.",
  ].join(" ");
}

const branchOptionsSchema = z.object({
  ...gitToolOptionsShape,
  allowCreate: z.boolean().optional(),
});

const FIELD = "\x1f";

/**
 * Renders a branch list or a created branch.
 *
 * @param data - the branch tool's data
 * @param options - the tool's name (for the next-page call)
 * @returns model-facing text
 * @example
 * formatGitBranch(result.data); // "* main      a1b2c3d Fix the parser\n  feature   d4e5f6a Add x"
 */
export function formatGitBranch(
  data: GitBranchToolData,
  options: { toolName?: string } = {},
): string {
  if (data.action === "create") {
    return `Created branch ${data.name} at ${data.hash.slice(0, 7)} (not checked out; HEAD did not move).`;
  }
  if (data.branches.length === 0) return `No branches: ${data.empty_reason ?? "none exist."}`;
  const width = Math.min(40, Math.max(...data.branches.map((branch) => branch.name.length)));
  const lines = data.branches.map((branch) => {
    const tracking =
      branch.upstream === null
        ? ""
        : ` [${branch.upstream}${branch.tracking === null ? "" : `: ${branch.tracking}`}]`;
    return `${branch.current ? "*" : " "} ${branch.name.padEnd(width)} ${branch.short_hash}${tracking} ${branch.subject}`;
  });
  if (data.current === null) lines.unshift("HEAD is detached (not on any branch).");
  if (data.offset > 1 || data.truncated) {
    lines.unshift(
      `Branches ${data.offset}–${data.offset + data.branches.length - 1} of ${data.total}:`,
    );
  }
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: options.toolName ?? GIT_BRANCH_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "branches",
        args: { action: "list", ...data.call_arguments },
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `git_branch` tool: lists local branches; with `allowCreate` (read-write mode) it
 * also creates a branch from a validated base without checking it out.
 *
 * @param options - the repository root, `allowCreate`, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitBranch = createGitBranchTool({ root: "/work/repo", allowCreate: true });
 * await gitBranch.run({ action: "create", name: "fix/parser", base: "main" });
 */
export function createGitBranchTool(options: GitBranchToolOptions): GitBranchTool {
  const parsed = parseOptions("createGitBranchTool", branchOptionsSchema, options);
  const settings = createSettings(parsed, GIT_BRANCH_TOOL_NAME);
  const { runner, maxEntries, mounted, name: toolName } = settings;
  const allowCreate = parsed.allowCreate ?? false;

  async function list(
    offset: number,
    limit: number | undefined,
    given: Record<string, NextCallValue>,
    signal: AbortSignal,
  ): Promise<GitBranchListData> {
    const result = await runner.run(
      [
        "for-each-ref",
        `--format=%(HEAD)${FIELD}%(refname:short)${FIELD}%(objectname:short)${FIELD}%(upstream:short)${FIELD}%(upstream:track,nobracket)${FIELD}%(contents:subject)`,
        // The last --sort is the primary key: newest first, ties by name (a stable order to page).
        "--sort=refname",
        "--sort=-committerdate",
        "refs/heads/",
      ],
      { signal },
    );
    if (result.exitCode !== 0) failFromGit(result, "git for-each-ref", mounted);
    const branches: GitBranchSummary[] = result.stdout
      .split("\n")
      .filter((line) => line.includes(FIELD))
      .map((line) => {
        const [head = "", name = "", hash = "", upstream = "", track = "", subject = ""] =
          line.split(FIELD);
        return {
          name,
          current: head === "*",
          short_hash: hash,
          subject,
          upstream: upstream.length > 0 ? upstream : null,
          tracking: track.length > 0 ? track : null,
        };
      });
    if (isOffsetPastEnd(offset, branches.length)) {
      refuseWith(
        offsetPastEnd({ tool: toolName, offset, total: branches.length, unit: "branches" }),
      );
    }
    const page = pageItems(branches, { offset, limit: Math.min(limit ?? maxEntries, maxEntries) });
    const current = branches.find((branch) => branch.current)?.name ?? null;
    const data: GitBranchListData = {
      action: "list",
      current,
      branches: page.items,
      offset,
      ...page.page,
      call_arguments: given,
    };
    if (branches.length === 0) {
      data.empty_reason = `the repository has no commits yet, so no branch exists${mounted.when("git_commit", "; the first git_commit creates the current branch")}.`;
    }
    return data;
  }

  async function create(
    name: string | undefined,
    base: string | undefined,
    signal: AbortSignal,
  ): Promise<GitBranchCreateData> {
    if (name === undefined) {
      refuse("INVALID_INPUT", 'name is required for action "create".', {
        hint: "Pass the new branch's name, e.g. 'fix/parser-crash'.",
      });
    }
    const branch = checkRevisionText(name, "name", mounted);
    const format = await runner.run(["check-ref-format", `refs/heads/${branch}`], { signal });
    if (format.exitCode !== 0 || branch === "HEAD" || branch.includes("@{")) {
      refuse("INVALID_INPUT", `name ${JSON.stringify(name)} is not a valid branch name.`, {
        hint: "Use letters, digits, '-', '_', '.' and '/', e.g. 'fix/parser-crash' (no spaces, '..', '~', '^', ':').",
      });
    }
    const hash = await resolveCommit(runner, base ?? "HEAD", "base", signal, mounted);
    return runner.withWriteLock(async () => {
      const exists = await runner.run(
        ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`],
        { signal },
      );
      if (exists.exitCode === 0) {
        refuse("FILE_ALREADY_EXISTS", `A branch named ${branch} already exists.`, {
          hint: `Pick another name, or call ${toolName} with action="list" to see existing branches.`,
        });
      }
      // update-ref with an all-zero old value creates the ref only if it does not exist yet.
      const created = await runner.run(
        [
          "update-ref",
          "-m",
          `branch: Created from ${base ?? "HEAD"}`,
          `refs/heads/${branch}`,
          hash,
          "0".repeat(hash.length),
        ],
        { signal, write: true },
      );
      if (created.exitCode !== 0) failFromGit(created, "git update-ref", mounted);
      return { action: "create" as const, name: branch, hash, checked_out: false as const };
    });
  }

  return defineTool({
    name: toolName,
    description: parsed.description ?? defaultDescription(allowCreate, mounted),
    input: createBranchInputSchema(allowCreate, maxEntries) as typeof gitBranchInputSchema,
    aliases: allowCreate ? GIT_BRANCH_ALIASES : {},
    annotations: allowCreate
      ? { title: "Git branch", readOnly: false, destructive: false, idempotent: false }
      : { title: "Git branch", readOnly: true, idempotent: true },
    tags: allowCreate ? ["git", "git:read", "git:write"] : ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (input, context): Promise<ToolResult<GitBranchToolData>> =>
      guard(async () => {
        if (input.action === "create") {
          if (!allowCreate) {
            refuse("BLOCKED", "Creating branches is not enabled (the git tools are read-only).", {
              hint: 'Use action="list", or ask the user to enable read-write mode.',
            });
          }
          return ok(await create(input.name, input.base, context.signal));
        }
        return ok(
          await list(input.offset ?? 1, input.limit, givenCallArguments(input), context.signal),
        );
      }),
    render: (data) => formatGitBranch(data, { toolName }),
  });
}
