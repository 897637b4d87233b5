import { AgentoolError, closestNames, parseOptions } from "@agentool/contract";
import { z } from "zod";
import type { FileSystem } from "./file-system.js";
import type { HandlerCalls } from "./internal/handler-storage.js";
import { checkedPath, HandlerTree } from "./internal/handler-tree.js";

/** What a host's `read` answers: the content, or `undefined` / `null` when nothing is there. */
export type HandlerReadResult = string | Uint8Array | ArrayBuffer | Blob | undefined | null;

/** One entry of what a host's `list` answers, when it knows more than the name. */
export interface HandlerListEntry {
  /**
   * The name relative to the listed directory (`"notes.md"`). A name with a `/` inside
   * (`"site/index.html"`) or at its end (`"site/"`) makes its first segment a directory, so a
   * flat key-value store may answer every key under the directory as it is.
   */
  name: string;
  /** `"file"` (default) or `"directory"`. */
  type?: "file" | "directory";
  /** Size in bytes; without it, listing a folder reads each file to size it. */
  size?: number;
  /** Last modification, milliseconds since the epoch. */
  modifiedMs?: number;
}

/**
 * A host's own storage, as two to four functions over workspace paths (relative, `/`-separated,
 * no `.` or `..`, e.g. `"site/index.html"`). Each may return a promise or a value, and receives
 * a signal that aborts when the seam stops waiting for it.
 */
export interface FileSystemHandler {
  /** The file's content (text is read as UTF-8), or `undefined` / `null` when there is none. */
  read(path: string, signal?: AbortSignal): HandlerReadResult | Promise<HandlerReadResult>;
  /**
   * Stores the whole content at `path` in one call (the tools never write part of a file):
   * a string when the bytes are valid UTF-8 (unless `writeAs: "bytes"`), else a `Uint8Array`.
   */
  write(path: string, content: string | Uint8Array, signal?: AbortSignal): unknown;
  /**
   * Optional: the entries directly inside `directory` (`""` is the root). Without it,
   * `list_directory`, `glob_search`, `grep_search` over folders, and deleting or moving a
   * directory answer `UNSUPPORTED`.
   */
  list?(
    directory: string,
    signal?: AbortSignal,
  ): ReadonlyArray<string | HandlerListEntry> | Promise<ReadonlyArray<string | HandlerListEntry>>;
  /** Optional: deletes the file at `path`. Without it, `delete_file` and `move_file` answer `UNSUPPORTED`. */
  remove?(path: string, signal?: AbortSignal): unknown;
}

/** Options of {@link createHandlerFileSystem}. */
export interface HandlerFileSystemOptions {
  /** How the root is shown to the model and recognised in absolute paths. Default `"/"`. */
  displayRoot?: string;
  /**
   * Milliseconds one handler call may take before the seam answers `TIMEOUT` (and aborts the
   * call's signal); `0` turns the limit off. Default {@link DEFAULT_HANDLER_TIMEOUT_MS}.
   */
  timeoutMs?: number;
  /**
   * How written content reaches `write`: `"text"` (default) hands valid UTF-8 over as a string
   * and anything else (binary, UTF-16) as a `Uint8Array`; `"bytes"` always hands a `Uint8Array`.
   */
  writeAs?: "text" | "bytes";
  /** The clock for modification times, for deterministic tests. Default `Date.now`. */
  now?: () => number;
}

/** How long one call of a host's handler may take by default: 30 s. */
export const DEFAULT_HANDLER_TIMEOUT_MS = 30_000;

const OWNER = "createHandlerFileSystem";

const SIGNATURES = {
  read: "(path, signal) => content | undefined",
  write: "(path, content, signal) => void",
  list: "(directory, signal) => names",
  remove: "(path, signal) => void",
} as const;

type HandlerKey = keyof typeof SIGNATURES;
const HANDLER_KEYS = Object.keys(SIGNATURES) as HandlerKey[];

const optionsSchema = z.object({
  displayRoot: z.string().min(1).optional(),
  timeoutMs: z.number().int().min(0).max(86_400_000).optional(),
  writeAs: z.enum(["text", "bytes"]).optional(),
  now: z
    .custom<() => number>((value) => typeof value === "function", {
      message: "now must be a function () => milliseconds",
    })
    .optional(),
});

function kindOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "an array" : typeof value;
}

/** Every problem of a handler, as one line each; empty when it is fine. */
function handlerProblems(handler: object): string[] {
  const problems: string[] = [];
  for (const key of HANDLER_KEYS) {
    const value = (handler as Record<string, unknown>)[key];
    const required = key === "read" || key === "write";
    if (typeof value === "function" || (!required && value === undefined)) continue;
    problems.push(
      `${key} must be a function ${SIGNATURES[key]}${required ? "" : " or left out"} (got ${value === undefined ? "nothing" : kindOf(value)})`,
    );
  }
  // Unknown keys are reported on plain objects only: a class instance may hold its own state.
  const prototype = Object.getPrototypeOf(handler);
  if (prototype === Object.prototype || prototype === null) {
    for (const key of Object.keys(handler)) {
      if ((HANDLER_KEYS as string[]).includes(key)) continue;
      const [closest] = closestNames(key, HANDLER_KEYS);
      problems.push(
        `unknown key "${key}"${closest === undefined ? "" : ` — did you mean "${closest}"?`}`,
      );
    }
  }
  return problems;
}

