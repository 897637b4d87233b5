// Picking the best matches of a search: a full sort, or a bounded heap when few are wanted.

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

/**
 * The matches of a search, best first, at most `limit`; ties keep the order documents were first
 * matched in.
 *
 * @param touched - the documents matched, in the order they were first matched
 * @param scores - each document's score, by number
 * @param limit - at most this many (undefined: every match)
 * @param ids - the document ids, by number
 * @param filter - keeps only the ids it accepts (applied before `limit`)
 * @returns the matches
 */
export function topMatches(
  touched: readonly number[],
  scores: Float64Array,
  limit: number | undefined,
  ids: ReadonlyArray<string | undefined>,
  filter: ((id: string) => boolean) | undefined,
): ScoredDocument[] {
  return limit !== undefined && limit * 4 < touched.length
    ? selectBest(touched, scores, limit, ids, filter)
    : sortAll(touched, scores, limit, ids, filter);
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
