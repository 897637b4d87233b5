import {
  defineTool,
  formatCount,
  formatTruncationMarker,
  joinSentences,
  listWords,
  type MountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  truncateList,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import { guard, refuse } from "./internal/git-failure.js";
import { type DiffFile, formatDiffFiles, parseNumstatPatch } from "./internal/parse-diff.js";
import { confinePath } from "./internal/paths.js";
import { type StagedChanges, stageEveryChange, stagePaths } from "./internal/staging.js";
import {
  createSettings,
  failFromGit,
  type GitToolSettings,
  gitToolOptionsShape,
} from "./internal/tool-support.js";

/** The default name of the commit tool. */
export const GIT_COMMIT_TOOL_NAME = "git_commit";

/** Most staged file names the rendered text lists (data has them all). */
const MAX_RENDERED_STAGED_FILES = 20;

/** Longest commit message accepted, in characters. */
export const MAX_COMMIT_MESSAGE_CHARACTERS = 20_000;

/** The identity commits are made with. */
export interface GitAuthor {
  /** The author's name. */
  name: string;
  /** The author's email. */
  email: string;
}

/** Options of {@link createGitCommitTool}. */
export interface GitCommitToolOptions extends GitToolOptions {
  /**
   * Who commits (author and committer). Default: the repository's (or the host's global)
   * `user.name` / `user.email`; a commit fails with `GIT_ERROR` when neither exists.
   */
  author?: GitAuthor;
}

/** What `git_commit` returns. */
export interface GitCommitToolData {
  /** The new commit's full hash. */
  hash: string;
  /** The abbreviated hash. */
  short_hash: string;
  /** The message as recorded. */
  message: string;
  /** The branch that moved, or `null` when HEAD is detached. */
  branch: string | null;
  /** The files the commit changed (the first `maxEntries`). */
  files: DiffFile[];
  /** How many files it changed (exact). */
  total_files: number;
  /**
   * Without `files` and `staged_only`: the files this call staged before committing (edits,
   * deletions and new files; never ignored or secret paths), in git's order.
   */
  staged_files?: string[];
  /** Without `files` and `staged_only`: changed files left unstaged because their content holds a private key. */
  skipped_private_keys?: string[];
}

/** Field aliases `git_commit` accepts silently (alias → field). */
export const GIT_COMMIT_ALIASES: Readonly<Record<string, string>> = {
  paths: "files",
  commit_message: "message",
};

/** The commit tool's input schema. */
export const gitCommitInputSchema = z.object({
  message: z
    .string()
    .describe("A summary line (≤ 72 characters), optionally a blank line and details."),
  files: z
    .array(z.string())
    .max(1_000)
    .optional()
    .describe("Stage and commit only these paths, relative to the repository root."),
  staged_only: z
    .boolean()
    .optional()
    .describe("Commit only what is already staged (default false)."),
});

/** The commit tool's type. */
export type GitCommitTool = Tool<typeof gitCommitInputSchema, GitCommitToolData>;

function defaultDescription(mounted: MountedTools): string {
  const checks = mounted.filter(["git_status", "git_diff"]);
  return joinSentences([
    "Record a commit; returns its hash and files.",
    `Without files it stages every change first (never ignored or secret paths) and lists what it staged; with files, only those paths (other staged changes stay uncommitted); staged_only=true commits only what is staged${mounted.when("git_add", " (git_add)")}.`,
    checks.length > 0 ? `Check ${listWords(checks)} first.` : "",
    "Changes no file.",
  ]);
}

const authorSchema = z
  .object({
    name: z.string().min(1).max(200),
    email: z.string().min(3).max(320).includes("@"),
  })
  .strict();

const commitOptionsSchema = z.object({
  ...gitToolOptionsShape,
  author: authorSchema.optional(),
});

/**
 * Renders a new commit for the model.
 *
 * @param data - the commit tool's data
 * @param options - the name of the mounted tool that shows a whole commit (`git_show`), if any
 * @returns model-facing text
 * @example
 * formatGitCommit(result.data); // "Committed a1b2c3d on main: Fix the parser\n  +3 −1  src/parser.ts"
 */
export function formatGitCommit(
  data: GitCommitToolData,
  options: { showTool?: string } = {},
): string {
  const subject = data.message.split("\n", 1)[0] ?? "";
  const where = data.branch === null ? "detached HEAD" : data.branch;
  const lines = [
    `Committed ${data.short_hash} on ${where}: ${subject}`,
    ...formatDiffFiles(data.files),
  ];
  if (data.staged_files !== undefined && data.staged_files.length > 0) {
    const names = data.staged_files.slice(0, MAX_RENDERED_STAGED_FILES).join(", ");
    const others = data.staged_files.length - MAX_RENDERED_STAGED_FILES;
    lines.push(
      `Staged first: ${names}${others > 0 ? ` and ${formatCount(others)} others` : ""} (ignored and secret paths are never staged).`,
    );
  }
  if (data.skipped_private_keys !== undefined && data.skipped_private_keys.length > 0) {
    lines.push(
      `Not staged (the content holds a private key): ${data.skipped_private_keys.join(", ")}. Keys do not belong in git; ask the user.`,
    );
  }
  if (data.total_files > data.files.length) {
    lines.push(
      formatTruncationMarker({
        omitted: data.total_files - data.files.length,
        unit: "files",
        next:
          options.showTool === undefined
            ? "the commit holds them all"
            : `${options.showTool} with revision="${data.short_hash}" lists them all`,
      }),
    );
  }
  return lines.join("\n");
}

/** The author environment of a commit: the host's author, or none when the repository has one. */
async function commitIdentity(
  settings: GitToolSettings,
  author: { name: string; email: string } | undefined,
  signal: AbortSignal,
): Promise<Record<string, string>> {
  const { runner, mounted } = settings;
  if (author !== undefined) {
    return {
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
    };
  }
  const result = await runner.run(["config", "--null", "--get-regexp", "^user\\.(name|email)$"], {
    signal,
  });
  const keys = new Set(
    result.stdout
      .split("\0")
      .filter((record) => /\n\S/.test(record))
      .map((record) => record.split("\n", 1)[0]),
  );
  if (!keys.has("user.name") || !keys.has("user.email")) {
    const inside = await runner.run(["rev-parse", "--git-dir"], { signal });
    if (inside.exitCode !== 0) failFromGit(inside, "git commit", mounted);
    refuse(
      "GIT_ERROR",
      "No commit author is configured: the host gave no author and the repository has no user.name / user.email.",
      {
        hint: "Ask the user to configure an author (the git tools' author option, or git config user.name / user.email in the repository).",
      },
    );
  }
  return {};
}

/** Refuses a commit that would record nothing, naming the next step for each way to get there. */
function refuseNothingToCommit(
  request: { paths: readonly string[]; skipped: readonly string[]; stagedOnly: boolean },
  settings: GitToolSettings,
): never {
  const { mounted, name } = settings;
  const { paths, skipped } = request;
  const status = mounted.when("git_status", "git_status shows what changed.");
  if (paths.length > 0) {
    refuse(
      "CONFLICT",
      `Nothing to commit: ${paths.join(", ")} ${paths.length === 1 ? "has" : "have"} no changes.`,
      { hint: joinSentences([`Call ${name} without files to commit every change.`, status]) },
    );
  }
  if (request.stagedOnly) {
    refuse(
      "CONFLICT",
      "Nothing to commit: nothing is staged, and staged_only=true commits only what is staged.",
      {
        hint: joinSentences([
          `${mounted.has("git_add") ? "Stage files with git_add, or call" : "Call"} ${name} without staged_only to stage and commit every change.`,
          status,
        ]),
      },
    );
  }
  if (skipped.length > 0) {
    refuse(
      "CONFLICT",
      `Nothing to commit: the only changes (${skipped.join(", ")}) hold a private key and were not staged.`,
      { hint: "Keys do not belong in git; ask the user what to do with these files." },
    );
  }
  refuse(
    "CONFLICT",
    "Nothing to commit: the working tree has no changes (ignored and secret paths are never staged).",
    { hint: joinSentences([`Change files first, then call ${name} again.`, status]) },
  );
}

/** The trimmed message, after refusing a bad message or files combined with staged_only. */
function checkCommitRequest(input: z.output<typeof gitCommitInputSchema>): string {
  const message = input.message.trim();
  if (message.length === 0 || message.length > MAX_COMMIT_MESSAGE_CHARACTERS) {
    refuse(
      "INVALID_INPUT",
      `message must be 1 to ${MAX_COMMIT_MESSAGE_CHARACTERS} characters after trimming (got ${message.length}).`,
      { hint: "Write a short summary line of what changed and why." },
    );
  }
  if (message.includes("\0")) {
    refuse("INVALID_INPUT", "message contains a NUL byte.", {
      hint: "Send the message as plain text.",
    });
  }
  if (input.staged_only === true && input.files !== undefined && input.files.length > 0) {
    refuse("INVALID_INPUT", "Pass either files or staged_only=true, not both.", {
      hint: "Use files to commit some paths, staged_only=true to commit what is staged, or neither to commit every change.",
    });
  }
  return message;
}

/**
 * Creates the `git_commit` tool (read-write mode only): commits what is staged, the given files,
 * or everything. Hooks run only with `runHooks: true`; signing and every config-driven command
 * are switched off.
 *
 * @param options - the repository root, the author identity, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitCommit = createGitCommitTool({ root: "/work/repo", author: { name: "Agent", email: "agent@example.com" } });
 * await gitCommit.run({ message: "Fix the parser", files: ["src/parser.ts"] }); // data.hash: "a1b2…"
 */
export function createGitCommitTool(options: GitCommitToolOptions): GitCommitTool {
  const parsed = parseOptions("createGitCommitTool", commitOptionsSchema, options);
  const settings = createSettings(parsed, GIT_COMMIT_TOOL_NAME);
  const { runner, maxEntries, mounted, name } = settings;
  const author = parsed.author;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: gitCommitInputSchema,
    aliases: GIT_COMMIT_ALIASES,
    annotations: { title: "Git commit", readOnly: false, destructive: false, idempotent: false },
    tags: ["git", "git:write"],
    timeoutMs: settings.timeoutMs,
    execute: (input, context): Promise<ToolResult<GitCommitToolData>> =>
      guard(async () => {
        const signal = context.signal;
        const message = checkCommitRequest(input);
        const paths: string[] = [];
        for (const [index, file] of (input.files ?? []).entries()) {
          paths.push(await confinePath(runner, file, `files[${index}]`));
        }
        const environment = await commitIdentity(settings, author, signal);
        const stageEverything = paths.length === 0 && input.staged_only !== true;
        return runner.withWriteLock(async () => {
          if (paths.length > 0) await stagePaths(runner, paths, signal, mounted);
          let staged: StagedChanges = { files: [], skipped: [] };
          if (stageEverything) staged = await stageEveryChange(runner, signal, mounted);
          const skipped = staged.skipped;
          const pending = await runner.run(
            ["diff", "--cached", "--quiet", "--ignore-submodules=dirty", "--", ...paths],
            { signal, workingTree: true },
          );
          if (pending.exitCode === 0) {
            refuseNothingToCommit({ paths, skipped, stagedOnly: !stageEverything }, settings);
          }
          if (pending.exitCode !== 1) failFromGit(pending, "git diff --cached", mounted);
          const args = ["commit", "--cleanup=whitespace", "--no-gpg-sign", "--file=-"];
          if (paths.length > 0) args.push("--only", "--", ...paths);
          const committed = await runner.run(args, {
            signal,
            input: message,
            write: true,
            workingTree: true,
            environment,
          });
          if (committed.exitCode !== 0) failFromGit(committed, "git commit", mounted);
          const head = await runner.run(["rev-parse", "HEAD", "--abbrev-ref", "HEAD"], { signal });
          const [hash = "", branch = "HEAD"] = head.stdout.trim().split("\n");
          const tree = await runner.run(
            [
              "diff-tree",
              "-r",
              "--root",
              "--no-commit-id",
              "--numstat",
              "-z",
              "--find-renames",
              hash,
            ],
            { signal },
          );
          const files = parseNumstatPatch(tree.stdout).files;
          const recorded = await runner.run(["log", "-1", "--format=%h%x1f%B", hash, "--"], {
            signal,
          });
          const [shortHash = hash.slice(0, 7), ...body] = recorded.stdout.split("\x1f");
          return ok({
            hash,
            short_hash: shortHash,
            message: body.join("\x1f").trim() || message,
            branch: branch === "HEAD" ? null : branch,
            files: truncateList(files, maxEntries).items,
            total_files: files.length,
            ...(stageEverything ? { staged_files: staged.files } : {}),
            ...(skipped.length > 0 ? { skipped_private_keys: skipped } : {}),
          });
        });
      }),
    render: (data) =>
      formatGitCommit(data, mounted.has("git_show") ? { showTool: "git_show" } : {}),
  });
}
