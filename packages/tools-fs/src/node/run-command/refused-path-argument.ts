import { lstat, realpath } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { isInside } from "./is-inside.js";

const DEVICE_ARGUMENTS = new Set(["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "-"]);

/**
 * Without the sandbox: every argument (and the value of `--option=value`) that names a path —
 * an existing one relative to cwd or absolute, or any with a `/` — on its real path: refused
 * when it leads out of the root or to a secret path. A convenience, not a boundary (a program
 * may read paths from its own config, stdin or a pattern).
 *
 * @param args - the arguments after argv[0]
 * @param cwdAbsolute - the working directory (real path)
 * @param rootReal - the workspace root (real path)
 * @param isSecret - the workspace's secret-path test
 * @returns the refused argument and why, if any
 */
export async function refusedPathArgument(
  args: readonly string[],
  cwdAbsolute: string,
  rootReal: string,
  isSecret: (path: string) => boolean,
): Promise<{ argument: string; why: string } | undefined> {
  for (const argument of args) {
    const values = [argument];
    const equals = argument.indexOf("=");
    if (argument.startsWith("-") && equals !== -1) values.push(argument.slice(equals + 1));
    for (const value of values) {
      if (value.length === 0 || value.includes("://") || DEVICE_ARGUMENTS.has(value)) continue;
      if (value.startsWith("-") && value === argument) continue;
      const target = resolve(cwdAbsolute, value);
      const pathLike = value.includes("/") || value === ".." || value.startsWith("~");
      let real: string | undefined;
      const exists = await lstat(target).then(
        () => true,
        () => false,
      );
      if (exists) {
        real = await realpath(target).catch(() => undefined);
        if (real === undefined) {
          return {
            argument,
            why: "is a symlink that leads nowhere (a write through it could land anywhere)",
          };
        }
      } else if (pathLike) {
        // Not there yet (an output file): its nearest existing ancestor decides.
        let ancestor = dirname(target);
        for (;;) {
          const found = await realpath(ancestor).catch(() => undefined);
          if (found !== undefined) {
            real = join(found, relative(ancestor, target));
            break;
          }
          const up = dirname(ancestor);
          if (up === ancestor) break;
          ancestor = up;
        }
      }
      if (real === undefined) continue;
      if (!isInside(rootReal, real)) {
        return { argument, why: "names a path outside the workspace" };
      }
      const inside = relative(rootReal, real).split("\\").join("/");
      if (inside.length > 0 && isSecret(inside)) {
        return {
          argument,
          why: "leads to a secret path (credentials, keys or environment files)",
        };
      }
    }
  }
  return undefined;
}
