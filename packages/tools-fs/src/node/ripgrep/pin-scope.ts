import { closeSync, constants, fstatSync, openSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { secretGlobAnywhere } from "@agentool/contract";
import type { SearchScope } from "../../internal/search-types.js";
import { changedError, hasProcFd, isDescriptorAt, O_DIRECTORY, O_NOFOLLOW } from "../safe-open.js";

/**
 * Where rg runs: its working directory, the descriptor it inherits as fd 3 (if any), the path
 * argument it searches, and what turns the paths it reports into workspace paths.
 */
export interface PinnedScope {
  readonly cwd: string;
  readonly fd?: number;
  /** rg's path argument: `.`, or the workspace path (in the mirror). */
  readonly path: string;
  /** Prefixed to what rg reports (`""`, or `"<path>/"` when rg runs inside the scope). */
  readonly prefix: string;
  /**
   * rg reads no ignore file of the workspace: their rules, read safely beforehand, come in an
   * `--ignore-file` (an ignore file was unsafe to read, see `inspectIgnoreFiles`).
   */
  readonly ownIgnoreRules?: boolean;
}

/** The descriptor rg inherits the searched directory or file on; the mirror's link names it. */
const PINNED_FD = 3;

/** Something made for one search (an open handle, a temporary file) and how to undo it. */
export interface Held<T> {
  readonly value: T;
  release(): Promise<void>;
}

export const nothingToRelease = async (): Promise<void> => undefined;

/**
 * Pins rg to the searched directory or file *object*, so that nothing swapped after the
 * workspace's check (a directory replaced by a symlink to `~/.ssh`) is followed: rg follows a
 * symlink given as its path argument, and walks by name below it.
 *
 * The root is searched from the root (the host's own directory, which no tool can swap). Any
 * other path is opened here (`O_NOFOLLOW`, `O_DIRECTORY` for a directory, non-blocking for a
 * file), and the open object must be at the checked real path (`/proc/self/fd/N`), else the call
 * fails with `INVALID_PATH`; rg inherits the open object as its fd 3. A directory whose globs
 * (the model's and the secret ones) do not depend on where paths start ({@link anchorFree}) is
 * then searched from inside: rg's working directory is `/proc/self/fd/3` (entered after fd 3 is
 * in place, so it is the object itself), its path is `.`, and the paths it reports are prefixed
 * with the workspace path. Otherwise rg runs in a private temporary directory that mirrors the
 * workspace path: `<tmp>/<path>` is a symlink to `/proc/self/fd/3`, so rg reports the same
 * workspace paths as before (`<path>/…`) and root-relative globs match them as before (each path
 * rg opens then goes through that link, which costs a few percent). Either way rg reads the
 * parent `.gitignore` files of the object's real location (it canonicalises its path). Without
 * `/proc/self/fd` (macOS, Windows) the path string is used after the same check — narrower, not
 * airtight.
 *
 * The mirror, when one is needed, is made while the object is opened and checked (it names no
 * object until rg inherits one), and removed with the handle when the search ends. With
 * `allowInside` false, rg never runs inside the scope (its paths always start at the root).
 */
export async function pinScope(
  root: string,
  scope: SearchScope,
  allowInside = true,
): Promise<Held<PinnedScope>> {
  if (scope.path.length === 0) {
    return { value: { cwd: root, path: ".", prefix: "" }, release: nothingToRelease };
  }
  const expected = join(root, scope.path);
  const inside =
    allowInside &&
    hasProcFd &&
    scope.pathType === "directory" &&
    [...scopeGlobs(scope)].every((glob) => anchorFree(glob, scope.path));
  const mirrorMade = hasProcFd && !inside ? makeMirror(scope.path) : Promise.resolve(undefined);
  const removeMirror = async () => {
    const mirror = await mirrorMade.catch(() => undefined);
    if (mirror !== undefined) await rm(mirror, { recursive: true, force: true });
  };
  // Opened and checked synchronously (microseconds each; through the thread pool, each a hand-off).
  let descriptor: number;
  try {
    descriptor = openSync(
      expected,
      scope.pathType === "directory"
        ? constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW
        : constants.O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    await removeMirror();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT" || code === "EMLINK") {
      throw changedError(scope.path);
    }
    throw error;
  }
  const opened = descriptor;
  let closed = false;
  const release = async () => {
    if (!closed) {
      closed = true;
      closeSync(opened);
    }
    await removeMirror();
  };
  try {
    if (!isDescriptorAt(opened, expected)) throw changedError(scope.path);
    // A FIFO named as the path is still handed to rg (opened here without blocking): rg blocks on
    // it in its own process, bounded by the tool's timeout, as before.
    if (fstatSync(opened).isDirectory() !== (scope.pathType === "directory"))
      throw changedError(scope.path);
    if (inside) {
      const where = {
        cwd: `/proc/self/fd/${PINNED_FD}`,
        fd: opened,
        path: ".",
        prefix: `${scope.path}/`,
      };
      return { value: where, release };
    }
    const mirror = await mirrorMade;
    if (mirror === undefined)
      return { value: { cwd: root, path: scope.path, prefix: "" }, release };
    return { value: { cwd: mirror, fd: opened, path: scope.path, prefix: "" }, release };
  } catch (error) {
    await release();
    throw error;
  }
}

/** Every glob rg matches paths against in a scope: the model's and the secret ones. */
function* scopeGlobs(scope: SearchScope): Iterable<string> {
  if (scope.glob !== undefined && scope.glob.length > 0) yield scope.glob;
  for (const secret of scope.secretGlobs) yield secretGlobAnywhere(secret);
}

/**
 * Whether a glob matches the same workspace paths below `scopePath` whether rg's paths start at
 * the root or at the scope: a glob with no `/` (but a trailing one) matches names at any depth;
 * one that starts with `**` + `/` does too, unless its first fixed segment could match a segment of
 * the scope itself (then it is not, to be safe). Anything else is anchored and needs the mirror.
 */
function anchorFree(glob: string, scopePath: string): boolean {
  let body = glob.startsWith("!") ? glob.slice(1) : glob;
  if (body.endsWith("/")) body = body.slice(0, -1);
  if (!body.includes("/")) return true;
  if (!body.startsWith("**/")) return false;
  const rest = body.slice(3);
  if (!rest.includes("/")) return true;
  const first = rest.slice(0, rest.indexOf("/"));
  if (/[*?[\]{}\\]/.test(first)) return false;
  const lower = first.toLowerCase();
  return scopePath.split("/").every((segment) => segment.toLowerCase() !== lower);
}

/** A private directory where `<path>` is a symlink to `/proc/self/fd/3` (see {@link pinScope}). */
async function makeMirror(path: string): Promise<string> {
  const mirror = await mkdtemp(join(tmpdir(), "agentool-rg-scope-"));
  try {
    const link = join(mirror, path);
    if (path.includes("/")) await mkdir(dirname(link), { recursive: true, mode: 0o700 });
    await symlink(`/proc/self/fd/${PINNED_FD}`, link);
    return mirror;
  } catch (error) {
    await rm(mirror, { recursive: true, force: true });
    throw error;
  }
}
