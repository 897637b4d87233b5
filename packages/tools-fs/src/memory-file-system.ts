import {
  type DirectoryEntry,
  directoryNotFileError,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
  fileNotDirectoryError,
  parentNotDirectoryError,
  type WriteFileOptions,
} from "./file-system.js";

type MemoryNode =
  | { type: "file"; data: Uint8Array; modifiedMs: number; mode: number; version: number }
  | { type: "directory"; modifiedMs: number; mode: number }
  | { type: "symlink"; target: string; modifiedMs: number };

/** Options of {@link createMemoryFileSystem}. */
export interface MemoryFileSystemOptions {
  /**
   * Symlinks to create: workspace path → target. A relative target is resolved against the
   * link's directory; an absolute target (starting with `/`) points outside the workspace unless
   * it lies under `displayRoot`.
   */
  symlinks?: Record<string, string>;
  /** How the root is shown and recognised in absolute paths. Default `"/workspace"`. */
  displayRoot?: string;
  /** The clock, for deterministic tests. Default `Date.now`. */
  now?: () => number;
}

const MAX_SYMLINK_HOPS = 40;

function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index === -1 ? "" : path.slice(0, index);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

function notFound(path: string): FileSystemError {
  return new FileSystemError(
    "FILE_NOT_FOUND",
    `${path.length === 0 ? "." : path} does not exist.`,
    "Check the path with list_directory or glob_search.",
  );
}

function toHex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * An in-memory {@link FileSystem}: for tests, browser hosts and previews. Supports files,
 * directories and symlinks (with the same confinement rules as the Node seam).
 *
 * @param files - initial files: workspace path → text or bytes (parents are created)
 * @param options - symlinks, the display root and a clock
 * @returns the seam
 * @example
 * const fileSystem = createMemoryFileSystem({ "README.md": "# Demo\n", "src/app.ts": "export {};\n" });
 * const workspace = createWorkspace({ fileSystem });
 */
export function createMemoryFileSystem(
  files: Record<string, string | Uint8Array> = {},
  options: MemoryFileSystemOptions = {},
): FileSystem {
  const displayRoot = options.displayRoot ?? "/workspace";
  const tree = new MemoryTree(files, options, displayRoot);
  // A plain object (not the class instance), so a host may spread it to wrap some methods.
  return {
    kind: "memory",
    displayRoot,
    realPath: (path) => tree.realPath(path),
    stat: (path) => tree.stat(path),
    readFile: (path) => tree.readFile(path),
    openReader: (path) => tree.openReader(path),
    writeFile: (path, data, writeOptions) => tree.writeFile(path, data, writeOptions),
    createDirectory: (path) => tree.createDirectory(path),
    readDirectory: (path) => tree.readDirectory(path),
    remove: (path, removeOptions) => tree.remove(path, removeOptions),
    rename: (source, destination) => tree.rename(source, destination),
    copy: (source, destination) => tree.copy(source, destination),
    digest: (path) => tree.digest(path),
  };
}

/** The nodes of a memory seam by workspace path, with the seam's methods over them. */
class MemoryTree {
  readonly #now: () => number;
  readonly #displayRoot: string;
  readonly #nodes: Map<string, MemoryNode>;
  #version = 0;

