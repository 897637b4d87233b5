/**
 * The BM25 engine under {@link LexicalIndex}: MiniSearch 7.2's scoring (BM25+, field boosts,
 * prefix matches at its prefix weight, the "quality" factor of distinct query terms matched),
 * restated over flat arrays instead of MiniSearch's map of maps — which is what made building
 * slow (one `Map#set` per posting, a radix-tree insertion per new term), loading slow (every map
 * rebuilt) and the heap large.
 *
 * Layout:
 * - documents are numbered densely in the order they were added; per field, the distinct-term
 *   count of each (MiniSearch's field length) sits in an `Int32Array`; a discarded document keeps
 *   its number, marked dead, until the next compaction;
 * - terms are numbered in a `Map`; a sorted view (term numbers by term, plus a short unsorted tail
 *   of terms added since) serves prefix matching by binary search;
 * - postings, per field: a sealed part in compressed-row form (per term, a range of document
 *   numbers and frequencies in two `Int32Array`s) and, for documents added since the last
 *   compaction, one plain array per term of `[document, frequency, …]` pairs. Both are in
 *   ascending document order, sealed first.
 *
 * A compaction (after enough removals, in the background) rewrites it all: dead documents and
 * terms without postings dropped, documents renumbered in order, terms renumbered in sorted order,
 * every posting sealed. A snapshot is the index as varints, written straight from the arrays
 * (no compaction needed; dead documents keep their numbers and postings, so a snapshot after a
 * small change re-encodes only the terms that changed); loading one seals every posting.
 *
 * Scores equal MiniSearch's `search` with the same options to within floating-point rounding
 * (the tests compare them on a corpus); ties are broken by the order documents were first matched
 * in, as MiniSearch's stable sort does (prefix terms are visited in sorted order here, in radix-tree
 * order there, so equal-scored documents matched only by a prefix may come in another order).
 *
 * @internal
 */
import {
  countDocumentTermNumbers,
  countedTermNumber,
  termCountOf,
  termNumberingGeneration,
  termOfNumber,
} from "./tokenize.js";

/** How the engine scores. */
export interface LexicalScoring {
  /** Boost per field number. */
  fieldBoosts: readonly number[];
  /** BM25+ parameters. */
  bm25: { k: number; b: number; d: number };
  /** MiniSearch's weight of a prefix match. */
  prefixWeight: number;
  /** Whether a query term also matches longer terms it is a prefix of. */
  prefix: (term: string) => boolean;
  /** Query text → query terms. */
  tokenize: (query: string) => string[];
}

/** One scored document. */
export interface ScoredDocument {
  /** The document id. */
  id: string;
  /** Its score. */
  score: number;
}

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

const SNAPSHOT_MAGIC = [0x41, 0x47, 0x54, 0x4c, 0x45, 0x58, 0x49, 0x58]; // "AGTLEXIX"
const EMPTY = new Int32Array(0);
/** Unsorted new terms kept beside the sorted view before it is re-sorted. */
const UNSORTED_TAIL_LIMIT = 2048;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** A growable byte buffer of varints, float64s and byte runs. */
class ByteWriter {
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
class ByteReader {
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

/**
 * An engine's whole state as plain arrays, for moving a finished build between threads without
 * a snapshot's encode and decode: {@link LexicalEngine.toRaw} and {@link LexicalEngine.fromRaw}.
 * Every typed array is listed in `transfer`.
 */
export interface RawLexicalEngine {
  fieldCount: number;
  ids: Array<string | undefined>;
  lengths: Int32Array[];
  averages: number[];
  documentTotal: number;
  dirt: number;
  terms: string[];
  sorted: Int32Array;
  sealed: SealedField[];
  snapshot: EncodedSnapshot;
  transfer: ArrayBuffer[];
}

/** The sealed postings of one field: term `t` owns `documents[offsets[t] … offsets[t + 1])`. */
export interface SealedField {
  offsets: Int32Array;
  documents: Int32Array;
  frequencies: Int32Array;
}

/** See the module comment. */
export class LexicalEngine {
  private readonly fieldCount: number;

  // Documents.
  private ids: Array<string | undefined> = [];
  private readonly numbers = new Map<string, number>();
  private lengths: Int32Array[];
  private averages: number[];
  private documentTotal = 0;
  private dirt = 0;

  // Terms.
  private termNumbers = new Map<string, number>();
  private terms: string[] = [];
  /** Term numbers in term order; terms numbered from `sortedThrough` on are the unsorted tail. */
  private sorted: Int32Array = EMPTY;
  private sortedThrough = 0;

  // Postings.
  private sealedTerms = 0;
  private sealed: SealedField[];
  private fresh: Array<Array<number[] | undefined>>;
  private freshPostings = 0;

  // The last snapshot (see toBytes): its bytes and where each term's postings sit in them.
  private encoded: EncodedSnapshot | undefined;
  /** By term number: 1 when the term got postings since {@link encoded} was taken. */
  private changed = new Uint8Array(0);

