import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { secretGlobAnywhere } from "@agentool/contract";
import { FileSystemError } from "../../file-system.js";
import type { SearchScope } from "../../internal/search-types.js";
import { type IgnoreInspection, inspectIgnoreFiles } from "./inspect-ignore-files.js";
import { MemoryCeilingError } from "./memory-ceiling.js";
import { type Held, type PinnedScope, pinScope } from "./pin-scope.js";

/** Writes a private temporary ignore file (one rule a line). */
export async function writeIgnoreFile(rules: readonly string[]): Promise<Held<string>> {
  const path = join(tmpdir(), `agentool-rg-${randomUUID()}.ignore`);
  await writeFile(path, `${rules.join("\n")}\n`, { mode: 0o600 });
  return { value: path, release: () => rm(path, { force: true }) };
}

/** The glob of a scope, checked to be one line (it becomes a line of an ignore file). */
export function scopeGlob(scope: SearchScope): string | undefined {
  const glob = scope.glob !== undefined && scope.glob.length > 0 ? scope.glob : undefined;
  if (glob !== undefined && /[\r\n]/.test(glob)) {
    throw new FileSystemError(
      "INVALID_INPUT",
      "glob must be a single line.",
      "Send one glob, e.g. 'src/**/*.ts'.",
    );
  }
  return glob;
}

/** The ignore rules a glob becomes (see {@link scopeArguments}); `hidden` keeps hidden names out. */
export function globRules(glob: string, hidden: boolean): string[] {
  if (glob.startsWith("!")) return [glob.slice(1)];
  return hidden ? ["*", "!*/", `!${glob}`, ".*"] : ["*", "!*/", `!${glob}`];
}

/** The hardening every rg run starts with. */
export const BASE_ARGUMENTS = ["--no-config", "--no-require-git", "--no-follow"] as const;

/** What widens a run to hidden and ignored files (never `.git`). */
export const HIDDEN_AND_IGNORED_ARGUMENTS = ["--hidden", "--no-ignore", "--glob", "!.git"] as const;

/** What keeps rg from reading any ignore file itself (their rules then come in `--ignore-file`). */
export const NO_IGNORE_FILE_ARGUMENTS = [
  "--no-ignore-vcs",
  "--no-ignore-dot",
  "--no-ignore-exclude",
  "--no-ignore-parent",
] as const;

/**
 * Secret globs match anywhere and case-insensitively, like createSecretPathMatcher. The plain
 * ones that match at any depth go into one `--iglob '!**' + '/{a,b,…}'` (the same paths as one
 * `--iglob` each): rg compiles one glob instead of dozens at every start (the default list:
 * ~3 ms of a search as separate globs, ~5 ms with `--debug`; ~2 ms combined).
 */
export function secretArguments(scope: SearchScope): string[] {
  const args: string[] = [];
  const anywhere: string[] = [];
  for (const secret of scope.secretGlobs) {
    const glob = secretGlobAnywhere(secret);
    const body = glob.slice(3);
    if (glob.startsWith("**/") && body.length > 0 && !/[{}[\]\\,!]/.test(body)) anywhere.push(body);
    else args.push("--iglob", `!${glob}`);
  }
  if (anywhere.length === 1) args.push("--iglob", `!**/${anywhere[0]}`);
  else if (anywhere.length > 1) args.push("--iglob", `!**/{${anywhere.join(",")}}`);
  return args;
}

/**
 * The rg arguments of a scope. A model's glob is NOT passed as `--glob` (ripgrep's overrides
 * whitelist files, which would re-include hidden and .gitignore'd files); it goes into a
 * temporary ignore file (ignore all, re-include directories and the glob, ignore hidden names),
 * which ranks below the workspace's own ignore files, so ignored and hidden files stay out
 * whatever the glob. Secret paths are excluded with `--iglob '!…'` overrides, which always win
 * ({@link secretArguments}).
 *
 * When an ignore file of the workspace is unsafe to read ({@link inspectIgnoreFiles}), rg reads
 * none ({@link NO_IGNORE_FILE_ARGUMENTS}) and gets the rules read safely here in a second
 * `--ignore-file` after the glob's: one matcher where the last match wins, so a workspace rule
 * decides before the glob, as a workspace ignore file does when rg reads it.
 */
