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
import { guard } from "./internal/git-failure.js";
import {
  type DiffFile,
  formatDiffFiles,
  parseNumstatPatch,
  summarizeDiffFiles,
} from "./internal/parse-diff.js";
import { confinePath, literalPathspec, secretExclusionPathspecs } from "./internal/paths.js";
import { resolveCommit } from "./internal/revisions.js";
import {
  createSettings,
  failFromGit,
  gitToolOptionsShape,
  pathFieldDescription,
} from "./internal/tool-support.js";

export type { DiffFile } from "./internal/parse-diff.js";

/** The default name of the diff tool. */
export const GIT_DIFF_TOOL_NAME = "git_diff";

/** Default lines of context around each change. */
export const DEFAULT_CONTEXT_LINES = 3;

/** What `git_diff` returns. */
export interface GitDiffToolData {
  /** What was compared, e.g. `"working tree vs index"`. */
  compared: string;
  /** Every changed file with its line counts (capped). */
  files: DiffFile[];
  /** How many files changed in all. */
  total_files: number;
  /** The unified diff (capped; binary files appear as one summary line). */
  diff: string;
  /** Whether the diff text or the file list was cut. */
  truncated: boolean;
  /** Why the diff is empty, when it is. */
  empty_reason?: string;
}

/** The diff tool's input schema. */
export const gitDiffInputSchema = z.object({
  path: z.string().optional().describe(pathFieldDescription),
  staged: z
    .boolean()
    .optional()
    .describe(
      "true: show staged changes (what the next commit contains). Default false: unstaged changes in the working tree.",
    ),
  ref: z
    .string()
    .optional()
    .describe(
      "Optional: compare against this commit, branch or tag (e.g. 'HEAD~1', 'main') instead of the index.",
    ),
  context_lines: z
    .number()
    .int()
    .min(0)
    .max(100)
    .optional()
    .describe(`Lines of context around each change (0 to 100). Default ${DEFAULT_CONTEXT_LINES}.`),
});

/** The diff tool's type. */
export type GitDiffTool = Tool<typeof gitDiffInputSchema, GitDiffToolData>;

const DEFAULT_DESCRIPTION = [
  "Show line-by-line changes as a unified diff, with a per-file summary (+added −deleted).",
  "Default: unstaged edits in the working tree. staged=true: what the next commit will contain.",
  "ref='main' (or a commit hash, 'HEAD~1'): the working tree (or, with staged, the index)",
  "compared with that commit. Untracked files never appear; git_status lists them. Binary files",
  "are summarised, not dumped. Large diffs are cut with a marker: then call again with path set",
  "to one file from the summary, or with context_lines=0. Read-only.",
].join(" ");

const diffOptionsSchema = z.object(gitToolOptionsShape);

/**
 * Renders a diff for the model: a summary line, the file list when the diff was cut, then the diff.
 *
 * @param data - the diff tool's data
 * @returns model-facing text
 * @example
 * formatGitDiff(result.data); // "working tree vs index: 1 file changed, +2 −0\n\ndiff --git …"
 */
export function formatGitDiff(data: GitDiffToolData): string {
  if (data.empty_reason !== undefined)
    return `No differences (${data.compared}): ${data.empty_reason}`;
  const lines = [`${data.compared}: ${summarizeDiffFiles(data.files)}`];
  if (data.truncated || data.files.some((file) => file.binary)) {
    lines.push(...formatDiffFiles(data.files));
    if (data.total_files > data.files.length) {
      lines.push(`  … and ${data.total_files - data.files.length} more files`);
    }
  }
  lines.push("", data.diff);
  return lines.join("\n");
}

/**
 * Creates the `git_diff` tool: unstaged, staged or against-a-commit changes as a capped unified
 * diff with a per-file summary. External diff programs and textconv drivers never run.
 *
 * @param options - the repository root, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitDiff = createGitDiffTool({ root: "/work/repo", maxOutputBytes: 20_000 });
 * await gitDiff.run({ staged: true }); // data.diff: "diff --git a/src/a.ts b/src/a.ts\n…"
 */
export function createGitDiffTool(options: GitToolOptions): GitDiffTool {
  const parsed = parseOptions("createGitDiffTool", diffOptionsSchema, options);
  const settings = createSettings(parsed);
  const { runner, maxEntries, maxOutputBytes } = settings;

  return defineTool({
    name: parsed.name ?? GIT_DIFF_TOOL_NAME,
    description: parsed.description ?? DEFAULT_DESCRIPTION,
    input: gitDiffInputSchema,
    annotations: { title: "Git diff", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (input, context): Promise<ToolResult<GitDiffToolData>> =>
      guard(async () => {
        const signal = context.signal;
        const contextLines = input.context_lines ?? DEFAULT_CONTEXT_LINES;
        const args = [
          "diff",
          "--no-color",
          "--no-ext-diff",
          "--no-textconv",
          "--ignore-submodules=dirty",
          "--find-renames",
          "--numstat",
          "--patch",
          "-z",
          `--unified=${contextLines}`,
        ];
        let compared = input.staged ? "index (staged) vs HEAD" : "working tree vs index";
        if (input.staged) args.push("--cached");
        if (input.ref !== undefined) {
          const hash = await resolveCommit(runner, input.ref, "ref", signal);
          args.push(hash);
          compared = `${input.staged ? "index (staged)" : "working tree"} vs ${input.ref} (${hash.slice(0, 7)})`;
        }
        args.push("--");
        args.push(
          literalPathspec(
            input.path === undefined ? "." : await confinePath(runner, input.path, "path"),
          ),
        );
        args.push(...secretExclusionPathspecs(runner));
        const result = await runner.run(args, {
          signal,
          workingTree: true,
          pathspecMagic: true,
          maxOutputBytes: Math.max(maxOutputBytes * 4, 1_048_576),
        });
        if (result.exitCode !== 0 && !result.truncated) failFromGit(result, "git diff");
        const { files, patch } = parseNumstatPatch(result.stdout);
        const narrow =
          "call git_diff again with path set to one file from the summary, or with context_lines=0";
        const text = truncateText(patch, {
          maxBytes: maxOutputBytes,
          next: result.truncated ? `the diff is larger still; ${narrow}` : narrow,
        });
        const list = truncateList(files, maxEntries, { unit: "files" });
        const data: GitDiffToolData = {
          compared,
          files: list.items,
          total_files: files.length,
          diff: text.text,
          truncated: text.truncated || result.truncated || list.omitted > 0,
        };
        if (files.length === 0 && patch.trim().length === 0) {
          data.empty_reason = input.staged
            ? "nothing is staged. Stage files with git_add, or call git_diff without staged to see unstaged edits."
            : input.ref !== undefined
              ? "the working tree matches that commit for tracked files (untracked files are not compared; git_status lists them)."
              : "no unstaged changes to tracked files. Staged changes appear with staged=true; untracked files appear in git_status.";
        }
        return ok(data);
      }),
    render: formatGitDiff,
  });
}