  // Tokenizer term number → engine term number, for the current tokenizer generation.
  private byTokenizerNumber: Int32Array = new Int32Array(0);
  private tokenizerGeneration = -1;

  // Search scratch, by document number.
  private total = new Float64Array(0);
  private termTotal = new Float64Array(0);
  private quality = new Uint16Array(0);
  private termMark = new Int32Array(0);
  private norms: Float64Array[] | undefined;

  /**
   * @param fieldCount - fields per document
   * @param scoring - how searches score
   */
  constructor(
    fieldCount: number,
    private readonly scoring: LexicalScoring,
  ) {
    this.fieldCount = fieldCount;
    this.lengths = Array.from({ length: fieldCount }, () => new Int32Array(64));
    this.averages = new Array<number>(fieldCount).fill(0);
    this.sealed = Array.from({ length: fieldCount }, () => ({
      offsets: new Int32Array(1),
      documents: EMPTY,
      frequencies: EMPTY,
    }));
    this.fresh = Array.from({ length: fieldCount }, () => []);
  }

  /** Live documents. */
  get size(): number {
    return this.documentTotal;
  }

  /** Discarded documents still in the postings (until the next compaction). */
  get dirtCount(): number {
    return this.dirt;
  }

  /** The share of document numbers in use that are discarded (0 … 1). */
  get dirtFactor(): number {
    return this.dirt / (1 + this.documentTotal + this.dirt);
  }

  /** Distinct terms with postings (dead ones included until a compaction). */
  get termCount(): number {
    return this.terms.length;
  }

  /**
   * Whether a live document has this id.
   *
   * @param id - a document id
   * @returns `true` when indexed
   */
  has(id: string): boolean {
    return this.numbers.has(id);
  }

  /**
   * Adds one document (its id must not be indexed: discard the old version first).
   *
   * @param id - its id
   * @param fields - its field texts, in field order
   */
  add(id: string, fields: readonly string[]): void {
    if (this.numbers.has(id)) throw new Error(`duplicate document id ${id}`);
    const document = this.ids.length;
    this.ids.push(id);
    this.numbers.set(id, document);
    this.documentTotal += 1;
    this.ensureDocumentCapacity(document + 1);
    const count = this.documentTotal - 1;
    for (let field = 0; field < this.fieldCount; field += 1) {
      const distinct = countDocumentTermNumbers(fields[field] ?? "");
      const generation = termNumberingGeneration();
      if (generation !== this.tokenizerGeneration) {
        this.tokenizerGeneration = generation;
        this.byTokenizerNumber = new Int32Array(Math.max(1024, this.byTokenizerNumber.length));
      }
      (this.lengths[field] as Int32Array)[document] = distinct;
      // MiniSearch's running average, in its order of operations.
      this.averages[field] = ((this.averages[field] as number) * count + distinct) / (count + 1);
      const postings = this.fresh[field] as Array<number[] | undefined>;
      for (let index = 0; index < distinct; index += 1) {
        const tokenizerNumber = countedTermNumber(index);
        const frequency = termCountOf(tokenizerNumber);
        const termNumber = this.engineNumberOf(termOfNumber(tokenizerNumber), tokenizerNumber);
        let list = postings[termNumber];
        if (list === undefined) {
          list = [];
          postings[termNumber] = list;
        }
        list.push(document, frequency);
        this.changed[termNumber] = 1;
      }
      this.freshPostings += distinct;
    }
    this.norms = undefined;
  }

  private engineNumberOf(term: string, tokenizerNumber: number): number {
    if (tokenizerNumber >= this.byTokenizerNumber.length) {
      const grown = new Int32Array(
        Math.max(tokenizerNumber + 1, this.byTokenizerNumber.length * 2),
      );
      grown.set(this.byTokenizerNumber);
      this.byTokenizerNumber = grown;
    }
    // Stored plus one, so 0 means "not looked up yet".
    const known = (this.byTokenizerNumber[tokenizerNumber] as number) - 1;
    if (known >= 0 && this.terms[known] === term) return known;
    const number = this.numberOfTerm(term);
    this.byTokenizerNumber[tokenizerNumber] = number + 1;
    return number;
  }

  /** The term's number, a new one when it is new. */
  private numberOfTerm(term: string): number {
    let number = this.termNumbers.get(term);
    if (number === undefined) {
      number = this.terms.length;
      this.terms.push(term);
      // Keep every field's array dense (one slot per term): a sparse array turns into a slow
      // dictionary.
      for (const lists of this.fresh) lists.push(undefined);
      this.termNumbers.set(term, number);
      if (number >= this.changed.length) {
        const grown = new Uint8Array(Math.max(1024, number * 2));
        grown.set(this.changed);
        this.changed = grown;
      }
    }
    return number;
  }

