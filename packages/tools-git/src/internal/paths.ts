import { lstat, realpath } from "node:fs/promises";
import * as path from "node:path";
import { normalizeRelativePath, secretGlobAnywhere } from "@agentool/contract";
import { refuse } from "./git-failure.js";
import type { GitRunner } from "./git-runner.js";

const PATH_HINT =
  "Use a path relative to the repository root, e.g. 'src/index.ts' (git_status lists changed files).";

function invalid(message: string): never {
  refuse("INVALID_PATH", message, { hint: PATH_HINT });
}

function refuseSecret(argument: string, shown: string): never {
  refuse(
    "BLOCKED",
    `${argument} ${shown} is a secret path (credentials, keys or environment files); the git tools do not stage, show or diff it.`,
    { hint: "Leave it out; if it must be versioned, ask the user to do it themselves." },
  );
}

/**
 * Turns a model's path into a repository path without touching the disk (the contract's
 * `normalizeRelativePath`, then git's own rules): refuses NUL bytes and
 * line breaks, `~`, drive letters, absolute paths outside the root, `..` that climbs above the
 * root, anything inside `.git`, and secret paths (the runner's list; by default the contract's `DEFAULT_SECRET_PATHS`).
 *
 * @param runner - the repository's runner (its display root and secret-path test)
 * @param realRoot - the real root (also accepted as a prefix of absolute paths)
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @returns the normalised repository path, `""` for the root itself
 */
export function normalizeRepositoryPath(
  runner: Pick<GitRunner, "displayRoot" | "isSecret">,
  realRoot: string,
  input: string,
  argument: string,
): string {
  const roots = [runner.displayRoot, realRoot];
  const normalized = normalizeRelativePath(input, { roots, argument, rootName: "repository" });
  if (normalized.problem !== undefined) invalid(normalized.problem);
  const relative = normalized.path;
  const shown = JSON.stringify(input);
  if (relative.split("/")[0]?.toLowerCase() === ".git") {
    refuse("BLOCKED", `${argument} ${shown} is inside .git, git's private directory.`, {
      hint: "Name files of the working tree; git's own files are not available through these tools.",
    });
  }
  if (runner.isSecret(relative)) refuseSecret(argument, shown);
  return relative;
}

/**
 * Pathspecs that keep secret paths (the runner's list) out of diffs, shows and
 * `add --all`: append them after `--` and a positive pathspec, on a call made with
 * `pathspecMagic: true` (model paths then go in as {@link literalPathspec}).
 *
 * @param runner - the repository's runner (its secret-path globs)
 * @returns `:(exclude,icase,glob)` pathspecs, two per secret pattern (the path and anything inside it)
 */
export function secretExclusionPathspecs(runner: Pick<GitRunner, "secretPaths">): string[] {
  return runner.secretPaths.flatMap((pattern) => {
    // Matched anywhere and case-insensitively, like the contract's createSecretPathMatcher.
    const anchored = secretGlobAnywhere(pattern);
    return [`:(exclude,icase,glob)${anchored}`, `:(exclude,icase,glob)${anchored}/**`];
  });
}

function isInside(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

/**
 * Confines a model's path to the repository on the real path: normalises it, then follows
 * symlinks on the longest existing prefix and refuses anything whose real location is outside
 * the root (symlinks, sibling directories such as `root-evil`).
 *
 * @param runner - the repository's runner (for its roots)
 * @param input - what the model sent
 * @param argument - the field name, for messages
 * @returns the repository-relative path (`"."` for the root), safe to pass after `--`
 */
export async function confinePath(
  runner: GitRunner,
  input: string,
  argument: string,
): Promise<string> {
  const realRoot = await runner.realRoot();
  const relative = normalizeRepositoryPath(runner, realRoot, input, argument);
  if (relative === "") return ".";
  const shown = JSON.stringify(input);
  let probe = path.join(realRoot, ...relative.split("/"));
  let first = true;
  while (true) {
    try {
      const real = await realpath(probe);
      if (!isInside(real, realRoot)) {
        invalid(
          `${argument} ${shown} resolves (through a symbolic link) to a place outside the repository.`,
        );
      }
      if (runner.isSecret(path.relative(realRoot, real).split(path.sep).join("/"))) {
        refuseSecret(argument, shown);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      if (first) {
        // A dangling symlink at the leaf: refuse rather than guess where it points.
        const info = await lstat(probe).catch(() => undefined);
        if (info?.isSymbolicLink()) {
          invalid(`${argument} ${shown} is a symbolic link whose target does not exist.`);
        }
      }
      first = false;
      const parent = path.dirname(probe);
      if (parent === probe || !isInside(parent, realRoot)) break;
      probe = parent;
    }
  }
  return relative;
}

/**
 * A confined repository path as a pathspec that is read literally even when pathspec magic is on.
 *
 * @param relative - a path from {@link confinePath} (`"."` for the root)
 * @returns `:(literal)<path>`
 */
export function literalPathspec(relative: string): string {
  return `:(literal)${relative}`;
}
