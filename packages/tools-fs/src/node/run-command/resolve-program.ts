import { access, constants, realpath, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { isInside } from "./is-inside.js";

/**
 * The allowlist entry argv[0] names: a path-like argv[0] only when listed exactly, a bare name
 * when listed, or when an allowlisted absolute path ends in it (that exact file then runs).
 *
 * @param executable - argv[0] as sent
 * @param allowed - the host's allowlist
 * @returns the name or path to look up, or `undefined` when not allowed
 */
export function resolveExecutable(
  executable: string,
  allowed: readonly string[],
): string | undefined {
  if (allowed.length === 0) return undefined;
  if (executable.includes("/") || executable.includes("\\")) {
    return allowed.includes(executable) ? executable : undefined;
  }
  if (allowed.includes(executable)) return executable;
  // A bare name admitted by an allowlisted absolute path runs that exact file.
  return allowed.find(
    (entry) => isAbsolute(entry) && entry.slice(entry.lastIndexOf("/") + 1) === executable,
  );
}

/**
 * The host's PATH as commands see it and as argv[0] is looked up on: absolute entries only,
 * each on its real path, none inside the workspace (a file the model wrote must never shadow an
 * allowed command — through a symlinked entry either).
 *
 * @param rootReal - the workspace root (real path)
 * @param root - the workspace root as given
 * @returns the entries
 */
export async function filteredPath(rootReal: string, root: string): Promise<string[]> {
  const entries: string[] = [];
  for (const entry of (process.env.PATH ?? "").split(delimiter)) {
    if (!isAbsolute(entry)) continue;
    const real = await realpath(entry).catch(() => undefined);
    if (real === undefined || isInside(rootReal, real) || isInside(root, real)) continue;
    if (!entries.includes(real)) entries.push(real);
  }
  return entries;
}

/**
 * argv[0] resolved in this process, never by the child: an allowlisted absolute path on its
 * real path, a bare name on the filtered PATH — never the cwd. `undefined` when not found;
 * `{ inside: true }` when the program lies inside the workspace (the model could have written it).
 *
 * @param name - the allowlisted name or path
 * @param searchPath - the filtered PATH ({@link filteredPath})
 * @param rootReal - the workspace root (real path)
 * @param root - the workspace root as given
 * @returns the program, if found
 */
export async function resolveProgram(
  name: string,
  searchPath: readonly string[],
  rootReal: string,
  root: string,
): Promise<{ file: string; inside: boolean } | undefined> {
  const candidates = isAbsolute(name) ? [name] : searchPath.map((entry) => join(entry, name));
  for (const candidate of candidates) {
    try {
      const real = await realpath(candidate);
      const stats = await stat(real);
      if (!stats.isFile()) continue;
      await access(real, constants.X_OK);
      return { file: real, inside: isInside(rootReal, real) || isInside(root, real) };
    } catch {
      // not this one
    }
  }
  return undefined;
}

/**
 * Whether a program is git (by its file name).
 *
 * @param file - the program's path
 * @returns whether it is git
 */
export function isGit(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return name === "git" || name === "git.exe";
}
