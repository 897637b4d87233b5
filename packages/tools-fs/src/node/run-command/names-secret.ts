/** A path with `.`, `~` and empty segments dropped and `..` applied (never above its start). */
function normalizeSegments(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "~") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

/**
 * Whether an argument (or the value of `--option=value`) names a secret path, as written or
 * relative to the working directory. No file system access: a name is enough.
 *
 * @param argument - one argument of the argv
 * @param cwd - the working directory, as a workspace path
 * @param isSecret - the workspace's secret-path test
 * @returns whether it names a secret
 */
export function namesSecret(
  argument: string,
  cwd: string,
  isSecret: (path: string) => boolean,
): boolean {
  const values = [argument];
  const equals = argument.indexOf("=");
  if (equals !== -1) values.push(argument.slice(equals + 1));
  for (const value of values) {
    if (value.length === 0 || value.includes("://")) continue;
    const slashed = value.replace(/\\/g, "/");
    const candidates = [normalizeSegments(slashed)];
    if (!slashed.startsWith("/") && !slashed.startsWith("~")) {
      candidates.push(normalizeSegments(cwd.length === 0 ? slashed : `${cwd}/${slashed}`));
    }
    if (candidates.some((candidate) => isSecret(candidate))) return true;
  }
  return false;
}

/**
 * The first git argument `rev:path` whose path names a secret (`git show HEAD:.env` names a
 * file in git's history).
 *
 * @param args - the arguments after argv[0]
 * @param cwd - the working directory, as a workspace path
 * @param isSecret - the workspace's secret-path test
 * @returns the argument, if any
 */
export function secretRevisionArgument(
  args: readonly string[],
  cwd: string,
  isSecret: (path: string) => boolean,
): string | undefined {
  return args.find((argument) => {
    const colon = argument.indexOf(":");
    return (
      colon !== -1 &&
      !argument.includes("://") &&
      namesSecret(argument.slice(colon + 1), cwd, isSecret)
    );
  });
}
