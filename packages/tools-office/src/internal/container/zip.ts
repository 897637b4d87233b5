import { once } from "node:events";
import { createInflateRaw, inflateRawSync } from "node:zlib";
import { ToolFailureError } from "@agentool/contract";
import { type Zippable, zipSync } from "fflate";
import { NEVER_YIELD, type Yielder } from "./yielder.js";
import {
  damaged,
  directoryBounds,
  findEndOfDirectory,
  u16,
  u32,
  zip64Sizes,
} from "./zip-directory.js";

/**
 * A safe, read-only view of a zip archive (OOXML, OpenDocument, EPUB): the central directory is
 * parsed by hand, and every entry is inflated by node:zlib against hard limits — entry count,
 * per-entry and total uncompressed bytes, compression ratio, the declared size — a big entry off
 * the main thread, each output chunk counted as it arrives, one that declares at most 1 MB in a
 * single call zlib stops at that size — so a zip bomb is refused with
 * `TOO_LARGE` after a bounded amount of work, never inflated whole. Names that could escape a
 * folder (`../`, absolute, drive letters, NUL, backslashes) and duplicate names are refused with
 * `BLOCKED`; encrypted entries with `UNSUPPORTED`.
 *
 * @internal
 */

/** The limits every archive is opened with. */
export interface ZipLimits {
  /** Most entries in the central directory. */
  maxEntries: number;
  /** Most uncompressed bytes of one entry. */
  maxEntryBytes: number;
  /** Most uncompressed bytes inflated from the archive in all (over every read). */
  maxTotalBytes: number;
  /** Highest uncompressed ÷ compressed ratio of an entry once it passes 1 MB. */
  maxRatio: number;
}

/** Defaults: 20,000 entries, 256 MB per entry, 1 GB in all, ratio 500. */
export const DEFAULT_ZIP_LIMITS: Readonly<ZipLimits> = {
  maxEntries: 20_000,
  maxEntryBytes: 256_000_000,
  maxTotalBytes: 1_000_000_000,
  maxRatio: 500,
};

/** One entry of the central directory. */
export interface ZipEntry {
  /** The entry's name as stored (forward slashes, no leading slash). */
  name: string;
  /** The compression method: 0 stored, 8 deflate (others are refused on read). */
  method: number;
  /** Bytes stored in the archive. */
  compressedSize: number;
  /** Uncompressed bytes the directory declares (checked while inflating, never trusted). */
  size: number;
  /** Whether it is a folder entry (name ends with `/`). */
  isDirectory: boolean;
  /** Offset of its local header. */
  localOffset: number;
}

/** Options of {@link openZip}. */
export interface OpenZipOptions {
  /** Limits over {@link DEFAULT_ZIP_LIMITS}. */
  limits?: Partial<ZipLimits>;
  /** The file's display path, for messages. */
  label?: string;
}

const SLICE_BYTES = 65_536;
const RATIO_FLOOR_BYTES = 1_000_000;
/**
 * Entries declaring at most this many bytes are inflated in one synchronous call, stopped by
 * zlib at the declared size (a few milliseconds at most): a stream off the main thread costs
 * more than the inflating itself for the small parts an Office file is mostly made of.
 */
const SYNC_INFLATE_BYTES = 1_000_000;

/** Whether bytes start like a zip archive (`PK\x03\x04`, or an empty archive `PK\x05\x06`). */
export function isZip(bytes: Uint8Array): boolean {
  return (
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
  );
}

function unsafeName(name: string): boolean {
  return (
    name.includes("\0") ||
    name.includes("\\") ||
    name.startsWith("/") ||
    /^[A-Za-z]:/.test(name) ||
    name.split("/").some((part) => part === "..")
  );
}

const utf8 = new TextDecoder("utf-8");
const latin1 = new TextDecoder("latin1");

/** A zip archive opened by {@link openZip}. */
export class ZipArchive {
  /** Every entry, in central-directory order. */
  readonly entries: readonly ZipEntry[];
  readonly #bytes: Uint8Array;
  readonly #byName: Map<string, ZipEntry>;
  readonly #limits: ZipLimits;
  readonly #label: string;
  #inflated = 0;

  /** @internal use {@link openZip} */
  constructor(bytes: Uint8Array, entries: ZipEntry[], limits: ZipLimits, label: string) {
    this.#bytes = bytes;
    this.entries = entries;
    this.#limits = limits;
    this.#label = label;
    this.#byName = new Map(entries.map((entry) => [entry.name, entry]));
  }

  /** Whether an entry of that name exists. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** The entry of that name, if any. */
  entry(name: string): ZipEntry | undefined {
    return this.#byName.get(name);
  }

