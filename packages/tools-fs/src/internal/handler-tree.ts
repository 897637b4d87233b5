/**
 * The tree of the handler seam: files are what the host's `read` answers; directories are
 * implied by paths (a path with something inside is a directory), listed by the host's `list`
 * when given, or known to this seam because it created them or wrote files into them.
 *
 * @internal
 */

import {
  type DirectoryEntry,
  directoryNotFileError,
  type FileReader,
  type FileStat,
  FileSystemError,
  fileNotDirectoryError,
  parentNotDirectoryError,
} from "../file-system.js";
import type { ListedChild } from "./handler-content.js";
import { handlerMissing, shownOf } from "./handler-errors.js";
import {
  type HandlerCalls,
  HandlerStorage,
  type HandlerStorageSettings,
  join,
  parentOf,
  type Subtree,
} from "./handler-storage.js";

/** Sizing reads at once when a listing gives no sizes. */
const SIZING_CONCURRENCY = 8;

/** Refuses anything that is not a plain workspace path (the seam may be called directly). */
export function checkedPath(path: string): string {
  if (typeof path !== "string") {
    throw new FileSystemError("INVALID_PATH", "A path must be a string.");
  }
  if (path.length === 0) return path;
  for (const segment of path.split("/")) {
    if (segment.length === 0 || segment === "." || segment === ".." || segment.includes("\0")) {
      throw new FileSystemError(
        "INVALID_PATH",
        `${path} is not a relative path inside the root (no leading /, no . or .. segments, no NUL).`,
        "Give a path relative to the workspace root, e.g. src/app.ts.",
      );
    }
  }
  return path;
}

async function mapLimited<Item, Result>(
  items: readonly Item[],
  limit: number,
  work: (item: Item) => Promise<Result>,
): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as Item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The handler seam's methods over the host's storage. */
export class HandlerTree {
  readonly #storage: HandlerStorage;

