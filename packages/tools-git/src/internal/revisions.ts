import { listWords, type MountedTools, mountedTools } from "@agentool/contract";
import { refuse } from "./git-failure.js";
import type { GitRunner } from "./git-runner.js";
import { failFromGit } from "./tool-support.js";

const MAX_REVISION_LENGTH = 256;

const NONE = mountedTools(undefined);

/**
 * The hint for a revision that is missing or malformed: it names `git_log` / `git_branch` only
 * when they are mounted.
 *
 * @param mounted - the tools a hint may name
 * @returns the hint
 */
export function revisionHint(mounted: MountedTools): string {
  const finders = mounted.filter(["git_log", "git_branch"]);
  return `Pass a branch name, tag, commit hash or an expression such as HEAD~1${finders.length > 0 ? ` (${listWords(finders, "and")} list them)` : ""}.`;
}

/**
 * Checks the text of a revision argument without running git: non-empty, at most 256
 * characters, no control characters or whitespace, and never starting with `-` (so it can never
 * be read as an option such as `--output=/tmp/x`).
 *
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @param mounted - the tools the hint may name
 * @returns the trimmed revision
 */
export function checkRevisionText(
  input: string,
  argument: string,
  mounted: MountedTools = NONE,
): string {
  const revision = input.trim();
  const shown = JSON.stringify(input);
  const hint = revisionHint(mounted);
  if (revision.length === 0) refuse("INVALID_INPUT", `${argument} is empty.`, { hint });
  if (revision.length > MAX_REVISION_LENGTH) {
    refuse("INVALID_INPUT", `${argument} is longer than ${MAX_REVISION_LENGTH} characters.`, {
      hint,
    });
  }
  if (revision.startsWith("-")) {
    refuse(
      "INVALID_INPUT",
      `${argument} ${shown} starts with "-"; revisions are never options and are refused.`,
      { hint },
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u0020\u007f]/.test(revision)) {
    refuse("INVALID_INPUT", `${argument} ${shown} contains whitespace or control characters.`, {
      hint,
    });
  }
  return revision;
}

/**
 * Resolves a model's revision to a full commit hash with
 * `git rev-parse --verify --quiet --end-of-options <revision>^{commit}`; only the hash is ever
 * passed to other git commands. A root that is not a repository is `NOT_CONFIGURED`; a revision
 * that names no commit is `INVALID_INPUT` (the contract's table), with a hint to the tools that
 * list revisions when they are mounted.
 *
 * @param runner - the repository's runner
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @param signal - cancels the call
 * @param mounted - the tools a hint may name
 * @returns the commit's full hash
 */
export async function resolveCommit(
  runner: GitRunner,
  input: string,
  argument: string,
  signal: AbortSignal,
  mounted: MountedTools = NONE,
): Promise<string> {
  const revision = checkRevisionText(input, argument, mounted);
  const result = await runner.run(
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`],
    { signal },
  );
  const hash = result.stdout.trim();
  if (result.exitCode === 0 && /^[0-9a-f]{40,64}$/.test(hash)) return hash;
  if (result.stderr.trim().length > 0) failFromGit(result, "git rev-parse", mounted);
  const empty = await runner.run(["rev-parse", "--verify", "--quiet", "HEAD"], { signal });
  if (empty.exitCode !== 0 && empty.stderr.trim().length === 0) {
    refuse(
      "INVALID_INPUT",
      `${argument} ${JSON.stringify(input)} does not name a commit: the repository has no commits yet.`,
      {
        hint: `Call again without ${argument}${mounted.when("git_commit", "; git_commit makes the first commit")}.`,
      },
    );
  }
  refuse(
    "INVALID_INPUT",
    `${argument} ${JSON.stringify(input)} does not name a commit in this repository.`,
    { hint: revisionHint(mounted) },
  );
}

/** Two revisions parsed out of `A..B` or `A...B`. */
export interface RevisionRange {
  /** The old side (`A`; `HEAD` when empty). */
  base: string;
  /** The new side (`B`; `HEAD` when empty). */
  ref: string;
  /** `true` for `A...B`: the old side is the merge base of A and B. */
  symmetric: boolean;
}

/**
 * Splits `A..B` / `A...B` (either side may be empty, meaning `HEAD`), or returns `undefined` for
 * a single revision.
 *
 * @param input - the ref field as sent
 * @returns the two sides, or `undefined`
 */
export function parseRange(input: string): RevisionRange | undefined {
  const match = /^(.*?)(\.\.\.?)(.*)$/.exec(input.trim());
  if (match === null) return undefined;
  const [, left = "", dots = "..", right = ""] = match;
  return {
    base: left.length === 0 ? "HEAD" : left,
    ref: right.length === 0 ? "HEAD" : right,
    symmetric: dots === "...",
  };
}
