import { realpath, stat } from "node:fs/promises";
import { relative, resolve } from "node:path";
import { findSecretPaths, type HiddenPath } from "./find-secret-paths.js";
import { isInside } from "./is-inside.js";

/** Programs that read whole directory trees whatever their flags. */
const RECURSIVE_PROGRAMS = new Set(["rg", "ripgrep", "tar", "zip", "rsync", "ag", "ack"]);

/**
 * Without the sandbox: a program told to read a directory recursively (`grep -r`, `cp -r`,
 * rg, tar, zip) would read the secret files inside it, so a directory argument (or the cwd,
 * when none is given) that holds a secret path is refused. Scans only those directories.
 *
 * @param argv - the argv
 * @param program - the program (real path)
 * @param cwdAbsolute - the working directory (real path)
 * @param rootReal - the workspace root (real path)
 * @param isSecret - the workspace's secret-path test
 * @returns the refused argument and why, if any
 */
export async function refusedRecursiveRead(
  argv: readonly string[],
  program: string,
  cwdAbsolute: string,
  rootReal: string,
  isSecret: (path: string) => boolean,
): Promise<{ argument: string; why: string } | undefined> {
  const name = program.slice(program.lastIndexOf("/") + 1);
  const args = argv.slice(1);
  const recursive =
    RECURSIVE_PROGRAMS.has(name) ||
    args.some(
      (argument) =>
        argument === "--recursive" ||
        argument === "--dereference-recursive" ||
        argument.startsWith("--directories=recurse") ||
        /^-[a-zA-Z]*[rR]/.test(argument) ||
        (name === "cp" && /^-[a-zA-Z]*a/.test(argument)),
    );
  if (!recursive) return undefined;
  const directories: Array<[string, string]> = [];
  for (const argument of args) {
    const value =
      argument.startsWith("-") && argument.includes("=")
        ? argument.slice(argument.indexOf("=") + 1)
        : argument;
    if (value.startsWith("-") || value.length === 0) continue;
    const real = await realpath(resolve(cwdAbsolute, value)).catch(() => undefined);
    if (real === undefined || !isInside(rootReal, real)) continue;
    if ((await stat(real).catch(() => undefined))?.isDirectory())
      directories.push([argument, real]);
  }
  if (directories.length === 0) directories.push([".", cwdAbsolute]);
  for (const [argument, directory] of directories) {
    const base = relative(rootReal, directory).split("\\").join("/");
    const secrets = await findSecretPaths(directory, (path) =>
      isSecret(base.length === 0 ? path : `${base}/${path}`),
    );
    if (secrets.length > 0) {
      const first = relative(rootReal, (secrets[0] as HiddenPath).path);
      return {
        argument,
        why: `is read recursively and holds secret paths (${first}${secrets.length > 1 ? ` and ${secrets.length - 1} more` : ""})`,
      };
    }
  }
  return undefined;
}
