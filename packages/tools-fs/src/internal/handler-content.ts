/**
 * What crosses between the handler seam and a host's `read` / `write`: the host's answer turned
 * into bytes (text as UTF-8), and the bytes a tool writes handed over as text when they are
 * valid UTF-8.
 *
 * @internal
 */

import { malformedAnswer } from "./handler-errors.js";

/** How a written file reaches the host's `write`. */
export type HandlerContentForm = "text" | "bytes";

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

const EXPECTED_READ =
  "the file's content (a string, a Uint8Array, an ArrayBuffer or a Blob), or undefined or null when nothing is there";

/** What `typeof` or the constructor says a value is, for messages. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  if (type !== "object") return `a ${type}`;
  try {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name !== "string" || name.length === 0 || name === "Object") return "an object";
    return /^[AEIOU]/.test(name) ? `an ${name}` : `a ${name}`;
  } catch {
    return "an object";
  }
}

function isArrayBuffer(value: unknown): value is ArrayBuffer {
  return Object.prototype.toString.call(value) === "[object ArrayBuffer]";
}

function isBlob(value: unknown): value is Blob {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { arrayBuffer?: unknown }).arrayBuffer === "function" &&
    typeof (value as { size?: unknown }).size === "number"
  );
}

/**
 * The bytes of what a host's `read` answered, copied (the host keeps its own value), or
 * `undefined` when it said nothing is there. Throws `INTERNAL` for anything else.
 *
 * @param value - the handler's answer
 * @param path - the workspace path read
 * @returns the bytes, or `undefined` for a missing file
 */
export async function bytesFromAnswer(
  value: unknown,
  path: string,
): Promise<Uint8Array | undefined> {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return encoder.encode(value);
  if (ArrayBuffer.isView(value)) {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice();
  }
  if (isArrayBuffer(value)) return new Uint8Array(value.slice(0));
  if (isBlob(value)) {
    const buffer: unknown = await value.arrayBuffer();
    if (isArrayBuffer(buffer)) return new Uint8Array(buffer);
    throw malformedAnswer(
      "read",
      path,
      "returned a Blob-like value whose arrayBuffer() is no ArrayBuffer",
      EXPECTED_READ,
    );
  }
  throw malformedAnswer("read", path, `returned ${kindOf(value)}`, EXPECTED_READ);
}

/**
 * What a host's `write` receives for bytes a tool writes: with `"text"`, a string when the bytes
 * are valid UTF-8 (a byte order mark kept as `\uFEFF`, so the string encodes back to the same
 * bytes), else a copy of the bytes; with `"bytes"`, always a copy of the bytes.
 *
 * @param data - the bytes to write
 * @param form - `"text"` or `"bytes"`
 * @returns the content to hand to `write`
 */
export function contentForWrite(data: Uint8Array, form: HandlerContentForm): string | Uint8Array {
  if (form === "text") {
    try {
      return strictDecoder.decode(data);
    } catch {
      // not valid UTF-8: the bytes as they are
    }
  }
  return data.slice();
}

/**
 * Checks what a host's `list` answered and turns it into the directory's direct children: a name
 * with a `/` inside (`"sub/file.txt"`) or at its end (`"sub/"`) makes its first segment a
 * directory; entries whose first segment is empty, `.` or `..` are left out.
 *
 * @param value - the handler's answer
 * @param directory - the workspace path listed
 * @returns the children by name, a directory winning over a file of the same name
 */
export function childrenFromListing(value: unknown, directory: string): Map<string, ListedChild> {
  if (!Array.isArray(value)) {
    throw malformedAnswer("list", directory, `returned ${kindOf(value)}`, EXPECTED_LIST);
  }
  const children = new Map<string, ListedChild>();
  for (const raw of value as unknown[]) {
    const entry = listedEntry(raw, directory);
    const slash = entry.name.indexOf("/");
    const name = slash === -1 ? entry.name : entry.name.slice(0, slash);
    if (name.length === 0 || name === "." || name === ".." || name.includes("\0")) continue;
    const type = slash === -1 ? (entry.type ?? "file") : "directory";
    if (children.get(name)?.type === "directory") continue;
    children.set(
      name,
      type === "directory"
        ? { type }
        : {
            type,
            ...(entry.size === undefined ? {} : { size: entry.size }),
            ...(entry.modifiedMs === undefined ? {} : { modifiedMs: entry.modifiedMs }),
          },
    );
  }
  return children;
}

/** One child of a listed directory, as far as the host's `list` told. */
export interface ListedChild {
  /** `"file"` or `"directory"`. */
  type: "file" | "directory";
  /** Bytes, when the host gave them. */
  size?: number;
  /** Last modification (ms since the epoch), when the host gave it. */
  modifiedMs?: number;
}

const EXPECTED_LIST =
  'an array of the directory\'s entries, each a name relative to it ("notes.md", "sub/" for a folder) or { name, type?: "file" | "directory", size?, modifiedMs? }';

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

function listedEntry(
  raw: unknown,
  directory: string,
): { name: string; type?: "file" | "directory"; size?: number; modifiedMs?: number } {
  if (typeof raw === "string") return { name: raw };
  let problem = `returned an entry that is ${kindOf(raw)}`;
  if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) {
    const { name, type, size, modifiedMs } = raw as Record<string, unknown>;
    if (typeof name !== "string") problem = "returned an entry without a string name";
    else if (type !== undefined && type !== "file" && type !== "directory") {
      problem = `returned ${name} with type ${typeof type === "string" ? JSON.stringify(type) : kindOf(type)}`;
    } else if (
      !(size === undefined || isCount(size)) ||
      !(modifiedMs === undefined || isCount(modifiedMs))
    ) {
      problem = `returned ${name} with a size or modifiedMs that is not a count`;
    } else {
      return {
        name,
        ...(type === undefined ? {} : { type }),
        ...(size === undefined ? {} : { size }),
        ...(modifiedMs === undefined ? {} : { modifiedMs }),
      };
    }
  }
  throw malformedAnswer("list", directory, problem, EXPECTED_LIST);
}