  /**
   * Appends every live document of another engine (same fields and scoring) after this one's, as
   * if they had been added here in their order: how a build split between two threads is joined.
   * Their postings land in the per-term arrays; the other engine is left as it was.
   *
   * @param other - the engine whose documents join this one
   * @throws Error when both hold a document with the same id (nothing is changed then)
   */
  absorb(other: LexicalEngine): void {
    if (other.fieldCount !== this.fieldCount) throw new Error("the engines have other fields");
    for (const id of other.numbers.keys())
      if (this.numbers.has(id)) throw new Error(`duplicate document id ${id}`);
    const renumber = new Int32Array(other.ids.length);
    const first = this.ids.length;
    const ownCount = this.documentTotal;
    const added = other.documentTotal;
    this.ensureDocumentCapacity(first + added);
    for (let document = 0; document < other.ids.length; document += 1) {
      const id = other.ids[document];
      if (id === undefined) {
        renumber[document] = -1;
        continue;
      }
      const next = this.ids.length;
      renumber[document] = next;
      this.ids.push(id);
      this.numbers.set(id, next);
      for (let field = 0; field < this.fieldCount; field += 1)
        (this.lengths[field] as Int32Array)[next] = (other.lengths[field] as Int32Array)[
          document
        ] as number;
    }
    for (let field = 0; field < this.fieldCount; field += 1) {
      const total = ownCount + added;
      this.averages[field] =
        total === 0
          ? 0
          : ((this.averages[field] as number) * ownCount +
              (other.averages[field] as number) * added) /
            total;
    }
    this.documentTotal += added;
    for (let term = 0; term < other.terms.length; term += 1) {
      let number = -1;
      for (let field = 0; field < this.fieldCount; field += 1) {
        const sealed = other.sealed[field] as SealedField;
        const list = (other.fresh[field] as Array<number[] | undefined>)[term];
        const start = term < other.sealedTerms ? (sealed.offsets[term] as number) : 0;
        const end = term < other.sealedTerms ? (sealed.offsets[term + 1] as number) : 0;
        if (start === end && list === undefined) continue;
        let target: number[] | undefined;
        const push = (document: number, frequency: number) => {
          const mapped = renumber[document] as number;
          if (mapped < 0) return;
          if (target === undefined) {
            if (number < 0) number = this.numberOfTerm(other.terms[term] as string);
            const lists = this.fresh[field] as Array<number[] | undefined>;
            target = lists[number];
            if (target === undefined) {
              target = [];
              lists[number] = target;
            }
          }
          target.push(mapped, frequency);
          this.changed[number] = 1;
          this.freshPostings += 1;
        };
        for (let at = start; at < end; at += 1)
          push(sealed.documents[at] as number, sealed.frequencies[at] as number);
        if (list !== undefined)
          for (let at = 0; at < list.length; at += 2)
            push(list[at] as number, list[at + 1] as number);
      }
    }
    this.norms = undefined;
  }

  private ensureDocumentCapacity(count: number): void {
    if (count <= (this.lengths[0] as Int32Array).length) return;
    const capacity = Math.max(64, count, (this.lengths[0] as Int32Array).length * 2);
    this.lengths = this.lengths.map((lengths) => {
      const grown = new Int32Array(capacity);
      grown.set(lengths);
      return grown;
    });
  }

  /**
   * Marks a document discarded: searches skip it at once; its postings go at the next compaction.
   *
   * @param id - its id (ignored when not indexed)
   * @returns whether it was indexed
   */
  discard(id: string): boolean {
    const document = this.numbers.get(id);
    if (document === undefined) return false;
    this.numbers.delete(id);
    this.ids[document] = undefined;
    const count = this.documentTotal;
    for (let field = 0; field < this.fieldCount; field += 1) {
      // MiniSearch's removeFieldLength.
      if (count === 1) this.averages[field] = 0;
      else {
        const length = (this.lengths[field] as Int32Array)[document] as number;
        this.averages[field] = ((this.averages[field] as number) * count - length) / (count - 1);
      }
    }
    this.documentTotal -= 1;
    this.dirt += 1;
    this.norms = undefined;
    return true;
  }

