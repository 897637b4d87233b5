import { refuse } from "./git-failure.js";
import type { GitRunner } from "./git-runner.js";

const MAX_REVISION_LENGTH = 256;

/**
 * Checks the text of a revision argument without running git: non-empty, at most 256
 * characters, no control characters or whitespace, and never starting with `-` (so it can never
 * be read as an option such as `--output=/tmp/x`).
 *
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @returns the trimmed revision
 */
export function checkRevisionText(input: string, argument: string): string {
  const revision = input.trim();
  const shown = JSON.stringify(input);
  const hint = `Pass a branch name, tag, commit hash or an expression such as HEAD~1 (git_log and git_branch list them).`;
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
 * passed to other git commands.
 *
 * @param runner - the repository's runner
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @param signal - cancels the call
 * @returns the commit's full hash
 */
export async function resolveCommit(
  runner: GitRunner,
  input: string,
  argument: string,
  signal: AbortSignal,
): Promise<string> {
  const revision = checkRevisionText(input, argument);
  const result = await runner.run(
    ["rev-parse", "--verify", "--quiet", "--end-of-options", `${revision}^{commit}`],
    { signal },
  );
  const hash = result.stdout.trim();
  if (result.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(hash)) {
    refuse(
      "GIT_ERROR",
      `${argument} ${JSON.stringify(input)} does not name a commit in this repository.`,
      {
        hint: "Call git_log to see commit hashes or git_branch to see branch names, then call again.",
      },
    );
  }
  return hash;
}
