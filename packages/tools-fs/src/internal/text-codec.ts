/**
 * Text decoding and encoding for the file tools: UTF-8, UTF-8 with BOM and UTF-16 (LE/BE, with
 * BOM); binary detection; line-ending detection. Invalid bytes never throw: they decode to U+FFFD
 * and are reported.
 *
 * @internal
 */

/** The encodings the file tools read and write. */
export type TextEncodingName = "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be";

/** The line endings a text uses. */
export type LineEnding = "lf" | "crlf" | "mixed" | "none";

/** A decoded text file. */
export interface DecodedText {
  /** The text, without BOM. Line endings as in the file. */
  text: string;
  /** How the bytes were encoded. */
  encoding: TextEncodingName;
  /** Which line endings the text uses. */
  lineEnding: LineEnding;
  /** Whether some bytes were not valid in the encoding (shown as U+FFFD). */
  invalidBytes: boolean;
}

/** How many leading bytes {@link isBinary} looks at. */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Detects the encoding from a BOM.
 *
 * @internal
 */
export function detectBom(bytes: Uint8Array): TextEncodingName | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8-bom";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * Whether bytes look binary: a NUL byte, or many control characters, in the first 8 KiB — unless
 * a UTF-16 BOM says the NULs are part of the text.
 *
 * @internal
 */
export function isBinary(bytes: Uint8Array): boolean {
  const bom = detectBom(bytes);
  if (bom === "utf-16le" || bom === "utf-16be") return false;
  const length = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  if (length === 0) return false;
  // A NUL found natively first; then one comparison for most bytes (this runs on every file the
  // tools read whole: ~2x faster than testing each byte for NUL and both control ranges).
  const head = length === bytes.length ? bytes : bytes.subarray(0, length);
  if (head.indexOf(0) !== -1) return true;
  let control = 0;
  for (let index = 0; index < length; index += 1) {
    const byte = head[index] as number;
    if (byte < 32 && (byte < 8 || (byte > 13 && byte !== 27))) control += 1;
  }
  return control / length > 0.1;
}

/**
 * Which line endings a text uses.
 *
 * @internal
 */
export function detectLineEnding(text: string): LineEnding {
  // Counted with indexOf, without splitting: this runs on every file the tools read.
  // Most files hold no "\r" at all: one scan for it settles them without walking every line.
  if (text.indexOf("\r") === -1) return text.indexOf("\n") === -1 ? "none" : "lf";
  let lf = 0;
  let crlf = 0;
  let index = text.indexOf("\n");
  while (index !== -1) {
    lf += 1;
    if (index > 0 && text.charCodeAt(index - 1) === 13) crlf += 1;
    index = text.indexOf("\n", index + 1);
  }
  if (lf === 0) return "none";
  if (crlf === lf) return "crlf";
  if (crlf === 0) return "lf";
  return "mixed";
}

function decodeUtf16BigEndian(bytes: Uint8Array): string {
  const swapped = new Uint8Array(bytes.length - (bytes.length % 2));
  for (let index = 0; index + 1 < bytes.length; index += 2) {
    swapped[index] = bytes[index + 1] as number;
    swapped[index + 1] = bytes[index] as number;
  }
  return new TextDecoder("utf-16le").decode(swapped);
}

/**
 * Decodes a file's bytes, or returns `undefined` when they look binary.
 *
 * @internal
 */
export function decodeText(bytes: Uint8Array): DecodedText | undefined {
  if (isBinary(bytes)) return undefined;
  const encoding: TextEncodingName = detectBom(bytes) ?? "utf-8";
  let text: string;
  let invalidBytes = false;
  if (encoding === "utf-16le") {
    text = new TextDecoder("utf-16le").decode(bytes.subarray(2));
    invalidBytes = bytes.length % 2 !== 0;
  } else if (encoding === "utf-16be") {
    text = decodeUtf16BigEndian(bytes.subarray(2));
    invalidBytes = bytes.length % 2 !== 0;
  } else {
    const body = encoding === "utf-8-bom" ? bytes.subarray(3) : bytes;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      text = new TextDecoder("utf-8").decode(body);
      invalidBytes = true;
    }
  }
  return { text, encoding, lineEnding: detectLineEnding(text), invalidBytes };
}

/**
 * Encodes text in a given encoding, writing the BOM the encoding needs.
 *
 * @internal
 */
export function encodeText(text: string, encoding: TextEncodingName): Uint8Array {
  if (encoding === "utf-8") return new TextEncoder().encode(text);
  if (encoding === "utf-8-bom") {
    const body = new TextEncoder().encode(text);
    const bytes = new Uint8Array(body.length + 3);
    bytes.set([0xef, 0xbb, 0xbf]);
    bytes.set(body, 3);
    return bytes;
  }
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes[0] = encoding === "utf-16le" ? 0xff : 0xfe;
  bytes[1] = encoding === "utf-16le" ? 0xfe : 0xff;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const high = code >> 8;
    const low = code & 0xff;
    bytes[2 + index * 2] = encoding === "utf-16le" ? low : high;
    bytes[3 + index * 2] = encoding === "utf-16le" ? high : low;
  }
  return bytes;
}

/**
 * A human label for an encoding, for headers: `utf-8`, `utf-8 with BOM`, `utf-16le`.
 *
 * @internal
 */
export function encodingLabel(encoding: TextEncodingName): string {
  return encoding === "utf-8-bom" ? "utf-8 with BOM" : encoding;
}

/** How many hex characters of a sha-256 the tools show (`sha: 0123456789ab`). */
export const SHORT_SHA_LENGTH = 12;

/**
 * SHA-256 of bytes as lower-case hex, with Web Crypto (any runtime). Matches
 * `FileSystem.digest` of a file holding these bytes.
 *
 * @internal
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  const view = new Uint8Array(digest);
  let hex = "";
  for (const byte of view) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * Decodes UTF-8 bytes without throwing: invalid sequences become U+FFFD and are reported. An
 * incomplete sequence at the very end (a line cut short) is dropped, not reported.
 *
 * @internal
 */
export function decodeUtf8Lenient(
  bytes: Uint8Array,
  cutShort = false,
): { text: string; invalidBytes: boolean } {
  try {
    const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    return { text: decoder.decode(bytes, { stream: cutShort }), invalidBytes: false };
  } catch {
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    return { text: decoder.decode(bytes, { stream: cutShort }), invalidBytes: true };
  }
}