  /**
   * Inflates one entry chunk by chunk (64 KB; node:zlib, off the main thread; an entry declaring
   * at most 1 MB in one chunk), handing each uncompressed chunk to `onChunk` (return `false` to
   * stop early). Refuses past the limits with `TOO_LARGE` as soon as a chunk crosses them.
   *
   * @param name - the entry's name
   * @param onChunk - receives uncompressed chunks in order
   * @param yielder - yields to the event loop between slices
   */
  async stream(
    name: string,
    onChunk: (chunk: Uint8Array) => unknown,
    yielder: Yielder = NEVER_YIELD,
  ): Promise<void> {
    const entry = this.#byName.get(name);
    if (entry === undefined) {
      throw new ToolFailureError("UNSUPPORTED", `${this.#label} has no part named ${name}.`, {
        hint: "The file may be damaged or not what its extension says.",
      });
    }
    const start = this.#dataStart(entry);
    const data = this.#bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) {
      this.#count(entry, data.length);
      for (let at = 0; at < data.length; at += 262_144) {
        if (onChunk(data.subarray(at, at + 262_144)) === false) return;
        await yielder.tick();
      }
      return;
    }
    if (entry.method !== 8) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${this.#label}: part ${name} uses zip compression method ${entry.method}; only stored and deflate are read.`,
      );
    }
    if (entry.size <= SYNC_INFLATE_BYTES) {
      onChunk(this.#inflateSmall(entry, data));
      await yielder.tick();
      return;
    }
    await this.#inflate(entry, data, onChunk, yielder);
  }

  /** Inflates an entry that declares at most {@link SYNC_INFLATE_BYTES}, never past that. */
  #inflateSmall(entry: ZipEntry, data: Uint8Array): Uint8Array {
    let out: Buffer;
    try {
      out = inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch (error) {
      if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") {
        this.#count(entry, entry.size + 1);
      }
      if (!(error instanceof Error) || !("errno" in error)) throw error;
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${this.#label}: part ${entry.name} is damaged (${error.message}).`,
        { hint: "The file may be truncated or corrupt; ask for a fresh copy." },
      );
    }
    this.#count(entry, out.length, out.length, data.length);
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  }

  async #inflate(
    entry: ZipEntry,
    data: Uint8Array,
    onChunk: (chunk: Uint8Array) => unknown,
    yielder: Yielder,
  ): Promise<void> {
    // node:zlib inflates off the main thread; each output chunk is counted before it is used.
    const inflater = createInflateRaw({ chunkSize: SLICE_BYTES });
    const feeding = (async () => {
      for (let at = 0; at < data.length && !inflater.destroyed; at += SLICE_BYTES) {
        if (!inflater.write(data.subarray(at, at + SLICE_BYTES))) {
          // Whichever comes first; aborting then removes the other's listener (without it every
          // wait left one behind and big parts tripped MaxListenersExceededWarning).
          const settled = new AbortController();
          const wait = (event: string) =>
            once(inflater, event, { signal: settled.signal }).catch(() => {});
          await Promise.race([wait("drain"), wait("close")]);
          settled.abort();
        }
      }
      if (!inflater.destroyed) inflater.end();
    })();
    let produced = 0;
    try {
      for await (const chunk of inflater as AsyncIterable<Buffer>) {
        produced += chunk.length;
        this.#count(entry, chunk.length, produced, Math.max(1, inflater.bytesWritten));
        const view = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length);
        if (onChunk(view) === false) break;
        await yielder.tick();
      }
    } catch (error) {
      if (error instanceof ToolFailureError || !(error instanceof Error) || !("errno" in error))
        throw error;
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${this.#label}: part ${entry.name} is damaged (${error.message}).`,
        { hint: "The file may be truncated or corrupt; ask for a fresh copy." },
      );
    } finally {
      inflater.destroy();
      await feeding.catch(() => {});
    }
  }

  /**
   * Inflates one entry whole (bounded by the limits).
   *
   * @param name - the entry's name
   * @param yielder - yields to the event loop between slices
   * @returns its bytes
   */
  async read(name: string, yielder: Yielder = NEVER_YIELD): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let length = 0;
    await this.stream(
      name,
      (chunk) => {
        chunks.push(chunk);
        length += chunk.length;
      },
      yielder,
    );
    if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
    const out = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }

  /**
   * Inflates one entry and decodes it as UTF-8 (BOM removed).
   *
   * @param name - the entry's name
   * @param yielder - yields to the event loop between slices
   * @returns its text
   */
  async readText(name: string, yielder: Yielder = NEVER_YIELD): Promise<string> {
    const text = utf8.decode(await this.read(name, yielder));
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  #count(entry: ZipEntry, added: number, produced = added, consumed = entry.compressedSize): void {
    this.#inflated += added;
    const limits = this.#limits;
    const bomb =
      produced > limits.maxEntryBytes ||
      this.#inflated > limits.maxTotalBytes ||
      (produced > RATIO_FLOOR_BYTES &&
        produced / Math.max(1, entry.compressedSize) > limits.maxRatio);
    if (bomb) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `${this.#label}: part ${entry.name} inflates past the safety limits (${produced} bytes from ${consumed} compressed; limits: ${limits.maxEntryBytes} bytes per part, ${limits.maxTotalBytes} in all, ratio ${limits.maxRatio}) — refused as a possible zip bomb.`,
        { hint: "Ask the user for a smaller or re-saved copy of the document." },
      );
    }
    if (produced > entry.size && entry.size !== 0xffffffff) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `${this.#label}: part ${entry.name} inflates past the ${entry.size} bytes its directory declares — refused as a possible zip bomb.`,
        { hint: "The archive is damaged or crafted; ask for a fresh copy." },
      );
    }
  }

  #dataStart(entry: ZipEntry): number {
    const at = entry.localOffset;
    if (u32(this.#bytes, at) !== 0x04034b50) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${this.#label}: part ${entry.name} has no local header where the directory says; the archive is damaged.`,
      );
    }
    const start = at + 30 + u16(this.#bytes, at + 26) + u16(this.#bytes, at + 28);
    if (start + entry.compressedSize > this.#bytes.length) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${this.#label}: part ${entry.name} runs past the end of the file; the archive is truncated.`,
      );
    }
    return start;
  }
}

