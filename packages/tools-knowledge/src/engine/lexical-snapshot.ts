/**
 * The lexical index snapshot (what {@link LexicalEngine.toBytes} writes and
 * {@link LexicalEngine.fromBytes} reads): magic, header, field count, document and term counts,
 * average field lengths, the ids (JSON, `null` for a discarded document), the terms in order
 * (newline-joined), every document's field lengths, then per field the postings of each term in
 * term order (count, then gap and frequency − 1 pairs), all varints (see `lexical-byte-codec`).
 *
 * @internal
 */
import {
  ByteReader,
  ByteWriter,
  copyRun,
  LexicalSnapshotError,
  putVarint,
  readCount,
  truncatedOrLong,
} from "./lexical-byte-codec.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The snapshot's first eight bytes. */
export const SNAPSHOT_MAGIC = [0x41, 0x47, 0x54, 0x4c, 0x45, 0x58, 0x49, 0x58]; // "AGTLEXIX"
/**
 * A snapshot kept for the next one: a save after a small change copies the postings of every
 * term that did not change instead of encoding them again.
 */
export interface EncodedSnapshot {
  /** The snapshot (never handed out: callers get copies). */
  bytes: Uint8Array;
  /** Terms it holds: term numbers below this. */
  termCount: number;
  /** Its terms section (length prefix included): `bytes[termsStart … termsEnd)`. */
  termsStart: number;
  termsEnd: number;
  /** Per field, by term number: `[start, end)` of the term's record (count and pairs). */
  spans: Int32Array[];
  /** Per field, the postings it holds. */
  totals: number[];
}

/** The sealed postings of one field: term `t` owns `documents[offsets[t] … offsets[t + 1])`. */
export interface SealedField {
  offsets: Int32Array;
  documents: Int32Array;
  frequencies: Int32Array;
}

/** What the snapshot encoder reads of an engine. */
export interface SnapshotSource {
  fieldCount: number;
  ids: ReadonlyArray<string | undefined>;
  lengths: readonly Int32Array[];
  averages: readonly number[];
  terms: readonly string[];
  /** Every term number, in term order. */
  order: Int32Array;
  /** Terms numbered below this have sealed postings. */
  sealedTerms: number;
  sealed: readonly SealedField[];
  /** Per field, per term: postings added since the last compaction, `[document, frequency, …]`. */
  fresh: ReadonlyArray<ReadonlyArray<number[] | undefined>>;
  freshPostings: number;
  /** By term number: 1 when the term got postings since `previous` was taken. */
  changed: Uint8Array;
  /** The last snapshot, to copy unchanged terms from. */
  previous: EncodedSnapshot | undefined;
}

/** A snapshot read back: the engine's arrays, every posting sealed. */
export interface DecodedSnapshot {
  /** By document number; `undefined` for a discarded document. */
  ids: Array<string | undefined>;
  /** Document number by id. */
  numbers: Map<string, number>;
  /** Live documents. */
  documentTotal: number;
  /** Discarded documents. */
  dirt: number;
  averages: number[];
  lengths: Int32Array[];
  /** In order. */
  terms: string[];
  sealed: SealedField[];
  /** The snapshot, as kept for the next encode. */
  encoded: EncodedSnapshot;
}

/**
 * The index as bytes for {@link LexicalEngine.fromBytes}: magic, header, field count, document
 * and term counts, average field lengths, the ids (JSON, `null` for a discarded document),
 * the terms in order (newline-joined), every document's field lengths, then per field the
 * postings of each term in term order (count, then gap and frequency − 1 pairs), all varints.
 * Discarded documents keep their numbers and postings until a compaction, so a term's postings
 * change only when documents are added to it: a snapshot after a small change copies every
 * other term's bytes from the previous snapshot (kept in memory) and encodes only the changed
 * terms (on 2,000 files: milliseconds instead of tens).
 *
 * @param source - the engine's arrays
 * @param header - numbers written after the magic (format and tokenizer versions)
 * @returns the snapshot (its bytes stay the engine's: callers get copies)
 */