  /**
   * Rewrites the index without dead documents and empty terms, everything sealed, terms in sorted
   * order (see the module comment). Cheap when there is nothing to do.
   */
  compact(): void {
    if (this.dirt === 0 && this.freshPostings === 0 && this.sortedThrough === this.terms.length)
      return;
    // Documents and terms are renumbered: the kept snapshot's positions mean nothing any more.
    this.encoded = undefined;
    const oldDocuments = this.ids.length;
    // Old document number → new one (−1: dead).
    const renumber = new Int32Array(oldDocuments);
    const ids: string[] = [];
    const lengths = this.lengths.map(() => new Int32Array(Math.max(64, this.documentTotal)));
    for (let document = 0; document < oldDocuments; document += 1) {
      const id = this.ids[document];
      if (id === undefined) {
        renumber[document] = -1;
        continue;
      }
      const next = ids.length;
      renumber[document] = next;
      ids.push(id);
      this.numbers.set(id, next);
      for (let field = 0; field < this.fieldCount; field += 1)
        (lengths[field] as Int32Array)[next] = (this.lengths[field] as Int32Array)[
          document
        ] as number;
    }
    const order = this.termOrder();
    // Count each term's live postings per field, then fill.
    const counts = Array.from({ length: this.fieldCount }, () => new Int32Array(order.length));
    const alive = new Uint8Array(order.length);
    for (let field = 0; field < this.fieldCount; field += 1) {
      const fieldCounts = counts[field] as Int32Array;
      const sealed = this.sealed[field] as SealedField;
      const fresh = this.fresh[field] as Array<number[] | undefined>;
      for (let rank = 0; rank < order.length; rank += 1) {
        const term = order[rank] as number;
        let live = 0;
        if (term < this.sealedTerms) {
          for (
            let at = sealed.offsets[term] as number;
            at < (sealed.offsets[term + 1] as number);
            at += 1
          )
            if ((renumber[sealed.documents[at] as number] as number) >= 0) live += 1;
        }
        const list = fresh[term];
        if (list !== undefined)
          for (let at = 0; at < list.length; at += 2)
            if ((renumber[list[at] as number] as number) >= 0) live += 1;
        fieldCounts[rank] = live;
        if (live > 0) alive[rank] = 1;
      }
    }
    // New term numbers: sorted order, live terms only.
    const newNumberOfRank = new Int32Array(order.length);
    const terms: string[] = [];
    for (let rank = 0; rank < order.length; rank += 1) {
      if (alive[rank] === 0) {
        newNumberOfRank[rank] = -1;
        continue;
      }
      newNumberOfRank[rank] = terms.length;
      terms.push(this.terms[order[rank] as number] as string);
    }
    const sealedFields: SealedField[] = [];
    for (let field = 0; field < this.fieldCount; field += 1) {
      const fieldCounts = counts[field] as Int32Array;
      const sealed = this.sealed[field] as SealedField;
      const fresh = this.fresh[field] as Array<number[] | undefined>;
      const offsets = new Int32Array(terms.length + 1);
      let total = 0;
      for (let rank = 0; rank < order.length; rank += 1) {
        const number = newNumberOfRank[rank] as number;
        if (number < 0) continue;
        offsets[number] = total;
        total += fieldCounts[rank] as number;
      }
      offsets[terms.length] = total;
      const documents = new Int32Array(total);
      const frequencies = new Int32Array(total);
      let at = 0;
      for (let rank = 0; rank < order.length; rank += 1) {
        if ((newNumberOfRank[rank] as number) < 0) continue;
        const term = order[rank] as number;
        if (term < this.sealedTerms) {
          const end = sealed.offsets[term + 1] as number;
          for (let from = sealed.offsets[term] as number; from < end; from += 1) {
            const document = renumber[sealed.documents[from] as number] as number;
            if (document < 0) continue;
            documents[at] = document;
            frequencies[at] = sealed.frequencies[from] as number;
            at += 1;
          }
        }
        const list = fresh[term];
        if (list !== undefined) {
          for (let from = 0; from < list.length; from += 2) {
            const document = renumber[list[from] as number] as number;
            if (document < 0) continue;
            documents[at] = document;
            frequencies[at] = list[from + 1] as number;
            at += 1;
          }
        }
      }
      sealedFields.push({ offsets, documents, frequencies });
    }
    this.ids = ids;
    this.lengths = lengths;
    this.dirt = 0;
    this.terms = terms;
    this.termNumbers = new Map();
    for (let number = 0; number < terms.length; number += 1)
      this.termNumbers.set(terms[number] as string, number);
    this.sorted = Int32Array.from({ length: terms.length }, (_, index) => index);
    this.sortedThrough = terms.length;
    this.sealedTerms = terms.length;
    this.sealed = sealedFields;
    this.fresh = this.emptyFreshLists(terms.length);
    this.freshPostings = 0;
    this.byTokenizerNumber = new Int32Array(this.byTokenizerNumber.length);
    this.norms = undefined;
  }

  /** One `undefined` slot per term in every field (see `engineNumberOf`). */
  private emptyFreshLists(termCount: number): Array<Array<number[] | undefined>> {
    return Array.from({ length: this.fieldCount }, () =>
      new Array<number[] | undefined>(termCount).fill(undefined),
    );
  }

  /** Every term number, in term order (the sorted view with its tail merged in). */
  private termOrder(): Int32Array {
    this.sortTerms(true);
    return this.sorted;
  }

  /** Merges the unsorted tail into the sorted view (always, or when it has grown long). */
  private sortTerms(always: boolean): void {
    const count = this.terms.length;
    if (this.sortedThrough === count) return;
    if (!always && count - this.sortedThrough < UNSORTED_TAIL_LIMIT) return;
    const terms = this.terms;
    const tail = Array.from(
      { length: count - this.sortedThrough },
      (_, index) => this.sortedThrough + index,
    );
    tail.sort((left, right) => {
      const a = terms[left] as string;
      const b = terms[right] as string;
      return a < b ? -1 : a > b ? 1 : 0;
    });
    const merged = new Int32Array(count);
    let from = 0;
    let next = 0;
    let at = 0;
    const head = this.sorted;
    const headLength = this.sortedThrough;
    while (from < headLength && next < tail.length) {
      const left = head[from] as number;
      const right = tail[next] as number;
      if ((terms[left] as string) <= (terms[right] as string)) {
        merged[at++] = left;
        from += 1;
      } else {
        merged[at++] = right;
        next += 1;
      }
    }
    while (from < headLength) merged[at++] = head[from++] as number;
    while (next < tail.length) merged[at++] = tail[next++] as number;
    this.sorted = merged;
    this.sortedThrough = count;
  }

