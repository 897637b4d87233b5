import {
  defineTool,
  formatTruncationMarker,
  joinSentences,
  listWords,
  type MountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import { guard } from "./internal/git-failure.js";
import type { FileChange } from "./internal/parse-status.js";
import { confinePath } from "./internal/paths.js";
import { stagedUnder, stagePaths } from "./internal/staging.js";
import { createSettings, gitToolOptionsShape } from "./internal/tool-support.js";

/** The default name of the add tool. */
export const GIT_ADD_TOOL_NAME = "git_add";

/** Most files one `git_add` call may name. */
export const MAX_ADD_FILES = 1_000;

/** What `git_add` returns. */
export interface GitAddToolData {
  /** The paths as staged (repository-relative). */
  files: string[];
  /** Everything staged now under those paths (the first `maxEntries`). */
  staged: FileChange[];
  /** How many staged changes there are under those paths (exact). */
  total_staged: number;
}

/** Field aliases `git_add` accepts silently (alias → field). */
export const GIT_ADD_ALIASES: Readonly<Record<string, string>> = {
  paths: "files",
  pathspec: "files",
};

/** The add tool's input schema. */
export const gitAddInputSchema = z.object({
  files: z
    .array(z.string())
    .min(1)
    .max(MAX_ADD_FILES)
    .describe("Files or directories, relative to the repository root."),
});

/** The add tool's type. */
export type GitAddTool = Tool<typeof gitAddInputSchema, GitAddToolData>;

function defaultDescription(mounted: MountedTools): string {
  const checks = [
    mounted.when("git_status", "git_status"),
    mounted.when("git_diff", "git_diff staged=true"),
  ].filter((check) => check.length > 0);
  return joinSentences([
    "Stage files or directories for the next commit (new, modified or deleted).",
    `Use it after editing${checks.length > 0 ? `, then check with ${listWords(checks)}` : ""}${mounted.when("git_commit", ", then call git_commit")}.`,
    "Ignored files are refused. Changes only the index.",
  ]);
}

const addOptionsSchema = z.object(gitToolOptionsShape);

/**
 * Renders what `git_add` staged.
 *
 * @param data - the add tool's data
 * @param options - the tools mounted beside it (the next step names only these)
 * @returns model-facing text
 * @example
 * formatGitAdd(result.data); // "Staged 2 changes:\n  added     src/new.ts\n  modified  README.md"
 */
export function formatGitAdd(
  data: GitAddToolData,
  options: { mountedTools?: readonly string[] } = {},
): string {
  const mounted = new Set(options.mountedTools ?? []);
  if (data.total_staged === 0) {
    return `Nothing staged under ${data.files.join(", ")}: those files have no changes (or match HEAD already).`;
  }
  const lines = [`Staged ${data.total_staged} change${data.total_staged === 1 ? "" : "s"}:`];
  for (const change of data.staged) {
    const name = change.from === undefined ? change.file : `${change.from} -> ${change.file}`;
    lines.push(`  ${change.status.padEnd(9)} ${name}`);
  }
  if (data.total_staged > data.staged.length) {
    lines.push(
      formatTruncationMarker({
        omitted: data.total_staged - data.staged.length,
        unit: "changes",
        next: mounted.has("git_status")
          ? "git_status lists every staged change"
          : "the rest are staged too",
      }),
    );
  }
  const next = [
    mounted.has("git_commit") ? "git_commit with a message" : "",
    mounted.has("git_diff") ? "git_diff staged=true to review" : "",
  ].filter((step) => step.length > 0);
  if (next.length > 0) lines.push(`Next: ${next.join(" (or ")}${next.length > 1 ? ")" : ""}.`);
  return lines.join("\n");
}

/**
 * Creates the `git_add` tool (read-write mode only): stages files after confining every path to
 * the repository on its real path; paths go to git after `--` with literal pathspecs.
 *
 * @param options - the repository root, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitAdd = createGitAddTool({ root: "/work/repo" });
 * await gitAdd.run({ files: ["src/new.ts"] }); // data.staged: [{ file: "src/new.ts", status: "added", staged: true }]
 */
export function createGitAddTool(options: GitToolOptions): GitAddTool {
  const parsed = parseOptions("createGitAddTool", addOptionsSchema, options);
  const settings = createSettings(parsed, GIT_ADD_TOOL_NAME);
  const { runner, maxEntries, mounted, name } = settings;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: gitAddInputSchema,
    aliases: GIT_ADD_ALIASES,
    annotations: { title: "Git add", readOnly: false, destructive: false, idempotent: true },
    tags: ["git", "git:write"],
    timeoutMs: settings.timeoutMs,
    execute: (input, context): Promise<ToolResult<GitAddToolData>> =>
      guard(async () => {
        const paths: string[] = [];
        for (const [index, file] of input.files.entries()) {
          paths.push(await confinePath(runner, file, `files[${index}]`));
        }
        const unique = [...new Set(paths)];
        return runner.withWriteLock(async () => {
          await stagePaths(runner, unique, context.signal, mounted);
          const staged = await stagedUnder(runner, unique, context.signal, mounted);
          return ok({
            files: unique,
            staged: staged.slice(0, maxEntries),
            total_staged: staged.length,
          });
        });
      }),
    render: (data) =>
      formatGitAdd(data, {
        mountedTools: mounted.filter(["git_status", "git_commit", "git_diff"]),
      }),
  });
}
