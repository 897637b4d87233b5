/** One labelled query of a relevance set: what a user types and the one right file. */
export interface LabelledQuery {
  query: string;
  file: string;
}

/** A relevance set: its corpus folder (Markdown files) and its labelled queries. */
export interface RelevanceSet {
  name: string;
  folder: string;
  queries: LabelledQuery[];
}

/** The Linux man-pages set (see relevance-sets.mjs). */
export function buildManPageSet(options: { cacheDirectory: string; every?: number }): RelevanceSet;
/** The Debian READMEs set (see relevance-sets.mjs). */
export function buildDebianReadmeSet(options: {
  cacheDirectory: string;
  minimumCharacters?: number;
}): RelevanceSet;
/** The hand-written set of the relevance test. */
export function readHandWrittenSet(): RelevanceSet;
