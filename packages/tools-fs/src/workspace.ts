import {
  createSecretPathMatcher,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  normalizeRelativePath,
} from "@agentool/contract";
import { type FileSystem, FileSystemError } from "./file-system.js";
import { LineTotals } from "./internal/line-totals.js";

/** Options of {@link createWorkspace}. */
export interface WorkspaceOptions {
  /** The seam the tools work over. */
  fileSystem: FileSystem;
  /** Globs of paths no tool may touch. Default {@link DEFAULT_SECRET_PATHS}. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths`. Default {@link DEFAULT_SECRET_EXCEPTIONS}. */
  secretExceptions?: readonly string[];
}

/** A model's path after normalisation and checks. */
export interface ResolvedPath {
  /** The workspace path as asked for (normalised, symlinks not followed); `""` is the root. */
  path: string;
  /** The real workspace path (symlinks followed); what the seam reads and writes. */
  real: string;
  /** How to show it to the model: the workspace path, or `.` for the root. */
  display: string;
}

/** Options of {@link Workspace.resolve}. */
export interface ResolveOptions {
  /** Whether the root itself is acceptable (listing: yes; deleting: no). Default `true`. */
  allowRoot?: boolean;
  /** The argument's name, for messages (`path`, `destination`, `cwd`). Default `"path"`. */
  argument?: string;
}

/** The confinement layer between a model's paths and a {@link FileSystem}. */
export interface Workspace {
  /** The seam. */
  readonly fileSystem: FileSystem;
  /** The secret-path globs in force (search engines exclude them up front). */
  readonly secretPaths: readonly string[];
  /** The globs excepted from {@link Workspace.secretPaths}. */
  readonly secretExceptions: readonly string[];
  /**
   * Normalises a model's path (NUL bytes, Windows separators, `./`, `..`, absolute paths inside
   * the root), follows symlinks on the real path and refuses escapes (`INVALID_PATH`) and secret
   * paths (`BLOCKED`) — checked on both the path asked for and the real path.
   */
  resolve(input: string | undefined, options?: ResolveOptions): Promise<ResolvedPath>;
  /** Whether a workspace path is a secret path (the path itself or inside a secret directory). */
  isSecret(path: string): boolean;
  /**
   * {@link Workspace.isSecret} for an entry of a directory walk whose directories are known not
   * to be secret (the walk skips secret ones): only the path itself is checked, not each parent.
   */
  isSecretEntry(path: string): boolean;
  /**
   * Runs `work` under the workspace's shared lock, after every earlier locked work on the same
   * real path has finished. Not re-entrant: never call a `with…Lock` method inside `work`.
   */
  withLock<T>(realPath: string, work: () => Promise<T>): Promise<T>;
  /** Like {@link Workspace.withLock} for several real paths at once (taken in a fixed order). */
  withLocks<T>(realPaths: readonly string[], work: () => Promise<T>): Promise<T>;
  /**
   * Runs `work` alone: after every shared work has finished and before any later one starts.
   * Moves and renames take it, so no other tool's checks and uses straddle a rename. Not
   * re-entrant.
   */
  withExclusiveLock<T>(work: () => Promise<T>): Promise<T>;
  /** How a workspace path is shown to the model (`.` for the root). */
  display(path: string): string;
  /**
   * Line counts of huge files one tool counted whole (file_stats), so another (read_file) can
   * use them; absent on a workspace not made by {@link createWorkspace}.
   *
   * @internal
   */
  readonly lineTotals?: LineTotals;
}

/**
 * Whether a workspace path lies in git's private directory: a `.git` segment at any depth, in any
 * letter case (`.git/hooks/pre-commit`, `sub/.GIT/config`, `.git` itself).
 *
 * @param path - a workspace path
 * @returns `true` when no file tool may write, move, copy into or delete it
 * @example
 * isGitPrivatePath("vendor/lib/.Git/commondir"); // true
 */
export function isGitPrivatePath(path: string): boolean {
  for (const segment of path.split("/")) if (segment.toLowerCase() === ".git") return true;
  return false;
}

/** The failure for a change under `.git`. */
export function gitPrivateError(path: string): FileSystemError {
  return new FileSystemError(
    "BLOCKED",
    `${path.length === 0 ? "." : path} is inside git's private directory (.git); git's private files are off limits to the file tools (no write, move, copy into or delete).`,
    "Use the git tools for repository changes, or ask the user.",
  );
}

/**
 * The seam as the tools see it: every change under a `.git` directory refused (`BLOCKED`),
 * checked on the path given and on its real path (a symlink to `.git` does not get around it).
 */
function refuseGitWrites(fileSystem: FileSystem): FileSystem {
  const check = async (path: string, followLast: boolean): Promise<void> => {
    if (isGitPrivatePath(path)) throw gitPrivateError(path);
    const index = path.lastIndexOf("/");
    const real = followLast
      ? await fileSystem.realPath(path)
      : `${index === -1 ? "" : `${await fileSystem.realPath(path.slice(0, index))}/`}${path.slice(index + 1)}`.replace(
          /^\//,
          "",
        );
    if (isGitPrivatePath(real)) throw gitPrivateError(path);
  };
  const guarded: FileSystem = Object.create(fileSystem);
  return Object.assign(guarded, {
    async writeFile(
      path: string,
      data: Uint8Array,
      options?: Parameters<FileSystem["writeFile"]>[2],
    ) {
      await check(path, true);
      return fileSystem.writeFile(path, data, options);
    },
    async createDirectory(path: string) {
      await check(path, true);
      return fileSystem.createDirectory(path);
    },
    async remove(path: string, options: { recursive: boolean }) {
      await check(path, false);
      return fileSystem.remove(path, options);
    },
    async rename(source: string, destination: string) {
      await check(source, false);
      await check(destination, false);
      return fileSystem.rename(source, destination);
    },
    async copy(source: string, destination: string) {
      await check(destination, false);
      return fileSystem.copy(source, destination);
    },
  });
}

