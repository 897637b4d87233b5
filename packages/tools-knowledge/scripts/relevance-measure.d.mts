import type { LabelledQuery } from "./relevance-sets.mjs";

/** A file and its score for one query. */
export interface ScoredFile {
  file: string;
  score: number;
}

/** MRR@k and recall@k over a set, and each query's reciprocal rank. */
export interface Measured {
  mrr: number;
  recall: number;
  outcomes: number[];
}

export function plainWords(text: string): string[];
export function readCorpus(folder: string): Array<{ file: string; text: string }>;
export function plainBm25(
  documents: Array<{ file: string; text: string }>,
  parameters?: { k1?: number; b?: number },
): (query: string) => ScoredFile[];
export function wordOverlap(
  documents: Array<{ file: string; text: string }>,
): (query: string) => ScoredFile[];
export function measure(
  ranker: (query: string) => ScoredFile[] | Promise<ScoredFile[]>,
  queries: LabelledQuery[],
  cutoff?: number,
): Promise<Measured>;
export class FeatureHashingEmbeddings {
  model: string;
  dimensions: number;
  vectorOf(text: string): number[];
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}
export function corpusSourceRanker(
  folder: string,
  options?: { embeddings?: FeatureHashingEmbeddings },
): Promise<{ rank: (query: string) => Promise<ScoredFile[]>; close: () => Promise<void> }>;

export function manPageNotes(folder: string, max?: number): Array<{ file: string; text: string }>;
export function memorySearchRanker(
  notes: Array<{ file: string; text: string }>,
): Promise<(query: string) => Promise<ScoredFile[]>>;
export function searchMemoryRanker(
  notes: Array<{ file: string; text: string }>,
): Promise<(query: string) => Promise<ScoredFile[]>>;
