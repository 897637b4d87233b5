import {
  createSecretPathMatcher,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  normalizeRelativePath,
} from "@agentool/contract";
import { type FileSystem, FileSystemError } from "./file-system.js";

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
  /** Runs `work` after every earlier locked work on the same real path has finished. */
  withLock<T>(realPath: string, work: () => Promise<T>): Promise<T>;
  /** How a workspace path is shown to the model (`.` for the root). */
  display(path: string): string;
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
  const fileSystem = options.fileSystem;
  const secretPaths = Object.freeze([...(options.secretPaths ?? DEFAULT_SECRET_PATHS)]);
  const secretExceptions = Object.freeze([
    ...(options.secretExceptions ?? DEFAULT_SECRET_EXCEPTIONS),
  ]);
  const isSecret = createSecretPathMatcher({ secretPaths, secretExceptions });
  const locks = new Map<string, Promise<unknown>>();

  const display = (path: string): string => (path.length === 0 ? "." : path);

  return {
    fileSystem,
    secretPaths,
    secretExceptions,
    isSecret,
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
    },
  };
}