/**
 * Opens a zip archive for reading: parses its central directory (no inflating yet) and checks
 * every name and flag.
 *
 * @param bytes - the whole file
 * @param options - limits and the display path for messages
 * @returns the archive
 * @throws ToolFailureError `UNSUPPORTED` (not a zip, damaged, encrypted entries), `BLOCKED`
 *   (path-traversal or duplicate names), `TOO_LARGE` (too many entries, a declared size past
 *   the limits)
 */
export function openZip(bytes: Uint8Array, options: OpenZipOptions = {}): ZipArchive {
  const label = options.label ?? "The archive";
  const limits: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const end = findEndOfDirectory(bytes, label);
  const { count, offset } = directoryBounds(bytes, end, label);
  if (count > limits.maxEntries) {
    throw new ToolFailureError(
      "TOO_LARGE",
      `${label} has ${count} zip entries, more than the ${limits.maxEntries} read — refused.`,
      { hint: "Ask the user for a smaller copy of the document." },
    );
  }
  const entries: ZipEntry[] = [];
  const seen = new Set<string>();
  let at = offset;
  for (let index = 0; index < count; index += 1) {
    if (u32(bytes, at) !== 0x02014b50) throw damaged(label, "bad central directory entry");
    const flags = u16(bytes, at + 8);
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const rawName = bytes.subarray(at + 46, at + 46 + nameLength);
    const name = (flags & 0x800 ? utf8 : latin1).decode(rawName);
    const entry: ZipEntry = {
      name,
      method: u16(bytes, at + 10),
      compressedSize: u32(bytes, at + 20),
      size: u32(bytes, at + 24),
      isDirectory: name.endsWith("/"),
      localOffset: u32(bytes, at + 42),
    };
    zip64Sizes(bytes, at + 46 + nameLength, at + 46 + nameLength + extraLength, entry);
    at += 46 + nameLength + extraLength + u16(bytes, at + 32);
    if (flags & 0x1) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${label} is encrypted (its part ${name} is password-protected) — encrypted files are not read.`,
        { hint: "Ask the user for an unencrypted copy of the document." },
      );
    }
    if (unsafeName(name) || seen.has(name)) {
      throw new ToolFailureError(
        "BLOCKED",
        `${label} holds a zip entry named ${JSON.stringify(name.slice(0, 200))} (${seen.has(name) ? "a duplicate name" : "a path that escapes its folder"}) — a hostile archive, refused.`,
        { hint: "Do not open this file; ask the user where it came from." },
      );
    }
    seen.add(name);
    if (entry.size > limits.maxEntryBytes) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `${label}: part ${name} declares ${entry.size} uncompressed bytes, more than the ${limits.maxEntryBytes} read per part.`,
        { hint: "Ask the user for a smaller copy of the document." },
      );
    }
    entries.push(entry);
  }
  return new ZipArchive(bytes, entries, limits, label);
}

/** One file to put in an archive by {@link createZip}. */
export interface ZipInput {
  /** The entry's name (forward slashes). */
  name: string;
  /** Its content: bytes, or text written as UTF-8. */
  data: Uint8Array | string;
  /** Store without compression (OpenDocument's `mimetype` must be stored and first). */
  store?: boolean;
}

/**
 * Writes a zip archive with entries in the given order (deflate level 6, or stored).
 *
 * @param files - the entries, in order
 * @returns the archive's bytes
 * @example
 * createZip([{ name: "mimetype", data: "application/vnd.oasis.opendocument.text", store: true }, …]);
 */
export function createZip(files: readonly ZipInput[]): Uint8Array {
  const encoder = new TextEncoder();
  const zippable: Zippable = {};
  for (const file of files) {
    const data = typeof file.data === "string" ? encoder.encode(file.data) : file.data;
    zippable[file.name] = [data, { level: file.store ? 0 : 6 }];
  }
  return zipSync(zippable);
}
