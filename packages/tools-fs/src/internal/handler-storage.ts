/**
 * What the handler seam keeps between calls and how it asks the host: every call of the host's
 * `read` / `write` / `list` / `remove` under the seam's time limit, its answer checked and its
 * errors mapped, and the files and directories this seam wrote or created itself. The seam's
 * methods ({@link HandlerTree}) work over it.
 *
 * @internal
 */

import {
  directoryNotFileError,
  type FileSystemError,
  parentNotDirectoryError,
} from "../file-system.js";
import {
  bytesFromAnswer,
  childrenFromListing,
  contentForWrite,
  type HandlerContentForm,
  type ListedChild,
} from "./handler-content.js";
import {
  type HandlerOperation,
  handlerFailure,
  handlerMissing,
  handlerTimeout,
  isDirectoryError,
  isNotDirectoryError,
  notFound,
  shownOf,
} from "./handler-errors.js";

/** The host's functions as the seam calls them (`this` already bound to the host's object). */
export interface HandlerCalls {
  read(path: string, signal: AbortSignal): unknown;
  write(path: string, content: string | Uint8Array, signal: AbortSignal): unknown;
  list: ((directory: string, signal: AbortSignal) => unknown) | undefined;
  remove: ((path: string, signal: AbortSignal) => unknown) | undefined;
}

/** The seam's settings. */
export interface HandlerStorageSettings {
  /** Milliseconds one handler call may take; 0 for no limit. */
  timeoutMs: number;
  /** How written bytes reach `write`. */
  writeAs: HandlerContentForm;
  /** The clock for modification times. */
  now: () => number;
}

/** Files and directories under a directory, found by walking the host's listing. */
export interface Subtree {
  files: string[];
  directories: string[];
}

/** The parent of a workspace path (`""` for a top-level entry). */
export function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index === -1 ? "" : path.slice(0, index);
}

/** The last segment of a workspace path. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** A child's workspace path. */
export function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

/** The host's storage as the seam sees it, with what the seam knows itself. */
export class HandlerStorage {
  readonly #calls: HandlerCalls;
  readonly #settings: HandlerStorageSettings;
  /** Modification times of the files this seam wrote, by workspace path. */
  readonly #modified = new Map<string, number>();
  /** Directories this seam created or wrote files into (the root excepted). */
  readonly #directories = new Set<string>();

  constructor(calls: HandlerCalls, settings: HandlerStorageSettings) {
    this.#calls = calls;
    this.#settings = settings;
  }

  /** Whether the host gave `remove`. */
  get canRemove(): boolean {
    return this.#calls.remove !== undefined;
  }

  /** The modification time of this seam's last write of `path`, if it wrote it. */
  modifiedOf(path: string): number | undefined {
    return this.#modified.get(path);
  }

  /** Whether this seam created `path` as a directory or wrote a file inside it. */
  knowsDirectory(path: string): boolean {
    return this.#directories.has(path);
  }

