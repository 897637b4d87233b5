import type { Embeddings } from "../types.js";

/** Options of {@link DeterministicEmbeddings}. */
export interface DeterministicEmbeddingsOptions {
  /** Vector length. Default 64. */
  dimensions?: number;
  /** Reported as `model` (part of the index fingerprint). Default `"hashing-v1"`. */
  model?: string;
  /**
   * Words that mean the same thing: each group's words land on one feature, so a query for
   * "automobile" finds a passage about a "car" — the one thing BM25 alone cannot do.
   */
  synonyms?: ReadonlyArray<readonly string[]>;
  /**
   * Called before every `embedDocuments` batch with its 0-based number and texts; throw (or
   * return a rejected promise) to make that batch fail.
   */
  beforeBatch?: (batch: number, texts: readonly string[]) => void | Promise<void>;
  /** Called before every `embedQuery`; throw to make it fail. */
  beforeQuery?: (text: string) => void | Promise<void>;
}

function hash(word: string): number {
  // FNV-1a, 32-bit.
  let value = 0x811c9dc5;
  for (let index = 0; index < word.length; index += 1) {
    value ^= word.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

/**
 * A deterministic, key-free embedder for tests: feature hashing of lower-cased words (each word
 * adds ±1 to one of `dimensions` features, sign from a second hash), synonym groups sharing a
 * feature, L2-normalised. Same text → same vector, in any process. It counts its calls and can
 * be told to fail chosen batches (`beforeBatch`), so tests can check batching, retries and
 * resumable indexing.
 */
export class DeterministicEmbeddings implements Embeddings {
  /** The model name (the index fingerprint reads it). */
  readonly model: string;
  /** The vector length. */
  readonly dimensions: number;
  /** Every `embedDocuments` call's texts, in order. */
  readonly batches: string[][] = [];
  /** Every `embedQuery` call's text, in order. */
  readonly queries: string[] = [];
  private readonly canonical = new Map<string, string>();
  private readonly options: DeterministicEmbeddingsOptions;

  /**
   * @param options - dimensions, model name, synonyms and failure hooks
   * @example
   * const embeddings = new DeterministicEmbeddings({ synonyms: [["car", "automobile"]] });
   */
  constructor(options: DeterministicEmbeddingsOptions = {}) {
    this.options = options;
    this.model = options.model ?? "hashing-v1";
    this.dimensions = options.dimensions ?? 64;
    for (const group of options.synonyms ?? []) {
      const head = group[0];
      if (head === undefined) continue;
      for (const word of group) this.canonical.set(word.toLowerCase(), head.toLowerCase());
    }
  }

  /** Texts embedded so far (all batches). */
  get embeddedTexts(): number {
    return this.batches.reduce((sum, batch) => sum + batch.length, 0);
  }

  /**
   * The vector of one text, without counting a call.
   *
   * @param text - any text
   * @returns its unit vector (all zeros for a text without words)
   */
  vectorOf(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const word = this.canonical.get(raw) ?? raw;
      const feature = hash(word) % this.dimensions;
      const sign = hash(`#${word}`) & 1 ? 1 : -1;
      vector[feature] = (vector[feature] as number) + sign;
    }
    const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }

  /**
   * @param documents - texts
   * @returns one vector per text
   */
  async embedDocuments(documents: string[]): Promise<number[][]> {
    const batch = this.batches.length;
    this.batches.push([...documents]);
    await this.options.beforeBatch?.(batch, documents);
    return documents.map((document) => this.vectorOf(document));
  }

  /**
   * @param document - the query
   * @returns its vector
   */
  async embedQuery(document: string): Promise<number[]> {
    this.queries.push(document);
    await this.options.beforeQuery?.(document);
    return this.vectorOf(document);
  }
}