export function encodeSnapshot(source: SnapshotSource, header: readonly number[]): EncodedSnapshot {
  const documents = source.ids.length;
  const order = source.order;
  const previous = source.previous;
  const reusable = previous !== undefined && previous.termCount <= source.terms.length;
  const postings = source.sealed.reduce((sum, field) => sum + field.documents.length, 0);
  const writer = new ByteWriter(
    reusable
      ? previous.bytes.length + documents * 8 + source.freshPostings * 3 + 4096
      : 64 + documents * 8 + (postings + source.freshPostings) * 3 + order.length * 10,
  );
  writer.reserve(SNAPSHOT_MAGIC.length);
  writer.bytes.set(SNAPSHOT_MAGIC, 0);
  writer.length = SNAPSHOT_MAGIC.length;
  writer.varint(header.length);
  for (const value of header) writer.varint(value);
  writer.varint(source.fieldCount);
  writer.varint(documents);
  writer.varint(order.length);
  for (const average of source.averages) writer.float64(average);
  writer.run(encoder.encode(JSON.stringify(source.ids)));
  const termsStart = writer.length;
  if (reusable && previous.termCount === order.length) {
    const section = previous.bytes.subarray(previous.termsStart, previous.termsEnd);
    writer.reserve(section.length);
    writer.bytes.set(section, writer.length);
    writer.length += section.length;
  } else {
    const terms = new Array<string>(order.length);
    for (let rank = 0; rank < order.length; rank += 1)
      terms[rank] = source.terms[order[rank] as number] as string;
    writer.run(encoder.encode(terms.join("\n")));
  }
  const termsEnd = writer.length;
  for (const lengths of source.lengths)
    for (let document = 0; document < documents; document += 1)
      writer.varint(lengths[document] as number);
  const spans: Int32Array[] = [];
  const totals: number[] = [];
  for (let field = 0; field < source.fieldCount; field += 1) {
    const written = writeFieldPostings(writer, source, field, reusable ? previous : undefined);
    spans.push(written.spans);
    totals.push(written.total);
  }
  const bytes = writer.bytes.subarray(0, writer.length);
  return { bytes, termCount: order.length, termsStart, termsEnd, spans, totals };
}

/**
 * One field's postings in term order: their total (a 5-byte varint, written last), then per
 * term its record — the count and the (gap, frequency − 1) varint pairs. A term that got no
 * postings since `previous` is copied from it (neighbouring terms in one copy); the others are
 * encoded in a tight loop, room reserved per term and varints written inline.
 *
 * @returns where each term's record sits in the new snapshot, by term number; the postings
 */
