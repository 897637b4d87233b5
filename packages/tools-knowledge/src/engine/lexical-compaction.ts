import type { SealedField } from "./lexical-snapshot.js";

/** What a compaction rewrites: the postings, with the documents renumbered. */
export interface CompactionSource {
  /** Every term number, in term order. */
  order: Int32Array;
  /** Old document number → new one (−1: discarded). */
  renumber: Int32Array;
  /** By term number. */
  terms: readonly string[];
  /** Per field. */
  sealed: readonly SealedField[];
  /** Per field, per term: `[document, frequency, …]` added since the last compaction. */
  fresh: ReadonlyArray<ReadonlyArray<number[] | undefined>>;
  /** Terms numbered below this have sealed postings. */
  sealedTerms: number;
}

/**
 * The postings after a compaction: discarded documents and terms without postings dropped,
 * documents renumbered, terms renumbered in sorted order, every posting sealed.
 *
 * @param source - the postings and the renumbering
 * @returns the live terms, in order, and their sealed postings per field
 */
export function compactPostings(source: CompactionSource): {
  terms: string[];
  sealed: SealedField[];
} {
  const { order, renumber } = source;
  // Count each term's live postings per field, then fill.
  const counts = Array.from({ length: source.sealed.length }, () => new Int32Array(order.length));
  const alive = new Uint8Array(order.length);
  for (let field = 0; field < source.sealed.length; field += 1) {
    const fieldCounts = counts[field] as Int32Array;
    const sealed = source.sealed[field] as SealedField;
    const fresh = source.fresh[field] as Array<number[] | undefined>;
    for (let rank = 0; rank < order.length; rank += 1) {
      const term = order[rank] as number;
      let live = 0;
      if (term < source.sealedTerms) {
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
    terms.push(source.terms[order[rank] as number] as string);
  }
  const sealedFields: SealedField[] = [];
  for (let field = 0; field < source.sealed.length; field += 1) {
    const fieldCounts = counts[field] as Int32Array;
    const sealed = source.sealed[field] as SealedField;
    const fresh = source.fresh[field] as Array<number[] | undefined>;
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
      if (term < source.sealedTerms) {
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
  return { terms, sealed: sealedFields };
}
