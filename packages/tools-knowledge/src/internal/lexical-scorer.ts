/**
 * A faster `search` over MiniSearch 7.2's own index: the same BM25+ scores, in the same order, as
 * `MiniSearch#search` with this family's options (OR of the query terms, field boosts, prefix
 * matches at MiniSearch's prefix weight, the "quality" factor of distinct query terms matched) —
 * but accumulated in typed arrays instead of one result object per document and term, which is
 * what makes MiniSearch slow on queries whose terms occur in tens of thousands of chunks.
 *
 * Scores are bit-for-bit MiniSearch's on an index without discarded documents (the additions
 * happen in the same order); on one with discarded documents not yet vacuumed, document
 * frequencies count live documents only (MiniSearch counts a discarded one until its search meets
 * it). Nothing in the index is modified. Where MiniSearch's internals are missing (another
 * version), {@link createLexicalScorer} returns `undefined` and the caller uses MiniSearch's search.
 *
 * @internal
 */
import type MiniSearch from "minisearch";

type FieldPostings = Map<number, number>;
type TermPostings = Map<number, FieldPostings>;

interface ScorerInternals {
  _documentCount: number;
  _nextId: number;
  _dirtCount: number;
  _documentIds: Map<number, string>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _index: {
    get(term: string): TermPostings | undefined;
    atPrefix(prefix: string): Iterable<[string, TermPostings]>;
  };
}