function writeFieldPostings(
  writer: ByteWriter,
  source: SnapshotSource,
  field: number,
  previous: EncodedSnapshot | undefined,
): { spans: Int32Array; total: number } {
  const order = source.order;
  const sealed = source.sealed[field] as SealedField;
  const fresh = source.fresh[field] as Array<number[] | undefined>;
  const sealedTerms = source.sealedTerms;
  const offsets = sealed.offsets;
  const sealedDocuments = sealed.documents;
  const sealedFrequencies = sealed.frequencies;
  const changed = source.changed;
  const spans = new Int32Array(source.terms.length * 2);
  const oldBytes = previous?.bytes;
  const oldSpans = previous?.spans[field];
  const oldTerms = previous?.termCount ?? 0;
  writer.reserve(5);
  const totalAt = writer.length;
  let bytes = writer.bytes;
  let position = totalAt + 5;
  // Copied terms keep their counts: the old total, corrected by the terms encoded anew.
  let total = previous?.totals[field] ?? 0;
  // A pending copy from the previous snapshot: bytes [runStart, runEnd).
  let runStart = -1;
  let runEnd = -1;
  for (let rank = 0; rank < order.length; rank += 1) {
    const term = order[rank] as number;
    const copied = oldSpans !== undefined && term < oldTerms;
    if (copied && changed[term] === 0) {
      const start = oldSpans[term * 2] as number;
      const end = oldSpans[term * 2 + 1] as number;
      if (runStart >= 0 && start === runEnd) runEnd = end;
      else {
        if (runStart >= 0) {
          position = copyRun(writer, position, oldBytes as Uint8Array, runStart, runEnd);
          bytes = writer.bytes;
        }
        runStart = start;
        runEnd = end;
      }
      const at = position + (runEnd - runStart) - (end - start);
      spans[term * 2] = at;
      spans[term * 2 + 1] = at + (end - start);
      continue;
    }
    if (runStart >= 0) {
      position = copyRun(writer, position, oldBytes as Uint8Array, runStart, runEnd);
      bytes = writer.bytes;
      runStart = -1;
    }
    const list = fresh[term];
    let count = list === undefined ? 0 : list.length >>> 1;
    if (term < sealedTerms) count += (offsets[term + 1] as number) - (offsets[term] as number);
    total += count;
    if (copied) total -= readCount(oldBytes as Uint8Array, oldSpans[term * 2] as number);
    // Each varint below 2^32 takes at most 5 bytes.
    if (position + 5 + count * 10 > bytes.length) {
      writer.length = position;
      writer.reserve(5 + count * 10);
      bytes = writer.bytes;
    }
    spans[term * 2] = position;
    position = putVarint(bytes, position, count);
    let previousDocument = -1;
    if (term < sealedTerms) {
      const last = offsets[term + 1] as number;
      for (let at = offsets[term] as number; at < last; at += 1) {
        const document = sealedDocuments[at] as number;
        position = putVarint(bytes, position, document - previousDocument - 1);
        position = putVarint(bytes, position, (sealedFrequencies[at] as number) - 1);
        previousDocument = document;
      }
    }
    if (list !== undefined) {
      for (let at = 0; at < list.length; at += 2) {
        const document = list[at] as number;
        position = putVarint(bytes, position, document - previousDocument - 1);
        position = putVarint(bytes, position, (list[at + 1] as number) - 1);
        previousDocument = document;
      }
    }
    spans[term * 2 + 1] = position;
  }
  if (runStart >= 0) {
    position = copyRun(writer, position, oldBytes as Uint8Array, runStart, runEnd);
    bytes = writer.bytes;
  }
  // The total, padded to five bytes (continuation bits on the first four).
  bytes[totalAt] = (total & 0x7f) | 0x80;
  bytes[totalAt + 1] = ((total >>> 7) & 0x7f) | 0x80;
  bytes[totalAt + 2] = ((total >>> 14) & 0x7f) | 0x80;
  bytes[totalAt + 3] = ((total >>> 21) & 0x7f) | 0x80;
  bytes[totalAt + 4] = (total >>> 28) & 0x0f;
  writer.length = position;
  return { spans, total };
}

/**
 * Reads a snapshot; every byte is bounds-checked and every count checked against what is there.
 *
 * @param bytes - the snapshot
 * @param header - the header integers the snapshot must carry
 * @param fieldCount - fields per document
 * @returns the engine's arrays
 * @throws {LexicalSnapshotError} for bytes that are not such a snapshot, or are damaged
 */