/**
 * A read-write lock over promises: shared holders run together, an exclusive holder alone;
 * waiters are served in order (a waiting exclusive holder keeps later shared ones back).
 */
function createReadWriteLock() {
  let readers = 0;
  let writer = false;
  const queue: Array<{ exclusive: boolean; start: () => void }> = [];
  const pump = () => {
    while (queue.length > 0) {
      const next = queue[0] as { exclusive: boolean; start: () => void };
      if (next.exclusive) {
        if (readers > 0 || writer) return;
        queue.shift();
        writer = true;
        next.start();
        return;
      }
      if (writer) return;
      queue.shift();
      readers += 1;
      next.start();
    }
  };
  return async <T>(exclusive: boolean, work: () => Promise<T>): Promise<T> => {
    await new Promise<void>((start) => {
      queue.push({ exclusive, start });
      pump();
    });
    try {
      return await work();
    } finally {
      if (exclusive) writer = false;
      else readers -= 1;
      pump();
    }
  };
}

function invalid(message: string, hint?: string): FileSystemError {
  return new FileSystemError(
    "INVALID_PATH",
    message,
    hint ?? "Use a path relative to the workspace root, e.g. 'src/index.ts'.",
  );
}

/**
 * Turns a model's path into a workspace path without touching the file system (the contract's
 * `normalizeRelativePath`): refuses NUL bytes, line breaks, `~`, drive letters, absolute paths
 * outside `displayRoot` and `..` that climbs above the root; turns `\` into `/`.
 *
 * @param input - what the model sent
 * @param displayRoot - the root as shown to the model (absolute paths under it are accepted)
 * @param argument - the argument's name, for messages
 * @returns the normalised workspace path (`""` for the root)
 * @throws FileSystemError `INVALID_PATH`
 * @example
 * normalizeWorkspacePath("./src\\..\\docs/a.md", "/repo"); // "docs/a.md"
 */
export function normalizeWorkspacePath(
  input: string,
  displayRoot: string,
  argument = "path",
): string {
  const normalized = normalizeRelativePath(input, {
    roots: [displayRoot],
    argument,
    rootName: "workspace",
  });
  if (normalized.problem !== undefined) throw invalid(normalized.problem);
  return normalized.path;
}

/**
 * Creates the confinement layer every file tool goes through.
 *
 * @param options - the seam and the secret-path lists
 * @returns the workspace
 * @example
 * const workspace = createWorkspace({ fileSystem: createMemoryFileSystem({ "a.md": "# A" }) });
 * await workspace.resolve("../etc/passwd"); // throws FileSystemError INVALID_PATH
 */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  const fileSystem = refuseGitWrites(options.fileSystem);
  const secretPaths = Object.freeze([...(options.secretPaths ?? DEFAULT_SECRET_PATHS)]);
  const secretExceptions = Object.freeze([
    ...(options.secretExceptions ?? DEFAULT_SECRET_EXCEPTIONS),
  ]);
  const isSecret = createSecretPathMatcher({ secretPaths, secretExceptions });
  const locks = new Map<string, Promise<unknown>>();
  const readWrite = createReadWriteLock();
  const pathLock = <T>(realPath: string, work: () => Promise<T>): Promise<T> => {
    const previous = locks.get(realPath) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    locks.set(realPath, settled);
    void settled.then(() => {
      if (locks.get(realPath) === settled) locks.delete(realPath);
    });
    return next;
  };

  const display = (path: string): string => (path.length === 0 ? "." : path);

  return {
    fileSystem,
    lineTotals: new LineTotals(),
    secretPaths,
    secretExceptions,
    isSecret,
    isSecretEntry: isSecret.entry,
    display,
    async resolve(input, resolveOptions = {}) {
      const argument = resolveOptions.argument ?? "path";
      const path = normalizeWorkspacePath(input ?? "", fileSystem.displayRoot, argument);
      if (path.length === 0 && resolveOptions.allowRoot === false) {
        throw invalid(
          `${argument} must name something inside the workspace, not the root itself.`,
          "Name a file or directory inside the root.",
        );
      }
      const blocked = () =>
        new FileSystemError(
          "BLOCKED",
          `${display(path)} is a secret path (credentials, keys or environment files); no tool reads or writes it.`,
          "Work without it; ask the user to provide what you need from it.",
        );
      if (isSecret(path)) throw blocked();
      const real = await fileSystem.realPath(path);
      if (isSecret(real)) throw blocked();
      return { path, real, display: display(path) };
    },
    withLock(realPath, work) {
      return readWrite(false, () => pathLock(realPath, work));
    },
    withLocks(realPaths, work) {
      const sorted = [...new Set(realPaths)].sort();
      const chain = sorted.reduceRight<() => Promise<unknown>>(
        (inner, path) => () => pathLock(path, inner),
        work,
      );
      return readWrite(false, chain) as ReturnType<typeof work>;
    },
    withExclusiveLock(work) {
      return readWrite(true, work);
    },
  };
}