async function scopeArguments(
  scope: SearchScope,
  inspection: IgnoreInspection,
): Promise<Held<readonly string[]>> {
  const args: string[] = [...BASE_ARGUMENTS];
  const glob = scopeGlob(scope);
  const ignoreFiles: Held<string>[] = [];
  try {
    if (scope.includeHiddenAndIgnored) {
      args.push(...HIDDEN_AND_IGNORED_ARGUMENTS);
      if (glob !== undefined) args.push("--glob", glob);
    } else if (glob !== undefined) {
      ignoreFiles.push(await writeIgnoreFile(globRules(glob, true)));
    }
    if (inspection.unsafe.length > 0) {
      args.push(...NO_IGNORE_FILE_ARGUMENTS);
      if (inspection.rules.length > 0) ignoreFiles.push(await writeIgnoreFile(inspection.rules));
    }
  } catch (error) {
    await Promise.all(ignoreFiles.map((file) => file.release()));
    throw error;
  }
  for (const file of ignoreFiles) args.push("--ignore-file", file.value);
  args.push(...secretArguments(scope));
  const release = async () => {
    await Promise.all(ignoreFiles.map((file) => file.release()));
  };
  return { value: args, release };
}

/**
 * Runs `work` with rg pinned to the scope ({@link pinScope}) and the scope's arguments
 * ({@link scopeArguments}) once the ignore files rg would read are checked
 * ({@link inspectIgnoreFiles}). When rg is stopped at its memory ceiling and that check stopped
 * at its first bound, the check walks on; if it then finds an unsafe ignore file, `work` runs
 * once more with rg reading none (so `work` must start from nothing each time).
 */
export async function withScope<T>(
  root: string,
  scope: SearchScope,
  signal: AbortSignal,
  work: (where: PinnedScope, scopeArgs: readonly string[]) => Promise<T>,
): Promise<T> {
  const inspection = await inspectIgnoreFiles(root, scope, signal);
  try {
    return await workInScope(root, scope, inspection, work);
  } catch (error) {
    if (!(error instanceof MemoryCeilingError) || !inspection.cut) throw error;
    const thorough = await inspectIgnoreFiles(root, scope, signal, true);
    if (thorough.unsafe.length === 0) throw error;
    return workInScope(root, scope, thorough, work);
  }
}

/**
 * Runs `work` with the pinned scope and the scope's arguments, both prepared at the same time,
 * and releases both afterwards. When rg is to read no ignore file, it runs from the root or the
 * mirror (its `--ignore-file` rules are anchored at the root) and `where.ownIgnoreRules` says so.
 */
async function workInScope<T>(
  root: string,
  scope: SearchScope,
  inspection: IgnoreInspection,
  work: (where: PinnedScope, scopeArgs: readonly string[]) => Promise<T>,
): Promise<T> {
  const ownIgnoreRules = inspection.unsafe.length > 0;
  const [pinned, argued] = await Promise.allSettled([
    pinScope(root, scope, !ownIgnoreRules),
    scopeArguments(scope, inspection),
  ]);
  if (pinned.status === "rejected" || argued.status === "rejected") {
    await Promise.all(
      [pinned, argued].map((held) =>
        held.status === "fulfilled" ? held.value.release() : undefined,
      ),
    );
    // A changed path is reported before a bad glob, as when they were checked one after the other.
    throw pinned.status === "rejected" ? pinned.reason : (argued as PromiseRejectedResult).reason;
  }
  try {
    const where = pinned.value.value;
    return await work(ownIgnoreRules ? { ...where, ownIgnoreRules } : where, argued.value.value);
  } finally {
    await Promise.all([pinned.value.release(), argued.value.release()]);
  }
}
