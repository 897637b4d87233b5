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

import { compactPostings } from "./lexical-compaction.js";
import {
  decodeSnapshot,
  type EncodedSnapshot,
  encodeSnapshot,
  type SealedField,
  sealPostings,
} from "./lexical-snapshot.js";
import { type LexicalScoring, type ScoredDocument, topMatches } from "./lexical-top-matches.js";
import {
  countDocumentTermNumbers,
  countedTermNumber,
  termCountOf,
  termNumberingGeneration,
  termOfNumber,
} from "./tokenize.js";

export { LexicalSnapshotError } from "./lexical-byte-codec.js";
export type { EncodedSnapshot, SealedField } from "./lexical-snapshot.js";
export type { LexicalScoring, ScoredDocument } from "./lexical-top-matches.js";

const EMPTY = new Int32Array(0);
/** Unsorted new terms kept beside the sorted view before it is re-sorted. */
const UNSORTED_TAIL_LIMIT = 2048;

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

/** See the module comment. */
export class LexicalEngine {
  private readonly fieldCount: number;

  // Documents.
  private ids: Array<string | undefined> = [];
  private numbers = new Map<string, number>();
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
    const { terms, sealed: sealedFields } = compactPostings({
      order: this.termOrder(),
      renumber,
      terms: this.terms,
      sealed: this.sealed,
      fresh: this.fresh,
      sealedTerms: this.sealedTerms,
    });
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
      return topMatches(touched, total, limit, ids, filter);
    } finally {
      for (const document of touched) {
        quality[document] = 0;
        termMark[document] = -1;
      }
    }
  }

  /** The query's terms, as a search reads them (for evidence computed outside the engine). */
  queryTerms(query: string): string[] {
    return this.scoring.tokenize(query).filter((term) => term.length > 0);
  }

  /** Calls `visit` for each posting of exactly `term` (once per field holding it) of a live document. */
  forEachPosting(term: string, visit: (id: string, frequency: number) => void): void {
    const number = this.termNumbers.get(term);
    if (number === undefined) return;
    for (let field = 0; field < this.fieldCount; field += 1) {
      const sealed = this.sealed[field] as SealedField;
      if (number < this.sealedTerms) {
        const end = sealed.offsets[number + 1] as number;
        for (let at = sealed.offsets[number] as number; at < end; at += 1) {
          const id = this.ids[sealed.documents[at] as number];
          if (id !== undefined) visit(id, sealed.frequencies[at] as number);
        }
      }
      const list = (this.fresh[field] as Array<number[] | undefined>)[number];
      if (list === undefined) continue;
      for (let at = 0; at < list.length; at += 2) {
        const id = this.ids[list[at] as number];
        if (id !== undefined) visit(id, list[at + 1] as number);
      }
    }
  }

  /**
   * The index as a snapshot (see `lexical-snapshot`). Discarded documents keep their numbers and
   * postings until a compaction, so a term's postings change only when documents are added to
   * it: a snapshot after a small change copies every other term's bytes from the previous
   * snapshot (kept in memory) and encodes only the changed terms (on 2,000 files: milliseconds
   * instead of tens).
   *
   * @param header - numbers written after the magic (format and tokenizer versions)
   * @returns the snapshot (the caller's own copy)
   */
  toBytes(header: readonly number[]): Uint8Array {
    const encoded = encodeSnapshot(
      {
        fieldCount: this.fieldCount,
        ids: this.ids,
        lengths: this.lengths,
        averages: this.averages,
        terms: this.terms,
        order: this.termOrder(),
        sealedTerms: this.sealedTerms,
        sealed: this.sealed,
        fresh: this.fresh,
        freshPostings: this.freshPostings,
        changed: this.changed,
        previous: this.encoded,
      },
      header,
    );
    this.changed.fill(0);
    this.encoded = encoded;
    return encoded.bytes.slice();
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
      sealed.push(
        sealPostings(
          this.sealed[field] as SealedField,
          this.fresh[field] as Array<number[] | undefined>,
          this.sealedTerms,
          termCount,
        ),
      );
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
    const numbers = new Map<string, number>();
    for (let document = 0; document < raw.ids.length; document += 1) {
      const id = raw.ids[document];
      if (id !== undefined) numbers.set(id, document);
    }
    return LexicalEngine.restore(raw.fieldCount, scoring, {
      ...raw,
      numbers,
      encoded: raw.snapshot,
    });
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
    const decoded = decodeSnapshot(bytes, header, fieldCount);
    const sorted = Int32Array.from({ length: decoded.terms.length }, (_, index) => index);
    return LexicalEngine.restore(fieldCount, scoring, {
      ...decoded,
      sorted,
      encoded: keep ? decoded.encoded : undefined,
    });
  }

  /** An engine over restored arrays: every posting sealed, the terms sorted. */
  private static restore(
    fieldCount: number,
    scoring: LexicalScoring,
    arrays: {
      ids: Array<string | undefined>;
      numbers: Map<string, number>;
      lengths: Int32Array[];
      averages: number[];
      documentTotal: number;
      dirt: number;
      terms: string[];
      sorted: Int32Array;
      sealed: SealedField[];
      encoded: EncodedSnapshot | undefined;
    },
  ): LexicalEngine {
    const engine = new LexicalEngine(fieldCount, scoring);
    const termCount = arrays.terms.length;
    engine.ids = arrays.ids;
    engine.numbers = arrays.numbers;
    engine.lengths = arrays.lengths;
    engine.averages = arrays.averages;
    engine.documentTotal = arrays.documentTotal;
    engine.dirt = arrays.dirt;
    engine.terms = arrays.terms;
    for (let number = 0; number < termCount; number += 1)
      engine.termNumbers.set(arrays.terms[number] as string, number);
    engine.sorted = arrays.sorted;
    engine.sortedThrough = termCount;
    engine.sealedTerms = termCount;
    engine.sealed = arrays.sealed;
    engine.fresh = engine.emptyFreshLists(termCount);
    engine.changed = new Uint8Array(Math.max(1024, termCount));
    engine.encoded = arrays.encoded;
    return engine;
  }
}