  /**
   * Calls a handler under the seam's time limit (its signal aborts at the limit) and converts
   * its answer inside the limit; anything thrown becomes the seam's failure, or `undefined` when
   * `rescue` accepts that failure (a missing file answered by throwing).
   */
  async #call<Result>(
    operation: HandlerOperation,
    path: string,
    invoke: (signal: AbortSignal) => unknown,
    convert: (answer: unknown) => Result | Promise<Result>,
    rescue?: (failure: FileSystemError, thrown: unknown) => boolean,
  ): Promise<Result | undefined> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await new Promise<Result>((resolve, reject) => {
        const limit = this.#settings.timeoutMs;
        if (limit > 0) {
          timer = setTimeout(() => {
            const error = handlerTimeout(operation, path, limit);
            controller.abort(error);
            reject(error);
          }, limit);
        }
        new Promise<unknown>((answer) => answer(invoke(controller.signal)))
          .then(convert)
          .then(resolve, reject);
      });
    } catch (error) {
      const failure = handlerFailure(error, operation, path);
      if (rescue?.(failure, error) === true) return undefined;
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The file's bytes, or `undefined` when the host has no file there. */
  content(path: string): Promise<Uint8Array | undefined> {
    if (path.length === 0) return Promise.resolve(undefined);
    return this.#call(
      "read",
      path,
      (signal) => this.#calls.read(path, signal),
      (answer) => bytesFromAnswer(answer, path),
      (failure, thrown) => failure.code === "FILE_NOT_FOUND" || isDirectoryError(thrown),
    );
  }

  /** The direct children the host lists, merged with the directories this seam knows. */
  async listed(directory: string, what: string): Promise<Map<string, ListedChild>> {
    const list = this.#calls.list;
    if (list === undefined) throw handlerMissing("list", what);
    // A host that throws for a missing folder (ENOENT) or a file (ENOTDIR) lists nothing there;
    // the callers tell those apart.
    const children =
      (await this.#call(
        "list",
        directory,
        (signal) => list(directory, signal),
        (answer) => childrenFromListing(answer, directory),
        (failure, thrown) => failure.code === "FILE_NOT_FOUND" || isNotDirectoryError(thrown),
      )) ?? new Map<string, ListedChild>();
    const prefix = directory.length === 0 ? "" : `${directory}/`;
    for (const known of this.#directories) {
      if (!known.startsWith(prefix)) continue;
      const name = known.slice(prefix.length).split("/")[0] as string;
      children.set(name, { type: "directory" });
    }
    return children;
  }

  /** Whether `path` is a directory: the root, one this seam knows, or one the host lists. */
  async isDirectory(path: string): Promise<boolean> {
    if (path.length === 0 || this.#directories.has(path)) return true;
    if (this.#calls.list === undefined) return false;
    const siblings = await this.listed(parentOf(path), `list ${shownOf(parentOf(path))}`);
    return siblings.get(nameOf(path))?.type === "directory";
  }

  /** The shallowest file among the parents of `path` (a path under a file cannot exist). */
  async fileAmongParents(path: string): Promise<string | undefined> {
    const parents: string[] = [];
    for (let parent = parentOf(path); parent.length > 0; parent = parentOf(parent)) {
      if (this.#directories.has(parent)) break;
      parents.unshift(parent);
    }
    const contents = await Promise.all(parents.map((parent) => this.content(parent)));
    return parents.find((_parent, index) => contents[index] !== undefined);
  }

  /** Why there is no file at `path`: a directory, a file among its parents, or nothing. */
  async missing(path: string): Promise<FileSystemError> {
    if (await this.isDirectory(path)) return directoryNotFileError(path);
    return this.missingParent(path);
  }

  /** Why `path` cannot be reached: a file among its parents, or nothing there. */
  async missingParent(path: string): Promise<FileSystemError> {
    const file = await this.fileAmongParents(path);
    return file === undefined ? notFound(path) : parentNotDirectoryError(path, file);
  }

  /** Records `path` (a directory) or the parents of `path` (a file) as directories this seam made. */
  remember(path: string, directory: boolean): void {
    for (let parent = directory ? path : parentOf(path); parent.length > 0; ) {
      this.#directories.add(parent);
      parent = parentOf(parent);
    }
  }

  /** Drops what this seam knows about `path` and everything under it (deleted or moved away). */
  forget(path: string): void {
    this.#modified.delete(path);
    this.#directories.delete(path);
    const prefix = `${path}/`;
    for (const known of [...this.#modified.keys()]) {
      if (known.startsWith(prefix)) this.#modified.delete(known);
    }
    for (const known of [...this.#directories]) {
      if (known.startsWith(prefix)) this.#directories.delete(known);
    }
  }

  /** One handler write of the whole content, then the bookkeeping. */
  async store(path: string, data: Uint8Array, modifiedMs = this.#settings.now()): Promise<void> {
    const content = contentForWrite(data, this.#settings.writeAs);
    await this.#call(
      "write",
      path,
      (signal) => this.#calls.write(path, content, signal),
      () => {},
    );
    this.#modified.set(path, modifiedMs);
    this.remember(path, false);
  }

  /** One handler remove of one file (the caller checked that the host gave `remove`). */
  async removeFile(path: string): Promise<void> {
    const remove = this.#calls.remove as NonNullable<HandlerCalls["remove"]>;
    await this.#call(
      "remove",
      path,
      (signal) => remove(path, signal),
      () => {},
    );
    this.#modified.delete(path);
  }

  /** Every file and directory under `directory`, from the host's listing. */
  async subtree(directory: string, what: string): Promise<Subtree> {
    const subtree: Subtree = { files: [], directories: [] };
    const pending = [directory];
    while (pending.length > 0) {
      const current = pending.pop() as string;
      for (const [name, child] of await this.listed(current, what)) {
        const path = join(current, name);
        if (child.type === "directory") {
          subtree.directories.push(path);
          pending.push(path);
        } else subtree.files.push(path);
      }
    }
    return subtree;
  }
}
