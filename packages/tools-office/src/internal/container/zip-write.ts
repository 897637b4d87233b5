import { crc32, deflateRawSync } from "node:zlib";
import { ToolFailureError } from "@agentool/contract";

/**
 * Rewriting a zip archive in place: the entries given new content are re-encoded, every other
 * entry is copied byte for byte — its local header, its compressed data and its data descriptor
 * exactly as they were, in the same order — and the central directory is copied entry by entry
 * with only the offsets (and, for a changed entry, its sizes, crc and flags) brought up to date.
 * A changed entry keeps its compression method (stored stays stored: OpenDocument's `mimetype`),
 * its timestamps, attributes and extra fields. Open the archive with `openZip` first (it refuses
 * hostile names, encryption and bombs); this only rewrites what that accepted.
 *
 * @internal
 */

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
}
function u32(bytes: Uint8Array, at: number): number {
  return (u16(bytes, at) + u16(bytes, at + 2) * 0x10000) >>> 0;
}
function put16(bytes: Uint8Array, at: number, value: number): void {
  bytes[at] = value & 0xff;
  bytes[at + 1] = (value >>> 8) & 0xff;
}
function put32(bytes: Uint8Array, at: number, value: number): void {
  put16(bytes, at, value & 0xffff);
  put16(bytes, at + 2, (value >>> 16) & 0xffff);
}

interface RawEntry {
  name: string;
  /** The central directory record, as stored. */
  central: Uint8Array;
  localOffset: number;
}

function unsupported(what: string): ToolFailureError {
  return new ToolFailureError(
    "UNSUPPORTED",
    `The archive cannot be rewritten in place (${what}).`,
    {
      hint: "Open and re-save the document in an office application, then edit it again.",
    },
  );
}

function readDirectory(bytes: Uint8Array): { entries: RawEntry[]; start: number; end: number } {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at -= 1) {
    if (u32(bytes, at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw unsupported("no end-of-central-directory record");
  const count = u16(bytes, end + 10);
  const start = u32(bytes, end + 16);
  if (count === 0xffff || start === 0xffffffff) throw unsupported("a zip64 archive");
  const decoder = new TextDecoder();
  const entries: RawEntry[] = [];
  let at = start;
  for (let index = 0; index < count; index += 1) {
    if (u32(bytes, at) !== 0x02014b50) throw unsupported("a damaged central directory");
    const length = 46 + u16(bytes, at + 28) + u16(bytes, at + 30) + u16(bytes, at + 32);
    const name = decoder.decode(bytes.subarray(at + 46, at + 46 + u16(bytes, at + 28)));
    const localOffset = u32(bytes, at + 42);
    if (localOffset === 0xffffffff) throw unsupported("a zip64 entry");
    entries.push({ name, central: bytes.subarray(at, at + length), localOffset });
    at += length;
  }
  return { entries, start, end };
}

/** The bytes of each entry's local record (header, data, descriptor), up to the next record. */
function localRecords(entries: readonly RawEntry[], directoryStart: number, bytes: Uint8Array) {
  const offsets = [...new Set(entries.map((entry) => entry.localOffset))].sort((a, b) => a - b);
  const records = new Map<number, Uint8Array>();
  offsets.forEach((offset, index) => {
    const next = offsets[index + 1] ?? directoryStart;
    if (u32(bytes, offset) !== 0x04034b50) throw unsupported("a missing local header");
    records.set(offset, bytes.subarray(offset, next));
  });
  return { offsets, records };
}

interface Encoded {
  local: Uint8Array;
  central: Uint8Array;
}

/** A changed entry: a new local header and data (no descriptor), its central record patched. */
function encodeChanged(entry: RawEntry, oldLocal: Uint8Array, content: Uint8Array): Encoded {
  const method = u16(entry.central, 10) === 0 ? 0 : 8;
  const data = method === 0 ? content : new Uint8Array(deflateRawSync(content, { level: 6 }));
  const checksum = crc32(content) >>> 0;
  const nameAndExtra = oldLocal.subarray(30, 30 + u16(oldLocal, 26) + u16(oldLocal, 28));
  const local = new Uint8Array(30 + nameAndExtra.length + data.length);
  local.set(oldLocal.subarray(0, 30));
  local.set(nameAndExtra, 30);
  local.set(data, 30 + nameAndExtra.length);
  const flags = u16(oldLocal, 6) & ~0x8;
  put16(local, 6, flags);
  put16(local, 8, method);
  put32(local, 14, checksum);
  put32(local, 18, data.length);
  put32(local, 22, content.length);
  const central = new Uint8Array(entry.central);
  put16(central, 8, u16(central, 8) & ~0x8);
  put16(central, 10, method);
  put32(central, 16, checksum);
  put32(central, 20, data.length);
  put32(central, 24, content.length);
  return { local, central };
}

/**
 * Rewrites an archive with some entries replaced or removed; everything else stays byte-identical.
 *
 * @param bytes - the archive as read
 * @param changes - entry name → its new content, or `null` to remove the entry
 * @returns the new archive's bytes
 * @throws ToolFailureError `UNSUPPORTED` for zip64 archives or a damaged layout, `INTERNAL`
 *   when a changed name is not in the archive
 * @example
 * rewriteZip(docx, new Map([["word/document.xml", new TextEncoder().encode(xml)]]));
 */
export function rewriteZip(
  bytes: Uint8Array,
  changes: ReadonlyMap<string, Uint8Array | null>,
): Uint8Array {
  const { entries, start, end } = readDirectory(bytes);
  for (const name of changes.keys()) {
    if (!entries.some((entry) => entry.name === name)) {
      throw new ToolFailureError("INTERNAL", `rewriteZip: the archive has no entry ${name}.`);
    }
  }
  const { offsets, records } = localRecords(entries, start, bytes);
  const byOffset = new Map(entries.map((entry) => [entry.localOffset, entry]));
  const parts: Uint8Array[] = [];
  const newOffset = new Map<number, number>();
  const centrals = new Map<RawEntry, Uint8Array>();
  let position = 0;
  for (const offset of offsets) {
    const record = records.get(offset) as Uint8Array;
    const entry = byOffset.get(offset);
    const change = entry === undefined ? undefined : changes.get(entry.name);
    if (entry !== undefined && change === null) continue;
    newOffset.set(offset, position);
    if (entry !== undefined && change !== undefined && change !== null) {
      const encoded = encodeChanged(entry, record, change);
      parts.push(encoded.local);
      centrals.set(entry, encoded.central);
      position += encoded.local.length;
    } else {
      parts.push(record);
      position += record.length;
    }
  }
  const directoryStart = position;
  let kept = 0;
  for (const entry of entries) {
    if (changes.get(entry.name) === null) continue;
    const central = centrals.get(entry) ?? new Uint8Array(entry.central);
    put32(central, 42, newOffset.get(entry.localOffset) ?? 0);
    parts.push(central);
    position += central.length;
    kept += 1;
  }
  const tail = new Uint8Array(bytes.subarray(end));
  put16(tail, 8, kept);
  put16(tail, 10, kept);
  put32(tail, 12, position - directoryStart);
  put32(tail, 16, directoryStart);
  parts.push(tail);
  const out = new Uint8Array(position + tail.length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
