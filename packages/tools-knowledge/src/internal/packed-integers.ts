/**
 * Non-negative integers packed as LEB128 varints and carried as base64 text: the compact,
 * JSON-safe body of the lexical index snapshot (about a quarter of the size of the same numbers
 * written as JSON object keys). Runtime-neutral: no import of `Buffer`, no `atob` (Node's `Buffer`
 * is used for large inputs when the runtime has one, found on `globalThis`).
 *
 * @internal
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(128).fill(-1);
for (let index = 0; index < ALPHABET.length; index += 1) DECODE[ALPHABET.charCodeAt(index)] = index;
const ALPHABET_CODES = Uint8Array.from(ALPHABET, (character) => character.charCodeAt(0));
const PAD = 61; // "="
const ASCII = new TextDecoder();

/** Node's `Buffer`, when the runtime has one (looked up, never imported: this module is runtime-neutral). */
const NativeBuffer = (
  globalThis as {
    Buffer?: {
      from(
        buffer: ArrayBufferLike,
        offset: number,
        length: number,
      ): { toString(encoding: "base64"): string };
    };
  }
).Buffer;
const NATIVE_BASE64_MIN_BYTES = 4096;

/**
 * Collects non-negative integers (up to 2^53) as varints.
 *
 * @internal
 */
export class PackedIntegerWriter {
  private bytes = new Uint8Array(1024);
  private length = 0;

  /**
   * Appends one integer.
   *
   * @param value - a non-negative safe integer
   */
  write(value: number): void {
    if (this.length + 8 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    const bytes = this.bytes;
    if (value < 0x80) {
      // Most gaps and frequencies: one byte.
      bytes[this.length++] = value;
      return;
    }
    let rest = value;
    if (rest <= 0x7fffffff) {
      while (rest >= 0x80) {
        bytes[this.length++] = (rest & 0x7f) | 0x80;
        rest >>>= 7;
      }
    } else {
      while (rest >= 0x80) {
        bytes[this.length++] = (rest % 0x80) | 0x80;
        rest = Math.floor(rest / 0x80);
      }
    }
    bytes[this.length++] = rest;
  }

  /** Forgets everything written (the buffer is kept for the next integers). */
  reset(): void {
    this.length = 0;
  }

  /**
   * The bytes written so far, copied.
   *
   * @returns the varints
   */
  toBytes(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }

  /**
   * The integers written so far, as base64 text.
   *
   * @returns base64 (standard alphabet, padded)
   */
  toBase64(): string {
    return encodeBase64(this.bytes.subarray(0, this.length));
  }
}

/**
 * Reads integers written by {@link PackedIntegerWriter}; throws `RangeError` on truncated or
 * malformed input.
 *
 * @internal
 */
export class PackedIntegerReader {
  private offset = 0;
  private readonly bytes: Uint8Array;

  /**
   * @param base64 - the text {@link PackedIntegerWriter.toBase64} produced
   */
  constructor(base64: string) {
    this.bytes = decodeBase64(base64);
  }

  /** Whether every integer has been read. */
  get done(): boolean {
    return this.offset >= this.bytes.length;
  }

  /**
   * Reads the next integer.
   *
   * @returns the integer
   */
  read(): number {
    let value = 0;
    let scale = 1;
    for (let count = 0; count < 8; count += 1) {
      if (this.offset >= this.bytes.length)
        throw new RangeError("packed integers end in the middle of a number");
      const byte = this.bytes[this.offset++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    throw new RangeError("a packed integer is too long");
  }
}

/**
 * Encodes bytes as standard, padded base64.
 *
 * @param bytes - any bytes
 * @returns the base64 text
 * @internal
 */
export function encodeBase64(bytes: Uint8Array): string {
  // Node's native encoder where there is one (about ten times faster on megabytes); same text.
  if (bytes.length >= NATIVE_BASE64_MIN_BYTES && NativeBuffer !== undefined) {
    return NativeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("base64");
  }
  return encodeBase64Portable(bytes);
}

/**
 * {@link encodeBase64} without the platform's encoder (the reference it is tested against).
 *
 * @param bytes - any bytes
 * @returns the base64 text
 * @internal
 */
export function encodeBase64Portable(bytes: Uint8Array): string {
  const text = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let out = 0;
  let index = 0;
  for (; index + 2 < bytes.length; index += 3) {
    const triple =
      ((bytes[index] as number) << 16) |
      ((bytes[index + 1] as number) << 8) |
      (bytes[index + 2] as number);
    text[out++] = ALPHABET_CODES[triple >> 18] as number;
    text[out++] = ALPHABET_CODES[(triple >> 12) & 63] as number;
    text[out++] = ALPHABET_CODES[(triple >> 6) & 63] as number;
    text[out++] = ALPHABET_CODES[triple & 63] as number;
  }
  const left = bytes.length - index;
  if (left > 0) {
    const triple =
      ((bytes[index] as number) << 16) | (left === 2 ? (bytes[index + 1] as number) << 8 : 0);
    text[out++] = ALPHABET_CODES[triple >> 18] as number;
    text[out++] = ALPHABET_CODES[(triple >> 12) & 63] as number;
    text[out++] = left === 2 ? (ALPHABET_CODES[(triple >> 6) & 63] as number) : PAD;
    text[out++] = PAD;
  }
  return ASCII.decode(text);
}

/**
 * Decodes standard, padded base64; throws `RangeError` on anything else.
 *
 * @param text - base64 text
 * @returns the bytes
 * @internal
 */
export function decodeBase64(text: string): Uint8Array {
  if (text.length % 4 !== 0) throw new RangeError("base64 length is not a multiple of 4");
  let padding = 0;
  if (text.endsWith("==")) padding = 2;
  else if (text.endsWith("=")) padding = 1;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let out = 0;
  for (let index = 0; index < text.length; index += 4) {
    const last = index + 4 === text.length;
    const first = sextet(text, index);
    const second = sextet(text, index + 1);
    const third = last && padding === 2 ? 0 : sextet(text, index + 2);
    const fourth = last && padding >= 1 ? 0 : sextet(text, index + 3);
    const triple = (first << 18) | (second << 12) | (third << 6) | fourth;
    bytes[out++] = triple >> 16;
    if (out < bytes.length) bytes[out++] = (triple >> 8) & 0xff;
    if (out < bytes.length) bytes[out++] = triple & 0xff;
  }
  return bytes;
}

function sextet(text: string, index: number): number {
  const code = text.charCodeAt(index);
  const value = code < 128 ? (DECODE[code] as number) : -1;
  if (value < 0) throw new RangeError(`invalid base64 character at ${index}`);
  return value;
}
