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
  const now = options.now ?? Date.now;
  const displayRoot = options.displayRoot ?? "/workspace";
  const nodes = new Map<string, MemoryNode>([
    ["", { type: "directory", modifiedMs: now(), mode: 0o755 }],
  ]);
  let version = 0;

  /**
   * Creates `path` and its parents. A file at `path` itself is `FILE_ALREADY_EXISTS` (unless
   * `inside` says a file is to go inside it); a file among the parents is `INVALID_PATH`.
   */
  function ensureDirectory(path: string, inside?: string): void {
    if (path.length === 0) return;
    const existing = nodes.get(path);
    if (existing?.type === "directory") return;
    if (existing !== undefined) {
      if (inside !== undefined) throw parentNotDirectoryError(inside, path);
      throw new FileSystemError(
        "FILE_ALREADY_EXISTS",
        `${path} already exists and is a file, not a directory.`,
        "Choose another path, or delete or move the file first.",
      );
    }
    ensureDirectory(parentOf(path), inside ?? path);
    nodes.set(path, { type: "directory", modifiedMs: now(), mode: 0o755 });
  }

  /** The failure for a missing path: `INVALID_PATH` when a parent is a file, else not found. */
  function missing(resolved: string, path: string): FileSystemError {
    for (let parent = parentOf(resolved); parent.length > 0; parent = parentOf(parent)) {
      const node = nodes.get(parent);
      if (node !== undefined) {
        return node.type === "directory" ? notFound(path) : parentNotDirectoryError(path, parent);
      }
    }
    return notFound(path);
  }

  function resolveTarget(linkPath: string, target: string): string {
    if (target.startsWith("/")) {
      const root = displayRoot.replace(/\/+$/, "");
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
  function real(path: string, followLast = true): string {
    let resolved = "";
    const pending = path.split("/").filter((segment) => segment.length > 0);
    let hops = 0;
    while (pending.length > 0) {
      const segment = pending.shift() as string;
      const candidate = join(resolved, segment);
      const node = nodes.get(candidate);
      if (node?.type === "symlink" && (followLast || pending.length > 0)) {
        hops += 1;
        if (hops > MAX_SYMLINK_HOPS) {
          throw new FileSystemError("INVALID_PATH", `${path} has too many levels of symlinks.`);
        }
        const target = resolveTarget(candidate, node.target);
        pending.unshift(...target.split("/").filter((part) => part.length > 0));
        resolved = "";
        continue;
      }
      resolved = candidate;
    }
    return resolved;
  }

  function fileAt(path: string): Extract<MemoryNode, { type: "file" }> {
    const resolved = real(path);
    const node = nodes.get(resolved);
    if (node === undefined) throw missing(resolved, path);
    if (node.type !== "file") throw directoryNotFileError(path);
    return node;
  }

  function descendants(path: string): string[] {
    const prefix = path.length === 0 ? "" : `${path}/`;
    return [...nodes.keys()].filter((key) => key !== path && key.startsWith(prefix));
  }

  for (const [path, content] of Object.entries(files)) {
    ensureDirectory(parentOf(path));
    version += 1;
    nodes.set(path, {
      type: "file",
      data: typeof content === "string" ? new TextEncoder().encode(content) : content,
      modifiedMs: now(),
      mode: 0o644,
      version,
    });
  }
  for (const [path, target] of Object.entries(options.symlinks ?? {})) {
    ensureDirectory(parentOf(path));
    nodes.set(path, { type: "symlink", target, modifiedMs: now() });
  }

  return {
    kind: "memory",
    displayRoot,
    async realPath(path) {
      return real(path);
    },
    async stat(path): Promise<FileStat | undefined> {
      const node = nodes.get(real(path));
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
    },
    async readFile(path) {
      return fileAt(path).data.slice();
    },
    async openReader(path): Promise<FileReader> {
      const data = fileAt(path).data;
      return {
        size: data.length,
        async read(position, length) {
          return data.slice(position, Math.min(data.length, position + length));
        },
        async close() {},
      };
    },
    async writeFile(path, data, writeOptions: WriteFileOptions = {}) {
      const resolved = real(path);
      const existing = nodes.get(resolved);
      if (existing?.type === "directory") throw directoryNotFileError(path);
      ensureDirectory(parentOf(resolved), path);
      version += 1;
      nodes.set(resolved, {
        type: "file",
        data: data.slice(),
        modifiedMs: now(),
        mode: existing?.type === "file" ? existing.mode : (writeOptions.mode ?? 0o644),
        version,
      });
    },
    async createDirectory(path) {
      ensureDirectory(real(path));
    },
    async readDirectory(path): Promise<DirectoryEntry[]> {
      const resolved = real(path);
      const node = nodes.get(resolved);
      if (node === undefined) throw missing(resolved, path);
      if (node.type !== "directory") throw fileNotDirectoryError(path);
      const entries: DirectoryEntry[] = [];
      for (const [key, child] of nodes) {
        if (key.length === 0 || parentOf(key) !== resolved) continue;
        entries.push({
          name: nameOf(key),
          type: child.type,
          size: child.type === "file" ? child.data.length : 0,
          modifiedMs: child.modifiedMs,
        });
      }
      return entries;
    },
    async remove(path, removeOptions) {
      const resolved = join(real(parentOf(path)), nameOf(path));
      const node = nodes.get(resolved);
      if (node === undefined || resolved.length === 0) throw missing(resolved, path);
      const inside = descendants(resolved);
      if (node.type === "directory" && inside.length > 0 && !removeOptions.recursive) {
        throw new FileSystemError(
          "DIRECTORY_NOT_EMPTY",
          `${path} is a directory with ${inside.length} entries inside.`,
          "Pass recursive: true to delete it with everything inside.",
        );
      }
      for (const key of inside) nodes.delete(key);
      nodes.delete(resolved);
    },
    async rename(source, destination) {
      const from = join(real(parentOf(source)), nameOf(source));
      const to = join(real(parentOf(destination)), nameOf(destination));
      const node = nodes.get(from);
      if (node === undefined) throw missing(from, source);
      if (nodes.get(parentOf(to))?.type !== "directory") throw missing(to, destination);
      if (to === from || to.startsWith(`${from}/`)) {
        throw new FileSystemError("INVALID_PATH", `Cannot move ${source} into itself.`);
      }
      const moved = descendants(from).map((key) => [key, nodes.get(key) as MemoryNode] as const);
      for (const [key] of moved) nodes.delete(key);
      for (const key of descendants(to)) nodes.delete(key);
      nodes.delete(from);
      nodes.set(to, node);
      for (const [key, child] of moved) nodes.set(to + key.slice(from.length), child);
    },
    async copy(source, destination) {
      const from = real(source);
      const to = join(real(parentOf(destination)), nameOf(destination));
      const node = nodes.get(from);
      if (node === undefined) throw missing(from, source);
      if (to === from || to.startsWith(`${from}/`)) {
        throw new FileSystemError("INVALID_PATH", `Cannot copy ${source} into itself.`);
      }
      ensureDirectory(parentOf(to), destination);
      const copies = [
        [from, node] as const,
        ...descendants(from).map((key) => [key, nodes.get(key) as MemoryNode] as const),
      ];
      for (const [key, child] of copies) {
        version += 1;
        const target = to + key.slice(from.length);
        nodes.set(
          target,
          child.type === "file"
            ? { ...child, data: child.data.slice(), modifiedMs: now(), version }
            : { ...child },
        );
      }
    },
    async digest(path) {
      const data = fileAt(path).data;
      return toHex(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
    },
  };
}
