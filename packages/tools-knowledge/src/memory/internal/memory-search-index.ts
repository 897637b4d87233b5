import {
  createLexicalIndex,
  type LexicalIndex,
  type LexicalMatch,
} from "../../engine/lexical-index.js";
import type { MemoryRecord, MemorySnapshot } from "../memory-backend.js";

/** Namespaces whose index stays in memory at once (least recently searched dropped first). */
export const MAX_INDEXED_NAMESPACES = 32;

interface NamespaceIndex {
  index: LexicalIndex;
  /** The records indexed, by key (compared by revision on the next snapshot). */
  records: Map<string, MemoryRecord>;
  /** The snapshot map last indexed and its revision: the same again means nothing to compare. */
  source: ReadonlyMap<string, MemoryRecord> | undefined;
  revision: string | undefined;
}

/** What {@link MemorySearchIndex.search} found. @internal */
export interface MemorySearchOutcome {
  /** Every match that carries the tags, best first (ties by key): ids are keys. */
  matches: LexicalMatch[];
  /** The records searched, by key. */
  records: ReadonlyMap<string, MemoryRecord>;
  /** Whether some memory matched the words but lacked a tag (for the empty message). */
  filteredOut: boolean;
  /** Memories in the namespace. */
  searched: number;
}

function documentOf(record: MemoryRecord) {
  return {
    id: record.key,
    // The key's parts as words: "user/preferences/editor" → "user preferences editor".
    heading: record.key.replace(/[_.:/-]+/g, " "),
    text: record.content,
    front_matter: record.tags.join(" "),
  };
}

/**
 * BM25 over memories (key, tags and content through `createLexicalIndex`), one index per
 * namespace, brought up to date from each snapshot by comparing revisions: only records that
 * changed are re-indexed, and a snapshot with the revision last seen is not compared at all.
 *
 * @internal
 */
export class MemorySearchIndex {
  private readonly namespaces = new Map<string, NamespaceIndex>();

  /** Ranks the namespace's memories for `query`, keeping those that carry every tag in `tags`. */
  search(
    namespace: readonly string[],
    snapshot: MemorySnapshot,
    query: string,
    tags: readonly string[] | undefined,
  ): MemorySearchOutcome {
    const entry = this.refresh(namespace, snapshot);
    const records = entry.records;
    const wanted = tags ?? [];
    const filter =
      wanted.length === 0
        ? undefined
        : (id: string) => {
            const record = records.get(id);
            return record !== undefined && wanted.every((tag) => record.tags.includes(tag));
          };
    const found = entry.index.search(query, filter === undefined ? {} : { filter });
    // Best first already; only runs of equal scores are put in key order (deterministic ties,
    // whatever order the records were indexed in).
    for (let start = 0; start < found.length; ) {
      let end = start + 1;
      const score = (found[start] as LexicalMatch).score;
      while (end < found.length && (found[end] as LexicalMatch).score === score) end += 1;
      if (end - start > 1) {
        const run = found.slice(start, end).sort((left, right) => (left.id < right.id ? -1 : 1));
        for (let index = 0; index < run.length; index += 1)
          found[start + index] = run[index] as LexicalMatch;
      }
      start = end;
    }
    const matches = found;
    const filteredOut =
      found.length === 0 &&
      filter !== undefined &&
      entry.index.search(query, { limit: 1 }).length > 0;
    return { matches, records, filteredOut, searched: records.size };
  }

  /** Forgets every namespace's index. */
  clear(): void {
    this.namespaces.clear();
  }

  private refresh(namespace: readonly string[], snapshot: MemorySnapshot): NamespaceIndex {
    const id = JSON.stringify(namespace);
    let entry = this.namespaces.get(id);
    if (entry !== undefined) {
      // Most recently used last.
      this.namespaces.delete(id);
      this.namespaces.set(id, entry);
    } else {
      entry = {
        index: createLexicalIndex(),
        records: new Map(),
        source: undefined,
        revision: undefined,
      };
      this.namespaces.set(id, entry);
      while (this.namespaces.size > MAX_INDEXED_NAMESPACES) {
        const oldest = this.namespaces.keys().next().value;
        if (oldest === undefined) break;
        this.namespaces.delete(oldest);
      }
    }
    if (
      entry.source === snapshot.records &&
      entry.revision === snapshot.revision &&
      snapshot.revision !== undefined
    ) {
      return entry;
    }
    if (snapshot.revision !== undefined && entry.revision === snapshot.revision) {
      entry.source = snapshot.records;
      return entry;
    }
    const removed: string[] = [];
    for (const key of entry.records.keys()) {
      if (!snapshot.records.has(key)) removed.push(key);
    }
    const changed: MemoryRecord[] = [];
    for (const record of snapshot.records.values()) {
      const known = entry.records.get(record.key);
      if (known === undefined || known.revision !== record.revision) changed.push(record);
    }
    if (removed.length > 0) {
      entry.index.remove(removed);
      for (const key of removed) entry.records.delete(key);
    }
    if (changed.length > 0) {
      entry.index.add(changed.map(documentOf));
      for (const record of changed) entry.records.set(record.key, record);
    }
    entry.source = snapshot.records;
    entry.revision = snapshot.revision;
    return entry;
  }
}