export function decodeSnapshot(
  bytes: Uint8Array,
  header: readonly number[],
  fieldCount: number,
): DecodedSnapshot {
  const reader = openSnapshot(bytes, header, fieldCount);
  const documents = reader.varint();
  const termCount = reader.varint();
  const averages = new Array<number>(fieldCount).fill(0);
  for (let field = 0; field < fieldCount; field += 1) {
    const average = reader.float64();
    if (!Number.isFinite(average) || average < 0)
      throw new LexicalSnapshotError("the snapshot has a bad average field length");
    averages[field] = average;
  }
  const { ids, numbers, live, terms, termsStart } = readIdsAndTerms(reader, documents, termCount);
  const termsEnd = reader.offset;
  const lengths = Array.from({ length: fieldCount }, () => {
    const fieldLengths = new Int32Array(Math.max(64, documents));
    for (let document = 0; document < documents; document += 1)
      fieldLengths[document] = reader.varint();
    return fieldLengths;
  });
  for (let number = 1; number < termCount; number += 1) {
    if (!((terms[number - 1] as string) < (terms[number] as string)))
      throw new LexicalSnapshotError("the snapshot's terms are not in order");
  }
  const sealed: SealedField[] = [];
  const spans: Int32Array[] = [];
  const totals: number[] = [];
  for (let field = 0; field < fieldCount; field += 1) {
    const postings = readFieldPostings(bytes, reader, termCount, documents);
    sealed.push(postings.field);
    spans.push(postings.spans);
    totals.push(postings.total);
  }
  if (!reader.done) throw new LexicalSnapshotError("the snapshot has bytes after its end");
  return {
    ids,
    numbers,
    documentTotal: live,
    dirt: documents - live,
    averages,
    lengths,
    terms,
    sealed,
    encoded: { bytes, termCount, termsStart, termsEnd, spans, totals },
  };
}

/** Checks the magic, the header and the field count; the reader is placed after them. */
function openSnapshot(
  bytes: Uint8Array,
  header: readonly number[],
  fieldCount: number,
): ByteReader {
  if (
    bytes.length < SNAPSHOT_MAGIC.length ||
    SNAPSHOT_MAGIC.some((byte, index) => bytes[index] !== byte)
  )
    throw new LexicalSnapshotError("the bytes are not a lexical index snapshot");
  const reader = new ByteReader(bytes);
  reader.offset = SNAPSHOT_MAGIC.length;
  const headerLength = reader.varint();
  if (headerLength !== header.length)
    throw new LexicalSnapshotError("the snapshot's header has another length");
  for (const [index, expected] of header.entries()) {
    const value = reader.varint();
    if (value !== expected)
      throw new LexicalSnapshotError(
        `the snapshot has ${index === 0 ? "version" : `header value ${index}`} ${value}, not ${expected}`,
      );
  }
  if (reader.varint() !== fieldCount)
    throw new LexicalSnapshotError("the snapshot has another number of fields");
  return reader;
}

/** The ids (JSON) and the terms (newline-joined), checked against the counts; where the terms start. */
function readIdsAndTerms(
  reader: ByteReader,
  documents: number,
  termCount: number,
): {
  ids: Array<string | undefined>;
  numbers: Map<string, number>;
  live: number;
  terms: string[];
  termsStart: number;
} {
  let parsed: unknown;
  let terms: string[];
  let termsStart: number;
  try {
    parsed = JSON.parse(decoder.decode(reader.run()));
    termsStart = reader.offset;
    const text = decoder.decode(reader.run());
    terms = termCount === 0 ? [] : text.split("\n");
  } catch {
    throw new LexicalSnapshotError("the snapshot's ids or terms are unreadable");
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== documents ||
    !parsed.every((id) => (typeof id === "string" && id.length > 0) || id === null)
  )
    throw new LexicalSnapshotError("the snapshot's ids do not match its document count");
  if (terms.length !== termCount)
    throw new LexicalSnapshotError("the snapshot's terms do not match its term count");
  const ids = new Array<string | undefined>(documents);
  const numbers = new Map<string, number>();
  let live = 0;
  for (let document = 0; document < documents; document += 1) {
    const id = parsed[document] as string | null;
    if (id === null) continue;
    if (numbers.has(id)) throw new LexicalSnapshotError(`the snapshot repeats id ${id}`);
    numbers.set(id, document);
    ids[document] = id;
    live += 1;
  }
  return { ids, numbers, live, terms, termsStart };
}

/**
 * One field's postings: the total, then per term its count and (gap, frequency − 1) pairs — the
 * hot loop of a load (millions of varints), decoded inline, every byte bounds-checked.
 */
