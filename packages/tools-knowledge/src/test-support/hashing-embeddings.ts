import type { Embeddings } from "../engine/types.js";

/** Options of {@link HashingEmbeddings}. */
export interface HashingEmbeddingsOptions {
  /** Vector length. Default 256. */
  dimensions?: number;
  /** Reported as `model` (part of a corpus index's fingerprint). Default `"hashing-test"`. */
  model?: string;
  /** Groups of words that land on one feature ("car" and "automobile"): what BM25 alone cannot match. */
  synonyms?: ReadonlyArray<readonly string[]>;
  /** Called before every `embedDocuments` batch (0-based number, texts); throw to fail the batch. */
  beforeBatch?: (batch: number, texts: readonly string[]) => void | Promise<void>;
  /** Called before every `embedQuery`; throw to fail it. */
  beforeQuery?: (text: string) => void | Promise<void>;
}

/** 32-bit FNV-1a, then murmur3's finaliser so the low bits (the feature index) are well mixed. */
function hash(word: string): number {
  let value = 0x811c9dc5;
  for (let index = 0; index < word.length; index += 1) {
    value ^= word.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  value ^= value >>> 16;
  value = Math.imul(value, 0x85ebca6b);
  value ^= value >>> 13;
  value = Math.imul(value, 0xc2b2ae35);
  value ^= value >>> 16;
  return value >>> 0;
}

/**
 * A deterministic, key-free test embedder: feature hashing of
 * lower-cased words (±1 per word on one of `dimensions` features), synonym groups sharing a
 * feature, L2-normalised. Same text → same vector, in any process. It records every batch and
 * query and can be told to fail chosen batches, so tests can check batching, retries and
 * resumable indexing.
 */
export class HashingEmbeddings implements Embeddings {
  /** The model name (a corpus index's fingerprint reads it). */
  readonly model: string;
  /** The vector length. */
  readonly dimensions: number;
  /** Every `embedDocuments` call's texts, in order. */
  readonly batches: string[][] = [];
  /** Every `embedQuery` call's text, in order. */
  readonly queries: string[] = [];
  private readonly canonical = new Map<string, string>();
  private readonly options: HashingEmbeddingsOptions;

  /**
   * @param options - dimensions, synonyms, failure hooks
   * @example
   * const embeddings = new HashingEmbeddings({ synonyms: [["car", "automobile"]] });
   */
  constructor(options: HashingEmbeddingsOptions = {}) {
    this.options = options;
    this.model = options.model ?? "hashing-test";
    this.dimensions = options.dimensions ?? 256;
    for (const group of options.synonyms ?? []) {
      const head = group[0]?.toLowerCase();
      if (head === undefined) continue;
      for (const word of group) this.canonical.set(word.toLowerCase(), head);
    }
  }

  /** Texts embedded so far (all batches). */
  get embeddedTexts(): number {
    return this.batches.reduce((sum, batch) => sum + batch.length, 0);
  }

  /**
   * The vector of a text, without recording a call.
   *
   * @param text - any text
   * @returns its unit vector (zeros for a text without words)
   */
  vectorOf(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const word = this.canonical.get(raw) ?? raw;
      const feature = hash(word) % this.dimensions;
      vector[feature] = (vector[feature] as number) + (hash(`#${word}`) & 1 ? 1 : -1);
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
