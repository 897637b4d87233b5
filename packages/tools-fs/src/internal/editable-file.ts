/**
 * A text file loaded for editing by `edit_file`, `multi_edit` and `write_file`: its encoding, BOM,
 * line endings and sha, the `expected_sha` check and the writes recorded per seam, and writing
 * the result back in the file's own encoding and line endings.
 *
 * @internal
 */

import { z } from "zod";
import { type FileStat, type FileSystem, FileSystemError } from "../file-system.js";
import type { ResolvedPath } from "../workspace.js";
import type { Splice } from "./edit-match.js";
import {
  decodeText,
  encodeText,
  encodingLabel,
  type LineEnding,
  SHORT_SHA_LENGTH,
  sha256Hex,
  type TextEncodingName,
} from "./text-codec.js";

/** How `expected_sha` must look: 12 to 64 hex characters (a prefix of the sha-256). */
export const EXPECTED_SHA_PATTERN: RegExp = /^[0-9a-fA-F]{12,64}$/;

/**
 * The `expected_sha` input field shared by the write tools.
 *
 * @param readTool - the mounted tool whose header shows the sha (`read_file`), if any
 * @returns the zod field
 * @internal
 */
export function createExpectedShaField(readTool: string | undefined) {
  const source = readTool === undefined ? "the file's sha" : `the sha from ${readTool}'s header`;
  return z
    .string()
    .regex(EXPECTED_SHA_PATTERN, `expected 12 to 64 hex characters (${source})`)
    .optional()
    .describe(
      `${readTool === undefined ? "The file's sha" : `The sha from ${readTool}'s header`} or your last edit's; fails with CONFLICT if the file changed.`,
    );
}

/** The `expected_sha` input field, naming read_file. */
export const expectedShaField = createExpectedShaField("read_file");

/**
 * Whether a file's sha-256 starts with what the model sent.
 *
 * @internal
 */
export function shaMatches(expected: string, actual: string): boolean {
  return actual.startsWith(expected.toLowerCase());
}

/** The last write a write tool made to one file: its sha and the tool. */
export interface RecordedWrite {
  /** sha-256 of what was written. */
  sha: string;
  /** The tool that wrote it (`edit_file`, `multi_edit`, `write_file`…). */
  tool: string;
}

const MAX_RECORDED_WRITES = 512;
const recordedWrites = new WeakMap<object, Map<string, RecordedWrite>>();

/**
 * Remembers the sha a write tool returned for a file (per file system, the last 512 files), so a
 * later `CONFLICT` can tell the model that the file is exactly as its own edit left it.
 *
 * @internal
 */
export function recordWrite(fileSystem: object, realPath: string, write: RecordedWrite): void {
  let writes = recordedWrites.get(fileSystem);
  if (writes === undefined) {
    writes = new Map();
    recordedWrites.set(fileSystem, writes);
  }
  writes.delete(realPath);
  writes.set(realPath, write);
  if (writes.size > MAX_RECORDED_WRITES) {
    writes.delete(writes.keys().next().value as string);
  }
}

/**
 * The last write a write tool made to a file, if it is remembered.
 *
 * @internal
 */
export function lastRecordedWrite(fileSystem: object, realPath: string): RecordedWrite | undefined {
  return recordedWrites.get(fileSystem)?.get(realPath);
}

/**
 * The failure for an `expected_sha` that no longer matches. The message always carries the
 * current sha; when the current content is what one of the write tools last returned for this
 * file (`last`), the hint says so and offers that sha instead of a re-read.
 *
 * @param display - the path as shown to the model
 * @param actualSha - the file's current sha (`undefined`: the file is gone)
 * @param last - the last write a write tool recorded for the file
 * @internal
 */
export function conflictError(
  display: string,
  actualSha: string | undefined,
  last?: RecordedWrite,
): FileSystemError {
  if (actualSha === undefined) {
    return new FileSystemError(
      "CONFLICT",
      `${display} was deleted since you read it (expected_sha no longer matches).`,
      "Check whether it was moved (list_directory, glob_search), or create it again without expected_sha.",
    );
  }
  const short = actualSha.slice(0, SHORT_SHA_LENGTH);
  const message = `${display} changed since the sha you sent: its sha is now ${short}.`;
  if (last !== undefined && last.sha === actualSha) {
    return new FileSystemError(
      "CONFLICT",
      `${message} That is the sha your last ${last.tool} call on ${display} returned: nothing changed it since.`,
      `If you sent the sha from before that ${last.tool} call, call again with expected_sha="${short}" — no need to re-read.`,
    );
  }
  return new FileSystemError(
    "CONFLICT",
    message,
    `If you made that change yourself, call again with expected_sha="${short}". Otherwise re-read ${display} with read_file, redo your change on the current content, and pass its sha as expected_sha.`,
  );
}

/** A text file loaded for editing. */
export interface EditableFile {
  /** The file's bytes as read. */
  bytes: Uint8Array;
  /** sha-256 of `bytes`, lower-case hex. */
  sha: string;
  /** The file's encoding (kept on write). */
  encoding: TextEncodingName;
  /** The file's line endings. */
  lineEnding: LineEnding;
  /** Whether the file is CRLF throughout: the working text is then LF and CRLF is restored on write. */
  crlf: boolean;
  /** The text edits work on (LF when `crlf`). */
  working: string;
  /** The stat when read. */
  stat: FileStat;
}

/** Options of {@link loadEditableFile}. */
export interface LoadEditableOptions {
  /** Files larger than this are refused with `TOO_LARGE`. */
  maxBytes: number;
  /** The model's `expected_sha`, when given. */
  expectedSha: string | undefined;
}

/**
 * Reads and decodes a text file for editing; throws {@link FileSystemError} with `FILE_NOT_FOUND`,
 * `CONFLICT`, `UNSUPPORTED` (directory, binary, invalid bytes) or `TOO_LARGE`.
 *
 * @internal
 */
export async function loadEditableFile(
  fileSystem: FileSystem,
  resolved: ResolvedPath,
  options: LoadEditableOptions,
): Promise<EditableFile> {
  const display = resolved.display;
  const stat = await fileSystem.stat(resolved.real);
  if (stat === undefined) {
    if (options.expectedSha !== undefined) throw conflictError(display, undefined);
    throw new FileSystemError(
      "FILE_NOT_FOUND",
      `${display} does not exist.`,
      "Check the path with list_directory or glob_search; to create a new file use write_file.",
    );
  }
  if (stat.type === "directory") {
    throw new FileSystemError(
      "INVALID_PATH",
      `${display} is a directory, not a file; only files can be edited.`,
      "List it with list_directory and pick a file inside it.",
    );
  }
  if (stat.size > options.maxBytes) {
    throw new FileSystemError(
      "TOO_LARGE",
      `${display} is ${stat.size} bytes; the edit tools load at most ${options.maxBytes} bytes.`,
      "Edit a smaller file, or ask the user to change this one another way.",
    );
  }
  const bytes = await fileSystem.readFile(resolved.real);
  // Web Crypto hashes off the main thread: decode meanwhile.
  const hashing = sha256Hex(bytes);
  const decoded = decodeText(bytes);
  const sha = await hashing;
  if (options.expectedSha !== undefined && !shaMatches(options.expectedSha, sha)) {
    throw conflictError(display, sha, lastRecordedWrite(fileSystem, resolved.real));
  }
  if (decoded === undefined) {
    throw new FileSystemError(
      "UNSUPPORTED",
      `${display} looks like a binary file; the edit tools change text files only.`,
      "Call file_stats to inspect it.",
    );
  }
  if (decoded.invalidBytes) {
    throw new FileSystemError(
      "UNSUPPORTED",
      `${display} contains bytes that are not valid ${encodingLabel(decoded.encoding)}; editing would corrupt them.`,
      "Leave this file alone, or replace its whole content with write_file if that is really intended.",
    );
  }
  const crlf = decoded.lineEnding === "crlf";
  return {
    bytes,
    sha,
    encoding: decoded.encoding,
    lineEnding: decoded.lineEnding,
    crlf,
    working: crlf ? decoded.text.replace(/\r\n/g, "\n") : decoded.text,
    stat,
  };
}

/**
 * Brings the model's text into the working form of a file (LF for a CRLF file).
 *
 * @internal
 */
export function toWorkingForm(text: string, file: Pick<EditableFile, "crlf">): string {
  return file.crlf ? text.replace(/\r\n/g, "\n") : text;
}

/**
 * Encodes edited working text in the file's encoding and line endings.
 *
 * @internal
 */
export function encodeEditedText(
  working: string,
  file: Pick<EditableFile, "crlf" | "encoding">,
): Uint8Array {
  // A line that already ends in \r\n (an edit's own CRLF) is not given a second \r.
  const text = file.crlf ? working.replace(/\r?\n/g, "\r\n") : working;
  return encodeText(text, file.encoding);
}

/**
 * The new bytes of a file straight from its old bytes, when its text is pure ASCII in UTF-8
 * (with or without BOM) and not CRLF-normalised — then text positions are byte positions and
 * the edit needs no re-encoding of the whole file. `undefined` otherwise.
 *
 * @internal
 */
export function spliceAsciiBytes(
  file: Pick<EditableFile, "bytes" | "encoding" | "crlf" | "working">,
  splices: readonly Splice[],
): Uint8Array | undefined {
  if (file.crlf || (file.encoding !== "utf-8" && file.encoding !== "utf-8-bom")) return undefined;
  const offset = file.encoding === "utf-8-bom" ? 3 : 0;
  if (file.bytes.length - offset !== file.working.length) return undefined;
  const encoder = new TextEncoder();
  const replacements = splices.map((splice) => encoder.encode(splice.replacement));
  let length = file.bytes.length;
  splices.forEach((splice, index) => {
    length += (replacements[index] as Uint8Array).length - (splice.end - splice.start);
  });
  const bytes = new Uint8Array(length);
  let from = 0;
  let to = 0;
  splices.forEach((splice, index) => {
    const head = file.bytes.subarray(from, splice.start + offset);
    bytes.set(head, to);
    to += head.length;
    const replacement = replacements[index] as Uint8Array;
    bytes.set(replacement, to);
    to += replacement.length;
    from = splice.end + offset;
  });
  bytes.set(file.bytes.subarray(from), to);
  return bytes;
}

/**
 * Writes edited bytes and hashes them at once (both off the main thread), running `meanwhile`
 * (e.g. the diff) on the main thread in between.
 *
 * @internal
 */
export async function writeAndHash<T>(
  fileSystem: FileSystem,
  realPath: string,
  bytes: Uint8Array,
  meanwhile: () => T,
): Promise<{ sha: string; value: T }> {
  const hashing = sha256Hex(bytes);
  const writing = fileSystem.writeFile(realPath, bytes);
  let value: T;
  try {
    value = meanwhile();
  } finally {
    await Promise.all([hashing, writing]).catch(() => undefined);
  }
  await writing;
  return { sha: await hashing, value };
}