  constructor(
    files: Record<string, string | Uint8Array>,
    options: MemoryFileSystemOptions,
    displayRoot: string,
  ) {
    this.#now = options.now ?? Date.now;
    this.#displayRoot = displayRoot;
    this.#nodes = new Map<string, MemoryNode>([
      ["", { type: "directory", modifiedMs: this.#now(), mode: 0o755 }],
    ]);
    for (const [path, content] of Object.entries(files)) {
      this.ensureDirectory(parentOf(path));
      this.#version += 1;
      this.#nodes.set(path, {
        type: "file",
        data: typeof content === "string" ? new TextEncoder().encode(content) : content,
        modifiedMs: this.#now(),
        mode: 0o644,
        version: this.#version,
      });
    }
    for (const [path, target] of Object.entries(options.symlinks ?? {})) {
      this.ensureDirectory(parentOf(path));
      this.#nodes.set(path, { type: "symlink", target, modifiedMs: this.#now() });
    }
  }

  /**
   * Creates `path` and its parents. A file at `path` itself is `FILE_ALREADY_EXISTS` (unless
   * `inside` says a file is to go inside it); a file among the parents is `INVALID_PATH`.
   */
  ensureDirectory(path: string, inside?: string): void {
    if (path.length === 0) return;
    const existing = this.#nodes.get(path);
    if (existing?.type === "directory") return;
    if (existing !== undefined) {
      if (inside !== undefined) throw parentNotDirectoryError(inside, path);
      throw new FileSystemError(
        "FILE_ALREADY_EXISTS",
        `${path} already exists and is a file, not a directory.`,
        "Choose another path, or delete or move the file first.",
      );
    }
    this.ensureDirectory(parentOf(path), inside ?? path);
    this.#nodes.set(path, { type: "directory", modifiedMs: this.#now(), mode: 0o755 });
  }

  /** The failure for a missing path: `INVALID_PATH` when a parent is a file, else not found. */
  missing(resolved: string, path: string): FileSystemError {
    for (let parent = parentOf(resolved); parent.length > 0; parent = parentOf(parent)) {
      const node = this.#nodes.get(parent);
      if (node !== undefined) {
        return node.type === "directory" ? notFound(path) : parentNotDirectoryError(path, parent);
      }
    }
    return notFound(path);
  }

  resolveTarget(linkPath: string, target: string): string {
    if (target.startsWith("/")) {
      const root = this.#displayRoot.replace(/\/+$/, "");
      if (target === root) return "";
      if (target.startsWith(`${root}/`)) return target.slice(root.length + 1);
      throw new FileSystemError(
        "INVALID_PATH",
        `${linkPath} is a symlink that points outside the workspace.`,
        "Use paths whose real location is inside the workspace root.",
      );
    }
    const segments = parentOf(linkPath)
      .split("/")
      .filter((segment) => segment.length > 0);
    for (const segment of target.split("/")) {
      if (segment === "" || segment === ".") continue;
      if (segment === "..") {
        if (segments.length === 0) {
          throw new FileSystemError(
            "INVALID_PATH",
            `${linkPath} is a symlink that points outside the workspace.`,
            "Use paths whose real location is inside the workspace root.",
          );
        }
        segments.pop();
      } else segments.push(segment);
    }
    return segments.join("/");
  }

  /** Follows symlinks in every segment; with `followLast: false` the last segment is kept. */
  real(path: string, followLast = true): string {
    let resolved = "";
    const pending = path.split("/").filter((segment) => segment.length > 0);
    let hops = 0;
    while (pending.length > 0) {
      const segment = pending.shift() as string;
      const candidate = join(resolved, segment);
      const node = this.#nodes.get(candidate);
      if (node?.type === "symlink" && (followLast || pending.length > 0)) {
        hops += 1;
        if (hops > MAX_SYMLINK_HOPS) {
          throw new FileSystemError("INVALID_PATH", `${path} has too many levels of symlinks.`);
        }
        const target = this.resolveTarget(candidate, node.target);
        pending.unshift(...target.split("/").filter((part) => part.length > 0));
        resolved = "";
        continue;
      }
      resolved = candidate;
    }
    return resolved;
  }

  fileAt(path: string): Extract<MemoryNode, { type: "file" }> {
    const resolved = this.real(path);
    const node = this.#nodes.get(resolved);
    if (node === undefined) throw this.missing(resolved, path);
    if (node.type !== "file") throw directoryNotFileError(path);
    return node;
  }

  descendants(path: string): string[] {
    const prefix = path.length === 0 ? "" : `${path}/`;
    return [...this.#nodes.keys()].filter((key) => key !== path && key.startsWith(prefix));
  }

  async realPath(path: string): Promise<string> {
    return this.real(path);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const node = this.#nodes.get(this.real(path));
    if (node === undefined || node.type === "symlink") return undefined;
    return node.type === "file"
      ? {
          type: "file",
          size: node.data.length,
          modifiedMs: node.modifiedMs,
          mode: node.mode,
          identity: String(node.version),
        }
      : { type: "directory", size: 0, modifiedMs: node.modifiedMs, mode: node.mode };
  }

  async readFile(path: string): Promise<Uint8Array> {
    return this.fileAt(path).data.slice();
  }

  async openReader(path: string): Promise<FileReader> {
    const data = this.fileAt(path).data;
    return {
      size: data.length,
      async read(position, length) {
        return data.slice(position, Math.min(data.length, position + length));
      },
      async close() {},
    };
  }

  async writeFile(
    path: string,
    data: Uint8Array,
    writeOptions: WriteFileOptions = {},
  ): Promise<void> {
    const resolved = this.real(path);
    const existing = this.#nodes.get(resolved);
    if (existing?.type === "directory") throw directoryNotFileError(path);
    this.ensureDirectory(parentOf(resolved), path);
    this.#version += 1;
    this.#nodes.set(resolved, {
      type: "file",
      data: data.slice(),
      modifiedMs: this.#now(),
      mode: existing?.type === "file" ? existing.mode : (writeOptions.mode ?? 0o644),
      version: this.#version,
    });
  }

  async createDirectory(path: string): Promise<void> {
    this.ensureDirectory(this.real(path));
  }

  async readDirectory(path: string): Promise<DirectoryEntry[]> {
    const resolved = this.real(path);
    const node = this.#nodes.get(resolved);
    if (node === undefined) throw this.missing(resolved, path);
    if (node.type !== "directory") throw fileNotDirectoryError(path);
    const entries: DirectoryEntry[] = [];
    for (const [key, child] of this.#nodes) {
      if (key.length === 0 || parentOf(key) !== resolved) continue;
      entries.push({
        name: nameOf(key),
        type: child.type,
        size: child.type === "file" ? child.data.length : 0,
        modifiedMs: child.modifiedMs,
      });
    }
    return entries;
  }

  async remove(path: string, removeOptions: { recursive: boolean }): Promise<void> {
    const resolved = join(this.real(parentOf(path)), nameOf(path));
    const node = this.#nodes.get(resolved);
    if (node === undefined || resolved.length === 0) throw this.missing(resolved, path);
    const inside = this.descendants(resolved);
    if (node.type === "directory" && inside.length > 0 && !removeOptions.recursive) {
      throw new FileSystemError(
        "DIRECTORY_NOT_EMPTY",
        `${path} is a directory with ${inside.length} entries inside.`,
        "Pass recursive: true to delete it with everything inside.",
      );
    }
    for (const key of inside) this.#nodes.delete(key);
    this.#nodes.delete(resolved);
  }

  async rename(source: string, destination: string): Promise<void> {
    const from = join(this.real(parentOf(source)), nameOf(source));
    const to = join(this.real(parentOf(destination)), nameOf(destination));
    const node = this.#nodes.get(from);
    if (node === undefined) throw this.missing(from, source);
    if (this.#nodes.get(parentOf(to))?.type !== "directory") throw this.missing(to, destination);
    if (to === from || to.startsWith(`${from}/`)) {
      throw new FileSystemError("INVALID_PATH", `Cannot move ${source} into itself.`);
    }
    const moved = this.descendants(from).map(
      (key) => [key, this.#nodes.get(key) as MemoryNode] as const,
    );
    for (const [key] of moved) this.#nodes.delete(key);
    for (const key of this.descendants(to)) this.#nodes.delete(key);
    this.#nodes.delete(from);
    this.#nodes.set(to, node);
    for (const [key, child] of moved) this.#nodes.set(to + key.slice(from.length), child);
  }

  async copy(source: string, destination: string): Promise<void> {
    const from = this.real(source);
    const to = join(this.real(parentOf(destination)), nameOf(destination));
    const node = this.#nodes.get(from);
    if (node === undefined) throw this.missing(from, source);
    if (to === from || to.startsWith(`${from}/`)) {
      throw new FileSystemError("INVALID_PATH", `Cannot copy ${source} into itself.`);
    }
    this.ensureDirectory(parentOf(to), destination);
    const copies = [
      [from, node] as const,
      ...this.descendants(from).map((key) => [key, this.#nodes.get(key) as MemoryNode] as const),
    ];
    for (const [key, child] of copies) {
      this.#version += 1;
      const target = to + key.slice(from.length);
      this.#nodes.set(
        target,
        child.type === "file"
          ? { ...child, data: child.data.slice(), modifiedMs: this.#now(), version: this.#version }
          : { ...child },
      );
    }
  }

  async digest(path: string): Promise<string> {
    const data = this.fileAt(path).data;
    return toHex(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
  }
}