  /** Term numbers of the terms that start with `prefix` (the term itself included when present). */
  private termsWithPrefix(prefix: string): number[] {
    this.sortTerms(false);
    const terms = this.terms;
    const sorted = this.sorted;
    const found: number[] = [];
    let low = 0;
    let high = this.sortedThrough;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((terms[sorted[middle] as number] as string) < prefix) low = middle + 1;
      else high = middle;
    }
    for (let at = low; at < this.sortedThrough; at += 1) {
      const number = sorted[at] as number;
      if (!(terms[number] as string).startsWith(prefix)) break;
      found.push(number);
    }
    for (let number = this.sortedThrough; number < terms.length; number += 1)
      if ((terms[number] as string).startsWith(prefix)) found.push(number);
    return found;
  }

  private lengthNorms(): Float64Array[] {
    if (this.norms !== undefined) return this.norms;
    const { k, b } = this.scoring.bm25;
    const count = this.ids.length;
    this.norms = this.lengths.map((lengths, field) => {
      const average = this.averages[field] as number;
      const norms = new Float64Array(count);
      for (let document = 0; document < count; document += 1)
        norms[document] = k * (1 - b + (b * (lengths[document] as number)) / average);
      return norms;
    });
    return this.norms;
  }

  /**
   * Best matches first.
   *
   * @param query - the query text
   * @param limit - at most this many (undefined: every match)
   * @param filter - keeps only the ids it accepts (applied before `limit`)
   * @returns the matches
   */
  search(
    query: string,
    limit: number | undefined,
    filter: ((id: string) => boolean) | undefined,
  ): ScoredDocument[] {
    const size = this.ids.length;
    if (this.total.length < size) {
      const capacity = Math.max(size, this.total.length * 2, 64);
      this.total = new Float64Array(capacity);
      this.termTotal = new Float64Array(capacity);
      this.quality = new Uint16Array(capacity);
      this.termMark = new Int32Array(capacity).fill(-1);
    }
    const { total, termTotal, quality, termMark } = this;
    const ids = this.ids;
    const documentCount = this.documentTotal;
    const dirty = this.dirt > 0;
    const fieldNorms = this.lengthNorms();
    const { k, d } = this.scoring.bm25;
    const fieldBoosts = this.scoring.fieldBoosts;

    const queryTerms = this.scoring.tokenize(query).filter((term) => term.length > 0);
    const touched: number[] = [];
    const seenSources = new Set<string>();
    try {
      queryTerms.forEach((sourceTerm, termNumber) => {
        const firstOccurrence = !seenSources.has(sourceTerm);
        seenSources.add(sourceTerm);
        const termTouched: number[] = [];
        const score = (term: number, weight: number) => {
          for (let field = 0; field < this.fieldCount; field += 1) {
            const sealed = this.sealed[field] as SealedField;
            const start = term < this.sealedTerms ? (sealed.offsets[term] as number) : 0;
            const end = term < this.sealedTerms ? (sealed.offsets[term + 1] as number) : 0;
            const list = (this.fresh[field] as Array<number[] | undefined>)[term];
            let matching = end - start + (list === undefined ? 0 : list.length / 2);
            if (matching === 0) continue;
            if (dirty) {
              matching = 0;
              for (let at = start; at < end; at += 1)
                if (ids[sealed.documents[at] as number] !== undefined) matching += 1;
              if (list !== undefined)
                for (let at = 0; at < list.length; at += 2)
                  if (ids[list[at] as number] !== undefined) matching += 1;
              if (matching === 0) continue;
            }
            const inverseFrequency = Math.log(
              1 + (documentCount - matching + 0.5) / (matching + 0.5),
            );
            const fieldBoost = fieldBoosts[field] as number;
            const norm = fieldNorms[field] as Float64Array;
            const visit = (document: number, frequency: number) => {
              if (dirty && ids[document] === undefined) return;
              const raw =
                inverseFrequency *
                (d + (frequency * (k + 1)) / (frequency + (norm[document] as number)));
              // MiniSearch's order: weight × term boost × field boost × document boost × raw.
              const weighted = weight * 1 * fieldBoost * 1 * raw;
              if (termMark[document] !== termNumber) {
                termMark[document] = termNumber;
                termTotal[document] = weighted;
                termTouched.push(document);
              } else termTotal[document] = (termTotal[document] as number) + weighted;
            };
            for (let at = start; at < end; at += 1)
              visit(sealed.documents[at] as number, sealed.frequencies[at] as number);
            if (list !== undefined)
              for (let at = 0; at < list.length; at += 2)
                visit(list[at] as number, list[at + 1] as number);
          }
        };
        const exact = this.termNumbers.get(sourceTerm);
        if (exact !== undefined) score(exact, 1);
        if (this.scoring.prefix(sourceTerm)) {
          for (const term of this.termsWithPrefix(sourceTerm)) {
            const length = (this.terms[term] as string).length;
            const distance = length - sourceTerm.length;
            if (distance === 0) continue;
            score(term, (this.scoring.prefixWeight * length) / (length + 0.3 * distance));
          }
        }
        for (const document of termTouched) {
          if (quality[document] === 0) {
            touched.push(document);
            total[document] = termTotal[document] as number;
            quality[document] = 1;
          } else {
            total[document] = (total[document] as number) + (termTotal[document] as number);
            if (firstOccurrence) quality[document] = (quality[document] as number) + 1;
          }
        }
      });
      for (const document of touched)
        total[document] = (total[document] as number) * (quality[document] as number);
      return limit !== undefined && limit * 4 < touched.length
        ? selectBest(touched, total, limit, ids, filter)
        : sortAll(touched, total, limit, ids, filter);
    } finally {
      for (const document of touched) {
        quality[document] = 0;
        termMark[document] = -1;
      }
    }
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
   * @param header - numbers written after the magic (format and tokenizer versions)
   * @returns the snapshot (the caller's own copy)
   */
  toBytes(header: readonly number[]): Uint8Array {
    const documents = this.ids.length;
    const order = this.termOrder();
    const previous = this.encoded;
    const reusable = previous !== undefined && previous.termCount <= this.terms.length;
    const postings = this.sealed.reduce((sum, field) => sum + field.documents.length, 0);
    const writer = new ByteWriter(
      reusable
        ? previous.bytes.length + documents * 8 + this.freshPostings * 3 + 4096
        : 64 + documents * 8 + (postings + this.freshPostings) * 3 + order.length * 10,
    );
    writer.reserve(SNAPSHOT_MAGIC.length);
    writer.bytes.set(SNAPSHOT_MAGIC, 0);
    writer.length = SNAPSHOT_MAGIC.length;
    writer.varint(header.length);
    for (const value of header) writer.varint(value);
    writer.varint(this.fieldCount);
    writer.varint(documents);
    writer.varint(order.length);
    for (const average of this.averages) writer.float64(average);
    writer.run(encoder.encode(JSON.stringify(this.ids)));
    const termsStart = writer.length;
    if (reusable && previous.termCount === order.length) {
      const section = previous.bytes.subarray(previous.termsStart, previous.termsEnd);
      writer.reserve(section.length);
      writer.bytes.set(section, writer.length);
      writer.length += section.length;
    } else {
      const terms = new Array<string>(order.length);
      for (let rank = 0; rank < order.length; rank += 1)
        terms[rank] = this.terms[order[rank] as number] as string;
      writer.run(encoder.encode(terms.join("\n")));
    }
    const termsEnd = writer.length;
    for (const lengths of this.lengths)
      for (let document = 0; document < documents; document += 1)
        writer.varint(lengths[document] as number);
    const spans: Int32Array[] = [];
    const totals: number[] = [];
    for (let field = 0; field < this.fieldCount; field += 1) {
      const written = this.writeFieldPostings(
        writer,
        field,
        order,
        reusable ? previous : undefined,
      );
      spans.push(written.spans);
      totals.push(written.total);
    }
    this.changed.fill(0);
    const bytes = writer.bytes.subarray(0, writer.length);
    this.encoded = { bytes, termCount: order.length, termsStart, termsEnd, spans, totals };
    return bytes.slice();
  }

  /**
   * One field's postings in term order: their total (a 5-byte varint, written last), then per
   * term its record — the count and the (gap, frequency − 1) varint pairs. A term that got no
   * postings since `previous` is copied from it (neighbouring terms in one copy); the others are
   * encoded in a tight loop, room reserved per term and varints written inline.
   *
   * @returns where each term's record sits in the new snapshot, by term number; the postings
   */
  private writeFieldPostings(
    writer: ByteWriter,
    field: number,
    order: Int32Array,
    previous: EncodedSnapshot | undefined,
  ): { spans: Int32Array; total: number } {
    const sealed = this.sealed[field] as SealedField;
    const fresh = this.fresh[field] as Array<number[] | undefined>;
    const sealedTerms = this.sealedTerms;
    const offsets = sealed.offsets;
    const sealedDocuments = sealed.documents;
    const sealedFrequencies = sealed.frequencies;
    const changed = this.changed;
    const spans = new Int32Array(this.terms.length * 2);
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
   * The engine as plain arrays (every posting sealed by term number, terms sorted) plus its
   * snapshot, so {@link LexicalEngine.fromRaw} on another thread rebuilds it without decoding
   * and saves it without encoding. The engine must not be used afterwards (its arrays move).
   *
   * @param header - the snapshot's header (as {@link LexicalEngine.toBytes})
   * @returns the state and the buffers to transfer
   */
  toRaw(header: readonly number[]): RawLexicalEngine {
    this.toBytes(header);
    const snapshot = this.encoded as EncodedSnapshot;
    const termCount = this.terms.length;
    const sealed: SealedField[] = [];
    for (let field = 0; field < this.fieldCount; field += 1) {
      const old = this.sealed[field] as SealedField;
      const fresh = this.fresh[field] as Array<number[] | undefined>;
      const offsets = new Int32Array(termCount + 1);
      let total = 0;
      for (let term = 0; term < termCount; term += 1) {
        offsets[term] = total;
        if (term < this.sealedTerms)
          total += (old.offsets[term + 1] as number) - (old.offsets[term] as number);
        total += (fresh[term]?.length ?? 0) >>> 1;
      }
      offsets[termCount] = total;
      const documents = new Int32Array(total);
      const frequencies = new Int32Array(total);
      let at = 0;
      for (let term = 0; term < termCount; term += 1) {
        if (term < this.sealedTerms) {
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
      sealed.push({ offsets, documents, frequencies });
    }
    const transfer = new Set<ArrayBuffer>();
    const add = (array: Int32Array | Uint8Array) => {
      if (array.buffer.byteLength > 0) transfer.add(array.buffer as ArrayBuffer);
    };
    for (const field of sealed) {
      add(field.offsets);
      add(field.documents);
      add(field.frequencies);
    }
    for (const lengths of this.lengths) add(lengths);
    for (const spans of snapshot.spans) add(spans);
    add(snapshot.bytes);
    add(this.sorted);
    return {
      fieldCount: this.fieldCount,
      ids: this.ids,
      lengths: this.lengths,
      averages: this.averages,
      documentTotal: this.documentTotal,
      dirt: this.dirt,
      terms: this.terms,
      sorted: this.sorted,
      sealed,
      snapshot,
      transfer: [...transfer],
    };
  }

  /**
   * Rebuilds an engine from {@link LexicalEngine.toRaw} (of this module, on another thread: the
   * arrays are trusted, not checked as a snapshot's bytes are).
   *
   * @param raw - the state
   * @param scoring - how searches score
   * @returns the engine, its snapshot kept for the next one
   */
  static fromRaw(raw: RawLexicalEngine, scoring: LexicalScoring): LexicalEngine {
    const engine = new LexicalEngine(raw.fieldCount, scoring);
    engine.ids = raw.ids;
    for (let document = 0; document < raw.ids.length; document += 1) {
      const id = raw.ids[document];
      if (id !== undefined) engine.numbers.set(id, document);
    }
    engine.lengths = raw.lengths;
    engine.averages = raw.averages;
    engine.documentTotal = raw.documentTotal;
    engine.dirt = raw.dirt;
    engine.terms = raw.terms;
    for (let number = 0; number < raw.terms.length; number += 1)
      engine.termNumbers.set(raw.terms[number] as string, number);
    engine.sorted = raw.sorted;
    engine.sortedThrough = raw.terms.length;
    engine.sealedTerms = raw.terms.length;
    engine.sealed = raw.sealed;
    engine.fresh = engine.emptyFreshLists(raw.terms.length);
    engine.changed = new Uint8Array(Math.max(1024, raw.terms.length));
    engine.encoded = raw.snapshot;
    return engine;
  }

  /**
   * Restores an engine from {@link LexicalEngine.toBytes}.
   *
   * @param bytes - the snapshot
   * @param header - the header integers the snapshot must carry
   * @param fieldCount - fields per document
   * @param scoring - how searches score
   * @param keep - keep `bytes` as the previous snapshot of the next {@link LexicalEngine.toBytes}
   *   (they must not change afterwards)
   * @returns the engine
   * @throws {LexicalSnapshotError} for bytes that are not such a snapshot, or are damaged
   */
  static fromBytes(
    bytes: Uint8Array,
    header: readonly number[],
    fieldCount: number,
    scoring: LexicalScoring,
    keep = false,
  ): LexicalEngine {
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
    const documents = reader.varint();
    const termCount = reader.varint();
    const engine = new LexicalEngine(fieldCount, scoring);
    for (let field = 0; field < fieldCount; field += 1) {
      const average = reader.float64();
      if (!Number.isFinite(average) || average < 0)
        throw new LexicalSnapshotError("the snapshot has a bad average field length");
      engine.averages[field] = average;
    }
    let ids: unknown;
    let terms: string[];
    let termsStart: number;
    try {
      ids = JSON.parse(decoder.decode(reader.run()));
      termsStart = reader.offset;
      const text = decoder.decode(reader.run());
      terms = termCount === 0 ? [] : text.split("\n");
    } catch {
      throw new LexicalSnapshotError("the snapshot's ids or terms are unreadable");
    }
    const termsEnd = reader.offset;
    if (
      !Array.isArray(ids) ||
      ids.length !== documents ||
      !ids.every((id) => (typeof id === "string" && id.length > 0) || id === null)
    )
      throw new LexicalSnapshotError("the snapshot's ids do not match its document count");
    if (terms.length !== termCount)
      throw new LexicalSnapshotError("the snapshot's terms do not match its term count");
    const documentIds = new Array<string | undefined>(documents);
    let live = 0;
    for (let document = 0; document < documents; document += 1) {
      const id = ids[document] as string | null;
      if (id === null) continue;
      if (engine.numbers.has(id)) throw new LexicalSnapshotError(`the snapshot repeats id ${id}`);
      engine.numbers.set(id, document);
      documentIds[document] = id;
      live += 1;
    }
    engine.ids = documentIds;
    engine.documentTotal = live;
    engine.dirt = documents - live;
    engine.lengths = Array.from({ length: fieldCount }, () => {
      const lengths = new Int32Array(Math.max(64, documents));
      for (let document = 0; document < documents; document += 1)
        lengths[document] = reader.varint();
      return lengths;
    });
    engine.terms = terms;
    for (let number = 0; number < termCount; number += 1) {
      const term = terms[number] as string;
      if (number > 0 && !((terms[number - 1] as string) < term))
        throw new LexicalSnapshotError("the snapshot's terms are not in order");
      engine.termNumbers.set(term, number);
    }
    engine.sorted = Int32Array.from({ length: termCount }, (_, index) => index);
    engine.sortedThrough = termCount;
    engine.sealedTerms = termCount;
    engine.fresh = engine.emptyFreshLists(termCount);
    engine.sealed = [];
    engine.changed = new Uint8Array(Math.max(1024, termCount));
    const spans: Int32Array[] = [];
    const totals: number[] = [];
    for (let field = 0; field < fieldCount; field += 1) {
      const fieldSpans = new Int32Array(termCount * 2);
      spans.push(fieldSpans);
      const total = reader.varint();
      totals.push(total);
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
      engine.sealed.push({ offsets, documents: documentsOf, frequencies });
    }
    if (!reader.done) throw new LexicalSnapshotError("the snapshot has bytes after its end");
    if (keep) engine.encoded = { bytes, termCount, termsStart, termsEnd, spans, totals };
    return engine;
  }
}

/** The error for a varint that runs past the end, or past five bytes. */
function truncatedOrLong(truncated: boolean): LexicalSnapshotError {
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
function putVarint(bytes: Uint8Array, position: number, value: number): number {
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
function copyRun(
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
function readCount(bytes: Uint8Array, offset: number): number {
  let value = 0;
  let shift = 0;
  for (let at = offset; ; at += 1) {
    const byte = bytes[at] as number;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
    shift += 7;
  }
}

/** Every match, best first; ties keep the order documents were first matched in. */
function sortAll(
  touched: readonly number[],
  scores: Float64Array,
  limit: number | undefined,
  ids: ReadonlyArray<string | undefined>,
  filter: ((id: string) => boolean) | undefined,
): ScoredDocument[] {
  const results: ScoredDocument[] = [];
  for (const document of touched) {
    const id = ids[document] as string;
    if (filter !== undefined && !filter(id)) continue;
    results.push({ id, score: scores[document] as number });
  }
  results.sort((left, right) => right.score - left.score);
  return limit === undefined ? results : results.slice(0, limit);
}

/**
 * The best `limit` matches without sorting them all: a bounded min-heap ordered by score, then by
 * first-match position (a later position loses a tie), so the result equals {@link sortAll}'s head.
 */
function selectBest(
  touched: readonly number[],
  scores: Float64Array,
  limit: number,
  ids: ReadonlyArray<string | undefined>,
  filter: ((id: string) => boolean) | undefined,
): ScoredDocument[] {
  // heap of positions into `touched`; the root is the worst kept match.
  const heap: number[] = [];
  const worse = (left: number, right: number): boolean => {
    const leftScore = scores[touched[left] as number] as number;
    const rightScore = scores[touched[right] as number] as number;
    return leftScore < rightScore || (leftScore === rightScore && left > right);
  };
  const siftDown = (start: number) => {
    let parent = start;
    for (;;) {
      const left = parent * 2 + 1;
      if (left >= heap.length) return;
      const right = left + 1;
      let child = left;
      if (right < heap.length && worse(heap[right] as number, heap[left] as number)) child = right;
      if (!worse(heap[child] as number, heap[parent] as number)) return;
      [heap[parent], heap[child]] = [heap[child] as number, heap[parent] as number];
      parent = child;
    }
  };
  for (let position = 0; position < touched.length; position += 1) {
    if (heap.length === limit && !worse(heap[0] as number, position)) continue;
    if (filter !== undefined && !filter(ids[touched[position] as number] as string)) continue;
    if (heap.length < limit) {
      heap.push(position);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!worse(heap[child] as number, heap[parent] as number)) break;
        [heap[parent], heap[child]] = [heap[child] as number, heap[parent] as number];
        child = parent;
      }
    } else {
      heap[0] = position;
      siftDown(0);
    }
  }
  heap.sort((left, right) => (worse(left, right) ? 1 : worse(right, left) ? -1 : 0));
  return heap.map((position) => {
    const document = touched[position] as number;
    return { id: ids[document] as string, score: scores[document] as number };
  });
}