/** The handler's functions bound to it, checked once at creation. */
function checkedCalls(handler: unknown): HandlerCalls {
  if (typeof handler !== "object" || handler === null) {
    throw new AgentoolError(
      `${OWNER}: pass the host's storage as an object { read, write, list?, remove? } (got ${kindOf(handler)}) — read(path) answers a file's content or undefined, write(path, content) stores it.`,
    );
  }
  const problems = handlerProblems(handler);
  if (problems.length > 0) {
    throw new AgentoolError(
      `${OWNER}: invalid handler — ${problems.join("; ")}. The handler is { read, write, list?, remove? }.`,
    );
  }
  const functions = handler as Record<HandlerKey, ((...values: unknown[]) => unknown) | undefined>;
  const bind = (key: HandlerKey) => {
    const method = functions[key];
    return method === undefined
      ? undefined
      : (...values: unknown[]) => Reflect.apply(method, handler, values);
  };
  return {
    read: bind("read") as HandlerCalls["read"],
    write: bind("write") as HandlerCalls["write"],
    list: bind("list"),
    remove: bind("remove"),
  };
}

/**
 * A {@link FileSystem} over a host's own storage — IndexedDB, a `Map`, a server's API, the
 * workspace of an app — given as two functions, `read(path)` and `write(path, content)`, with
 * `list(directory)` and `remove(path)` when the host has them. Every file tool (and the
 * preview tool, which takes the same seam) then shares that one namespace: what `write_file`
 * writes, `read_file`, `edit_file` and `preview` read.
 *
 * - Files are what `read` answers (text as UTF-8, or bytes); a write hands the whole new
 *   content to one `write` call, so the host sees each file change all at once, never in part.
 * - Directories are implied by paths (`site` is a directory once `site/index.html` exists);
 *   `list` shows them, and `create_directory` makes empty ones that live in this seam's memory
 *   until a file is written inside.
 * - `stat` sizes a file by reading it; its modification time is that of the last write through
 *   this seam, else the one `list` gives, else 0. There are no symlinks and no permission bits.
 * - Without `list`: listing and searching folders, and deleting or moving a directory, answer
 *   `UNSUPPORTED` naming the option; without `remove`: deleting and moving answer `UNSUPPORTED`.
 * - A handler's error maps to the shared codes by its `code` or DOMException `name`: `ENOENT` /
 *   `NotFoundError` → `FILE_NOT_FOUND`; `EACCES` / `EPERM` / `NotAllowedError` /
 *   `SecurityError` → `PERMISSION_DENIED`; `QuotaExceededError` / `ENOSPC` → `TOO_LARGE`;
 *   `AbortError` → `ABORTED`; `TimeoutError` → `TIMEOUT`; a `ToolFailureError` keeps its code;
 *   anything else (a thrown string too) is `INTERNAL`, naming the handler, the path and the
 *   host's message. So is an answer of the wrong type (a number from `read`).
 * - A call that does not settle within `timeoutMs` answers `TIMEOUT` (its signal aborts), so a
 *   stuck storage never holds a path's lock forever.
 *
 * @param handler - `{ read, write, list?, remove? }`, checked now (a missing or misspelled
 *   function throws an `AgentoolError` that names it)
 * @param options - `displayRoot`, `timeoutMs`, `writeAs` and a clock
 * @returns the seam, `kind: "handler"`
 * @throws AgentoolError when the handler or the options are invalid
 * @example
 * import { createFsTools, createHandlerFileSystem } from "@agentool/tools-fs";
 *
 * const files = new Map<string, string | Uint8Array>();
 * const fileSystem = createHandlerFileSystem({
 *   read: async (path) => files.get(path),
 *   write: async (path, content) => {
 *     files.set(path, content);
 *   },
 * });
 * const tools = createFsTools({ fileSystem, mode: "read-write" });
 */
export function createHandlerFileSystem(
  handler: FileSystemHandler,
  options: HandlerFileSystemOptions = {},
): FileSystem {
  const calls = checkedCalls(handler);
  const parsed = parseOptions(OWNER, optionsSchema, options);
  const tree = new HandlerTree(calls, {
    timeoutMs: parsed.timeoutMs ?? DEFAULT_HANDLER_TIMEOUT_MS,
    writeAs: parsed.writeAs ?? "text",
    now: parsed.now ?? Date.now,
  });
  // A plain object (not the class instance), so a host may spread it to wrap some methods.
  return {
    kind: "handler",
    displayRoot: parsed.displayRoot ?? "/",
    realPath: async (path) => checkedPath(path),
    stat: (path) => tree.stat(path),
    readFile: (path) => tree.readFile(path),
    openReader: (path) => tree.openReader(path),
    writeFile: (path, data) => tree.writeFile(path, data),
    createDirectory: (path) => tree.createDirectory(path),
    readDirectory: (path) => tree.readDirectory(path),
    ...(calls.list === undefined
      ? {}
      : { readDirectoryNames: (path: string) => tree.readDirectoryNames(path) }),
    remove: (path, removeOptions) => tree.remove(path, removeOptions),
    rename: (source, destination) => tree.rename(source, destination),
    copy: (source, destination) => tree.copy(source, destination),
    digest: (path) => tree.digest(path),
  };
}
