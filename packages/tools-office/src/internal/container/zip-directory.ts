import { ToolFailureError } from "@agentool/contract";
import type { ZipEntry } from "./zip.js";

/**
 * Reading a zip's central directory: little-endian fields, the end record (zip64 too), each
 * entry's zip64 sizes.
 *
 * @internal
 */

/** A little-endian 16-bit field. */
export function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}
/** A little-endian 32-bit field. */
export function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) + u16(bytes, at + 2) * 0x10000) >>> 0;
}
/** A little-endian 64-bit field (exact below 2^53). */
export function u64(bytes: Uint8Array, at: number): number {
  return u32(bytes, at) + u32(bytes, at + 4) * 0x1_0000_0000;
}

/** The failure for an archive whose structure is broken. */
export function damaged(label: string, what: string): ToolFailureError {
  return new ToolFailureError("UNSUPPORTED", `${label} is not a readable zip archive (${what}).`, {
    hint: "The file may be truncated, damaged, or not what its extension says.",
  });
}

/** The offset of the end-of-central-directory record (searched back over the comment). */
export function findEndOfDirectory(bytes: Uint8Array, label: string): number {
  const lowest = Math.max(0, bytes.length - 22 - 65_535);
  for (let at = bytes.length - 22; at >= lowest; at -= 1) {
    if (u32(bytes, at) === 0x06054b50) return at;
  }
  throw damaged(label, "no end-of-central-directory record");
}

/** The entry count and offset of the central directory (from the zip64 record when there is one). */
export function directoryBounds(bytes: Uint8Array, end: number, label: string) {
  let count = u16(bytes, end + 10);
  let size = u32(bytes, end + 12);
  let offset = u32(bytes, end + 16);
  if ((count === 0xffff || offset === 0xffffffff) && u32(bytes, end - 20) === 0x07064b50) {
    const zip64 = u64(bytes, end - 12);
    if (u32(bytes, zip64) !== 0x06064b50) throw damaged(label, "bad zip64 record");
    count = u64(bytes, zip64 + 32);
    size = u64(bytes, zip64 + 40);
    offset = u64(bytes, zip64 + 48);
  }
  if (offset + size > bytes.length) throw damaged(label, "directory past the end of the file");
  return { count, offset };
}

/** Fills an entry's sizes and offset from its zip64 extra field where the directory holds 0xFFFFFFFF. */
export function zip64Sizes(
  bytes: Uint8Array,
  extraStart: number,
  extraEnd: number,
  entry: ZipEntry,
) {
  for (let at = extraStart; at + 4 <= extraEnd; ) {
    const id = u16(bytes, at);
    const length = u16(bytes, at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      if (entry.size === 0xffffffff) {
        entry.size = u64(bytes, field);
        field += 8;
      }
      if (entry.compressedSize === 0xffffffff) {
        entry.compressedSize = u64(bytes, field);
        field += 8;
      }
      if (entry.localOffset === 0xffffffff) entry.localOffset = u64(bytes, field);
      return;
    }
    at += 4 + length;
  }
}