const sortedBySnapshot = new WeakMap<ReadonlyMap<string, MemoryRecord>, MemoryRecord[]>();

/**
 * The records of a snapshot sorted by key (code-unit order), cached per snapshot map.
 *
 * @internal
 */
export function recordsByKey(snapshot: MemorySnapshot): MemoryRecord[] {
  let sorted = sortedBySnapshot.get(snapshot.records);
  if (sorted === undefined) {
    sorted = [...snapshot.records.values()].sort((left, right) =>
      left.key < right.key ? -1 : left.key > right.key ? 1 : 0,
    );
    sortedBySnapshot.set(snapshot.records, sorted);
  }
  return sorted;
}

/** Occurrences of one query word a memory's excerpt considers at most. */
const MAX_OCCURRENCES_PER_WORD = 256;

/**
 * Where the excerpt of a long memory should start showing: the first occurrence in the stretch of
 * `max` characters holding the most distinct query words (then the most occurrences, then the
 * earliest); -1 when no query word occurs.
 */
function densestOccurrence(lower: string, query: string, max: number): number {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length >= 2),
    ),
  ];
  const occurrences: Array<{ at: number; word: number; end: number }> = [];
  for (const [index, word] of words.entries()) {
    for (
      let at = lower.indexOf(word), count = 0;
      at !== -1 && count < MAX_OCCURRENCES_PER_WORD;
      at = lower.indexOf(word, at + word.length), count += 1
    ) {
      occurrences.push({ at, word: index, end: at + word.length });
    }
  }
  if (occurrences.length === 0) return -1;
  occurrences.sort((left, right) => left.at - right.at);
  // The stretch shown runs from a little before its first occurrence: keep the rest inside it.
  const span = Math.max(1, max - Math.floor(max / 5));
  const counts = new Array<number>(words.length).fill(0);
  let distinct = 0;
  let best = { at: -1, distinct: 0, count: 0 };
  let right = 0;
  for (let left = 0; left < occurrences.length; left += 1) {
    const start = (occurrences[left] as { at: number }).at;
    while (
      right < occurrences.length &&
      (occurrences[right] as { end: number }).end - start <= span
    ) {
      const word = (occurrences[right] as { word: number }).word;
      if (counts[word] === 0) distinct += 1;
      counts[word] = (counts[word] ?? 0) + 1;
      right += 1;
    }
    const count = right - left;
    if (distinct > best.distinct || (distinct === best.distinct && count > best.count)) {
      best = { at: start, distinct, count };
    }
    const word = (occurrences[left] as { word: number }).word;
    counts[word] = (counts[word] ?? 1) - 1;
    if (counts[word] === 0) distinct -= 1;
  }
  return best.at;
}

/**
 * Cuts a memory's content to `max` characters for a search hit: the whole content when it fits,
 * else a window that starts a little before the stretch where the query's words are densest (at a
 * word boundary), never inside a surrogate pair.
 *
 * @internal
 */
export function memoryExcerpt(
  content: string,
  query: string,
  max: number,
): { excerpt: string; truncated: boolean } {
  if (content.length <= max) return { excerpt: content, truncated: false };
  const first = densestOccurrence(content.toLowerCase(), query, max);
  let start = first <= max / 3 ? 0 : first - Math.floor(max / 5);
  if (start > 0) {
    const space = content.lastIndexOf(" ", start);
    if (space !== -1 && start - space < 40) start = space + 1;
    const code = content.charCodeAt(start);
    if (code >= 0xdc00 && code <= 0xdfff) start += 1;
  }
  let end = Math.min(content.length, start + max);
  const code = content.charCodeAt(end - 1);
  if (end < content.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return {
    excerpt: `${start > 0 ? "…" : ""}${content.slice(start, end)}`,
    truncated: true,
  };
}