function readFieldPostings(
  bytes: Uint8Array,
  reader: ByteReader,
  termCount: number,
  documents: number,
): { field: SealedField; spans: Int32Array; total: number } {
  const fieldSpans = new Int32Array(termCount * 2);
  const total = reader.varint();
  if (total > bytes.length)
    throw new LexicalSnapshotError("the snapshot's posting count is impossible");
  const offsets = new Int32Array(termCount + 1);
  const documentsOf = new Int32Array(total);
  const frequencies = new Int32Array(total);
  // The hot loop of a load (millions of varints): decoded inline, every byte bounds-checked.
  const end = bytes.length;
  let offset = reader.offset;
  let at = 0;
  for (let term = 0; term < termCount; term += 1) {
    offsets[term] = at;
    fieldSpans[term * 2] = offset;
    let count = 0;
    for (let shift = 0; ; shift += 7) {
      if (offset >= end || shift > 28) throw truncatedOrLong(offset >= end);
      const byte = bytes[offset++] as number;
      count += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    if (at + count > total)
      throw new LexicalSnapshotError("the snapshot's postings overrun their count");
    let previous = -1;
    for (let index = 0; index < count; index += 1) {
      let gap = 0;
      for (let shift = 0; ; shift += 7) {
        if (offset >= end || shift > 28) throw truncatedOrLong(offset >= end);
        const byte = bytes[offset++] as number;
        gap += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      let frequency = 0;
      for (let shift = 0; ; shift += 7) {
        if (offset >= end || shift > 28) throw truncatedOrLong(offset >= end);
        const byte = bytes[offset++] as number;
        frequency += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      const document = previous + 1 + gap;
      if (document >= documents)
        throw new LexicalSnapshotError("a posting names a document that is not there");
      if (frequency >= 0x7fffffff)
        throw new LexicalSnapshotError("a posting's frequency is impossible");
      documentsOf[at] = document;
      frequencies[at] = frequency + 1;
      previous = document;
      at += 1;
    }
    fieldSpans[term * 2 + 1] = offset;
  }
  reader.offset = offset;
  if (at !== total)
    throw new LexicalSnapshotError("the snapshot's postings do not match their count");
  offsets[termCount] = total;
  return { field: { offsets, documents: documentsOf, frequencies }, spans: fieldSpans, total };
}

/**
 * One field's postings all sealed, by term number: the sealed part of each term, then its fresh
 * pairs (both in ascending document order).
 *
 * @param old - the sealed part (terms below `sealedTerms`)
 * @param fresh - per term, `[document, frequency, …]` added since
 * @param sealedTerms - terms with a sealed part
 * @param termCount - every term
 * @returns the sealed field
 */
export function sealPostings(
  old: SealedField,
  fresh: ReadonlyArray<number[] | undefined>,
  sealedTerms: number,
  termCount: number,
): SealedField {
  const offsets = new Int32Array(termCount + 1);
  let total = 0;
  for (let term = 0; term < termCount; term += 1) {
    offsets[term] = total;
    if (term < sealedTerms)
      total += (old.offsets[term + 1] as number) - (old.offsets[term] as number);
    total += (fresh[term]?.length ?? 0) >>> 1;
  }
  offsets[termCount] = total;
  const documents = new Int32Array(total);
  const frequencies = new Int32Array(total);
  let at = 0;
  for (let term = 0; term < termCount; term += 1) {
    if (term < sealedTerms) {
      const start = old.offsets[term] as number;
      const end = old.offsets[term + 1] as number;
      documents.set(old.documents.subarray(start, end), at);
      frequencies.set(old.frequencies.subarray(start, end), at);
      at += end - start;
    }
    const list = fresh[term];
    if (list !== undefined)
      for (let index = 0; index < list.length; index += 2) {
        documents[at] = list[index] as number;
        frequencies[at] = list[index + 1] as number;
        at += 1;
      }
  }
  return { offsets, documents, frequencies };
}
