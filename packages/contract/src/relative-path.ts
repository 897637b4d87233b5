/** Options of {@link normalizeRelativePath}. */
export interface NormalizeRelativePathOptions {
  /**
   * Absolute forms of the root (e.g. `/home/me/project` and its real path): an absolute path
   * under one of them is accepted and made relative; any other absolute path is refused.
   */
  roots?: readonly string[];
  /** The argument's name, for messages (`path`, `destination`, `cwd`). Default `"path"`. */
  argument?: string;
  /** What the root is called in messages (`workspace`, `repository`). Default `"workspace"`. */
  rootName?: string;
}

/** The outcome of {@link normalizeRelativePath}: the normalised path, or why it is refused. */
export type NormalizedRelativePath =
  | { path: string; problem?: undefined }
  | { path?: undefined; problem: string };

/**
 * Turns a model's path into a root-relative, `/`-separated path without touching any file
 * system — the first step of every family's confinement (the real-path check comes after):
 * refuses NUL bytes and line breaks, `~`, drive letters and UNC paths, absolute paths outside the
 * root, and `..` that climbs above the root; turns `\` into `/`; drops `.` and empty segments.
 *
 * @param input - what the model sent
 * @param options - the root's absolute forms, the argument's name, what the root is called
 * @returns `{ path }` (`""` for the root itself) or `{ problem }` naming the argument
 * @example
 * normalizeRelativePath("./src\\..\\docs/a.md", { roots: ["/repo"] }); // { path: "docs/a.md" }
 * normalizeRelativePath("/repo-evil/a", { roots: ["/repo"] }).problem; // "path \"/repo-evil/a\" is an absolute path outside the workspace root."
 */
export function normalizeRelativePath(
  input: string,
  options: NormalizeRelativePathOptions = {},
): NormalizedRelativePath {
  const argument = options.argument ?? "path";
  const rootName = options.rootName ?? "workspace";
  const shown = JSON.stringify(input);
  if (/[\0\r\n]/.test(input))
    return { problem: `${argument} ${shown} contains a NUL byte or a line break.` };
  let candidate = input.trim().replace(/\\/g, "/");
  if (candidate === "~" || candidate.startsWith("~/")) {
    return {
      problem: `${argument} ${shown} points into a home directory, outside the ${rootName}.`,
    };
  }
  if (/^[a-zA-Z]:\//.test(candidate) || candidate.startsWith("//")) {
    return { problem: `${argument} ${shown} is an absolute path outside the ${rootName}.` };
  }
  if (candidate.startsWith("/")) {
    const roots = (options.roots ?? []).map((root) => root.replace(/\/+$/, ""));
    const root = roots.find((item) => candidate === item || candidate.startsWith(`${item}/`));
    if (root === undefined) {
      return { problem: `${argument} ${shown} is an absolute path outside the ${rootName} root.` };
    }
    candidate = candidate.slice(root.length);
  }
  const segments: string[] = [];
  for (const segment of candidate.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0)
        return { problem: `${argument} ${shown} climbs above the ${rootName} root.` };
      segments.pop();
      continue;
    }
    segments.push(segment);
  }
  return { path: segments.join("/") };
}
