/**
 * The byte-level codec of the lexical index snapshot: LEB128 varints below 2^32, little-endian
 * float64s and length-prefixed byte runs, written into a growable buffer and read back with every
 * read bounds-checked.
 *
 * @internal
 */

/** Thrown by {@link LexicalEngine.fromBytes} for bytes it cannot read. */
export class LexicalSnapshotError extends Error {
  /**
   * @param message - what is wrong
   */
  constructor(message: string) {
    super(message);
    this.name = "LexicalSnapshotError";
  }
}

/** A growable byte buffer of varints, float64s and byte runs. */
export class ByteWriter {
  bytes: Uint8Array;
  length = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(Math.max(64, capacity));
  }

  reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + extra));
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }

  /** A non-negative integer below 2^32. */
  varint(value: number): void {
    if (this.length + 5 > this.bytes.length) this.reserve(5);
    const bytes = this.bytes;
    let rest = value >>> 0;
    while (rest >= 0x80) {
      bytes[this.length++] = (rest & 0x7f) | 0x80;
      rest >>>= 7;
    }
    bytes[this.length++] = rest;
  }

  float64(value: number): void {
    this.reserve(8);
    new DataView(this.bytes.buffer, this.bytes.byteOffset + this.length, 8).setFloat64(
      0,
      value,
      true,
    );
    this.length += 8;
  }

  /** A length-prefixed byte run. */
  run(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.reserve(bytes.length);
    this.bytes.set(bytes, this.length);
    this.length += bytes.length;
  }
}

/** Reads what {@link ByteWriter} wrote; every read is bounds-checked. */
export class ByteReader {
  offset = 0;

  constructor(private readonly bytes: Uint8Array) {}

  varint(): number {
    const bytes = this.bytes;
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.offset >= bytes.length)
        throw new LexicalSnapshotError("the snapshot ends in the middle of a number");
      const byte = bytes[this.offset++] as number;
      if (shift === 28) {
        if (byte > 0x0f) throw new LexicalSnapshotError("a number in the snapshot is too long");
        return (value | (byte << 28)) >>> 0;
      }
      value |= (byte & 0x7f) << shift;
      if (byte < 0x80) return value >>> 0;
      shift += 7;
    }
  }

  float64(): number {
    if (this.offset + 8 > this.bytes.length)
      throw new LexicalSnapshotError("the snapshot ends in the middle of a number");
    const value = new DataView(
      this.bytes.buffer,
      this.bytes.byteOffset + this.offset,
      8,
    ).getFloat64(0, true);
    this.offset += 8;
    return value;
  }

  run(): Uint8Array {
    const length = this.varint();
    if (this.offset + length > this.bytes.length)
      throw new LexicalSnapshotError("the snapshot ends in the middle of a text");
    const run = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return run;
  }

  get done(): boolean {
    return this.offset === this.bytes.length;
  }
}

/** The error for a varint that runs past the end, or past five bytes. */
export function truncatedOrLong(truncated: boolean): LexicalSnapshotError {
  return new LexicalSnapshotError(
    truncated
      ? "the snapshot ends in the middle of a number"
      : "a number in the snapshot is too long",
  );
}

/**
 * Writes a varint below 2^32 at `position` (room for five bytes must be there).
 *
 * @returns the position after it
 */
export function putVarint(bytes: Uint8Array, position: number, value: number): number {
  let rest = value;
  let at = position;
  while (rest >= 0x80) {
    bytes[at++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  bytes[at++] = rest;
  return at;
}

/**
 * Appends `source[start … end)` at `position` of the writer's bytes (growing them as needed).
 *
 * @returns the position after it (the writer's `bytes` may be a new array now)
 */
export function copyRun(
  writer: ByteWriter,
  position: number,
  source: Uint8Array,
  start: number,
  end: number,
): number {
  const length = end - start;
  if (position + length > writer.bytes.length) {
    writer.length = position;
    writer.reserve(length);
  }
  writer.bytes.set(source.subarray(start, end), position);
  return position + length;
}

/** The varint at `offset` (a term record's count, in a snapshot already checked). */
export function readCount(bytes: Uint8Array, offset: number): number {
  let value = 0;
  let shift = 0;
  for (let at = offset; ; at += 1) {
    const byte = bytes[at] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
    shift += 7;
  }
}