  constructor(calls: HandlerCalls, settings: HandlerStorageSettings) {
    this.#storage = new HandlerStorage(calls, settings);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    checkedPath(path);
    const content = await this.#storage.content(path);
    if (content !== undefined) {
      return {
        type: "file",
        size: content.length,
        modifiedMs: this.#storage.modifiedOf(path) ?? 0,
      };
    }
    if (await this.#storage.isDirectory(path)) return { type: "directory", size: 0, modifiedMs: 0 };
    return undefined;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const content = await this.#storage.content(checkedPath(path));
    if (content === undefined) throw await this.#storage.missing(path);
    return content;
  }

  async openReader(path: string): Promise<FileReader> {
    const data = await this.readFile(path);
    return {
      size: data.length,
      async read(position, length) {
        return data.slice(position, Math.min(data.length, position + length));
      },
      async close() {},
    };
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    if (checkedPath(path).length === 0) throw directoryNotFileError(path);
    const [directory, file] = await Promise.all([
      this.#storage.isDirectory(path),
      this.#storage.fileAmongParents(path),
    ]);
    if (directory) throw directoryNotFileError(path);
    if (file !== undefined) throw parentNotDirectoryError(path, file);
    await this.#storage.store(path, data);
  }

  async createDirectory(path: string): Promise<void> {
    if (checkedPath(path).length === 0 || this.#storage.knowsDirectory(path)) return;
    const [content, file] = await Promise.all([
      this.#storage.content(path),
      this.#storage.fileAmongParents(path),
    ]);
    if (file !== undefined) throw parentNotDirectoryError(path, file);
    if (content !== undefined) {
      throw new FileSystemError(
        "FILE_ALREADY_EXISTS",
        `${path} already exists and is a file, not a directory.`,
        "Choose another path, or delete or move the file first.",
      );
    }
    this.#storage.remember(path, true);
  }

  /** The children of a directory, with the seam's failure for a missing path or a file. */
  async #children(path: string): Promise<Map<string, ListedChild>> {
    const children = await this.#storage.listed(checkedPath(path), `list ${shownOf(path)}`);
    if (children.size > 0 || path.length === 0 || this.#storage.knowsDirectory(path))
      return children;
    if ((await this.#storage.content(path)) !== undefined) throw fileNotDirectoryError(path);
    if (await this.#storage.isDirectory(path)) return children;
    throw await this.#storage.missingParent(path);
  }

  async readDirectoryNames(path: string): Promise<Array<Pick<DirectoryEntry, "name" | "type">>> {
    return [...(await this.#children(path))].map(([name, child]) => ({ name, type: child.type }));
  }

  async readDirectory(path: string): Promise<DirectoryEntry[]> {
    const children = [...(await this.#children(path))];
    return mapLimited(children, SIZING_CONCURRENCY, async ([name, child]) => {
      const childPath = join(path, name);
      if (child.type === "directory") return { name, type: "directory", size: 0, modifiedMs: 0 };
      const size = child.size ?? (await this.#storage.content(childPath))?.length ?? 0;
      const modifiedMs = child.modifiedMs ?? this.#storage.modifiedOf(childPath) ?? 0;
      return { name, type: "file", size, modifiedMs };
    });
  }

  async digest(path: string): Promise<string> {
    const data = await this.readFile(path);
    const hash = new Uint8Array(
      await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>),
    );
    let hex = "";
    for (const byte of hash) hex += byte.toString(16).padStart(2, "0");
    return hex;
  }

  async remove(path: string, options: { recursive: boolean }): Promise<void> {
    if (!this.#storage.canRemove) throw handlerMissing("remove", `delete ${shownOf(path)}`);
    if (checkedPath(path).length === 0) {
      throw new FileSystemError("INVALID_PATH", "The workspace root cannot be removed.");
    }
    const stat = await this.stat(path);
    if (stat === undefined) throw await this.#storage.missingParent(path);
    if (stat.type === "file") {
      await this.#storage.removeFile(path);
      return;
    }
    const inside = await this.#storage.subtree(path, `delete the directory ${path}`);
    const count = [...inside.files, ...inside.directories].filter(
      (inner) => parentOf(inner) === path,
    ).length;
    if (!options.recursive && count > 0) {
      throw new FileSystemError(
        "DIRECTORY_NOT_EMPTY",
        `${path} is a directory with ${count} ${count === 1 ? "entry" : "entries"} inside.`,
        "Pass recursive: true to delete it with everything inside.",
      );
    }
    for (const file of inside.files) await this.#storage.removeFile(file);
    this.#storage.forget(path);
  }

  /** Checks a move or copy: both paths plain, not the root, not into itself. */
  #checkTransfer(source: string, destination: string, verb: "move" | "copy"): void {
    checkedPath(source);
    checkedPath(destination);
    if (source.length === 0 || destination.length === 0) {
      throw new FileSystemError(
        "INVALID_PATH",
        `The workspace root cannot be ${verb === "move" ? "moved" : "copied"}.`,
      );
    }
    if (destination === source || destination.startsWith(`${source}/`)) {
      throw new FileSystemError("INVALID_PATH", `Cannot ${verb} ${source} into itself.`);
    }
  }

  /** Writes a file or a directory tree at `destination`; the source's files, in order. */
  async #transfer(source: string, destination: string, type: FileStat["type"], verb: string) {
    if (type !== "directory") {
      await this.#storage.store(
        destination,
        await this.readFile(source),
        this.#storage.modifiedOf(source),
      );
      return { files: [source], directories: [] } satisfies Subtree;
    }
    const inside = await this.#storage.subtree(source, `${verb} the directory ${source}`);
    const moved = (path: string) => destination + path.slice(source.length);
    this.#storage.remember(destination, true);
    for (const directory of inside.directories) this.#storage.remember(moved(directory), true);
    for (const file of inside.files) {
      await this.#storage.store(
        moved(file),
        await this.readFile(file),
        this.#storage.modifiedOf(file),
      );
    }
    return inside;
  }

  async rename(source: string, destination: string): Promise<void> {
    if (!this.#storage.canRemove) throw handlerMissing("remove", `move ${source}`);
    this.#checkTransfer(source, destination, "move");
    const [from, parent, existing] = await Promise.all([
      this.stat(source),
      this.stat(parentOf(destination)),
      this.stat(destination),
    ]);
    if (from === undefined) throw await this.#storage.missingParent(source);
    if (parent?.type !== "directory") throw await this.#storage.missingParent(destination);
    if (existing?.type === "directory") {
      if (from.type === "file") throw directoryNotFileError(destination);
      if ((await this.#children(destination)).size > 0) {
        throw new FileSystemError(
          "DIRECTORY_NOT_EMPTY",
          `${destination} is not empty.`,
          "Choose another destination, or delete it first.",
        );
      }
      this.#storage.forget(destination);
    } else if (existing !== undefined && from.type === "directory") {
      throw new FileSystemError(
        "INVALID_PATH",
        `${destination} is a file; a directory cannot replace it.`,
        "Choose another destination, or delete the file first.",
      );
    }
    // Every file is written at its new path before any old one is deleted: a failure midway
    // leaves copies behind, never a loss.
    const written = await this.#transfer(source, destination, from.type, "move");
    for (const file of written.files) await this.#storage.removeFile(file);
    this.#storage.forget(source);
  }

  async copy(source: string, destination: string): Promise<void> {
    this.#checkTransfer(source, destination, "copy");
    const from = await this.stat(source);
    if (from === undefined) throw await this.#storage.missingParent(source);
    const file = await this.#storage.fileAmongParents(destination);
    if (file !== undefined) throw parentNotDirectoryError(destination, file);
    if (from.type === "file" && (await this.#storage.isDirectory(destination))) {
      throw directoryNotFileError(destination);
    }
    await this.#transfer(source, destination, from.type, "copy");
  }
}