/** How the index scores: the options given to MiniSearch, restated. */
export interface LexicalScoring {
  /** Boost per field number (field order of the index). */
  fieldBoosts: readonly number[];
  /** BM25 parameters. */
  bm25: { k: number; b: number; d: number };
  /** MiniSearch's weight of a prefix match. */
  prefixWeight: number;
  /** Whether a query term also matches as a prefix. */
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

/** Searches one engine; see the module comment. */
export interface LexicalScorer {
  /** Best first; `limit` undefined returns every match. */
  search(
    query: string,
    limit: number | undefined,
    filter: ((id: string) => boolean) | undefined,
  ): ScoredDocument[];
  /** Call after every change of the index (cached field-length terms are recomputed). */
  invalidate(): void;
}

function internalsOf(engine: MiniSearch<unknown>): ScorerInternals | undefined {
  const candidate = engine as unknown as Partial<ScorerInternals>;
  const index = candidate._index as Partial<ScorerInternals["_index"]> | undefined;
  if (
    typeof candidate._documentCount === "number" &&
    typeof candidate._nextId === "number" &&
    typeof candidate._dirtCount === "number" &&
    candidate._documentIds instanceof Map &&
    candidate._fieldLength instanceof Map &&
    Array.isArray(candidate._avgFieldLength) &&
    typeof index?.get === "function" &&
    typeof index.atPrefix === "function"
  ) {
    return candidate as ScorerInternals;
  }
  return undefined;
}

/**
 * Creates the fast scorer of an engine, or `undefined` when the engine lacks the internals.
 *
 * @param engine - the MiniSearch engine (its fields, boosts and options are the ones in `scoring`)
 * @param scoring - how it scores
 * @returns the scorer
 * @internal
 */
export function createLexicalScorer(
  engine: MiniSearch<unknown>,
  scoring: LexicalScoring,
): LexicalScorer | undefined {
  if (internalsOf(engine) === undefined) return undefined;
  const fieldCount = scoring.fieldBoosts.length;
  const { k, b, d } = scoring.bm25;
  let total = new Float64Array(0);
  let termTotal = new Float64Array(0);
  let quality = new Uint16Array(0);
  let termMark = new Int32Array(0);
  // Per field and document: k × (1 − b + b × length / average), MiniSearch's length term.
  let norms: Float64Array[] | undefined;

  const lengthNorms = (internals: ScorerInternals): Float64Array[] => {
    if (norms !== undefined) return norms;
    const averages = internals._avgFieldLength;
    const computed = Array.from({ length: fieldCount }, () => new Float64Array(internals._nextId));
    internals._fieldLength.forEach((lengths, document) => {
      for (let field = 0; field < fieldCount; field += 1) {
        (computed[field] as Float64Array)[document] =
          k * (1 - b + (b * (lengths[field] as number)) / (averages[field] as number));
      }
    });
    norms = computed;
    return computed;
  };

  const search: LexicalScorer["search"] = (query, limit, filter) => {
    // Read the internals on every search: loadJS and vacuuming replace some of them.
    const internals = internalsOf(engine) as ScorerInternals;
    const size = internals._nextId;
    if (total.length < size) {
      const capacity = Math.max(size, total.length * 2, 64);
      total = new Float64Array(capacity);
      termTotal = new Float64Array(capacity);
      quality = new Uint16Array(capacity);
      termMark = new Int32Array(capacity).fill(-1);
    }
    const documentIds = internals._documentIds;
    const documentCount = internals._documentCount;
    const dirty = internals._dirtCount > 0;
    const fieldNorms = lengthNorms(internals);

    const terms = scoring.tokenize(query).filter((term) => term.length > 0);
    const touched: number[] = [];
    const seenSources = new Set<string>();
    try {
      terms.forEach((sourceTerm, termNumber) => {
        const firstOccurrence = !seenSources.has(sourceTerm);
        seenSources.add(sourceTerm);
        const termTouched: number[] = [];
        const score = (postings: TermPostings | undefined, weight: number) => {
          if (postings === undefined) return;
          for (let field = 0; field < fieldCount; field += 1) {
            const documents = postings.get(field);
            if (documents === undefined) continue;
            let matching = documents.size;
            if (dirty) {
              matching = 0;
              documents.forEach((_, document) => {
                if (documentIds.has(document)) matching += 1;
              });
            }
            const inverseFrequency = Math.log(
              1 + (documentCount - matching + 0.5) / (matching + 0.5),
            );
            const fieldBoost = scoring.fieldBoosts[field] as number;
            const norm = fieldNorms[field] as Float64Array;
            documents.forEach((frequency, document) => {
              if (dirty && !documentIds.has(document)) return;
              const raw =
                inverseFrequency *
                (d + (frequency * (k + 1)) / (frequency + (norm[document] as number)));
              // Same multiplication order as MiniSearch: weight × term boost × field boost × document boost × raw.
              const weighted = weight * 1 * fieldBoost * 1 * raw;
              if (termMark[document] !== termNumber) {
                termMark[document] = termNumber;
                termTotal[document] = weighted;
                termTouched.push(document);
              } else {
                termTotal[document] = (termTotal[document] as number) + weighted;
              }
            });
          }
        };
        score(internals._index.get(sourceTerm), 1);
        if (scoring.prefix(sourceTerm)) {
          for (const [term, postings] of internals._index.atPrefix(sourceTerm)) {
            const distance = term.length - sourceTerm.length;
            if (distance === 0) continue;
            score(postings, (scoring.prefixWeight * term.length) / (term.length + 0.3 * distance));
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
        ? selectBest(touched, total, limit, documentIds, filter)
        : sortAll(touched, total, limit, documentIds, filter);
    } finally {
      for (const document of touched) {
        quality[document] = 0;
        termMark[document] = -1;
      }
    }
  };

  return {
    search,
    invalidate: () => {
      norms = undefined;
    },
  };
}

/** Every match, best first; ties keep the order documents were first matched in (as MiniSearch's stable sort). */
function sortAll(
  touched: readonly number[],
  scores: Float64Array,
  limit: number | undefined,
  documentIds: Map<number, string>,
  filter: ((id: string) => boolean) | undefined,
): ScoredDocument[] {
  const results: ScoredDocument[] = [];
  for (const document of touched) {
    const id = documentIds.get(document) as string;
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
  documentIds: Map<number, string>,
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
    if (filter !== undefined && !filter(documentIds.get(touched[position] as number) as string))
      continue;
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
    return { id: documentIds.get(document) as string, score: scores[document] as number };
  });
}
