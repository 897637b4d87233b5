/**
 * MiniSearch 7.2 configured exactly as the lexical index ranks (fields, boosts, BM25+ parameters,
 * prefix matching, tokenizers): the reference the engine's scores are compared with.
 */
import MiniSearch from "minisearch";
import {
  LEXICAL_FIELD_BOOSTS,
  LEXICAL_RANKING,
  type LexicalDocument,
} from "../engine/lexical-index.js";

/**
 * A fresh MiniSearch that scores the way {@link createLexicalIndex} does.
 *
 * @returns the reference engine
 */
export function createReferenceMiniSearch(): MiniSearch<LexicalDocument> {
  return new MiniSearch<LexicalDocument>({
    idField: "id",
    fields: [...LEXICAL_RANKING.fields],
    storeFields: [],
    tokenize: LEXICAL_RANKING.tokenizeDocument,
    processTerm: (term) => term,
    autoVacuum: false,
    searchOptions: {
      boost: { ...LEXICAL_FIELD_BOOSTS },
      combineWith: "OR",
      prefix: LEXICAL_RANKING.matchesAsPrefix,
      fuzzy: false,
      bm25: { ...LEXICAL_RANKING.bm25 },
      weights: { prefix: LEXICAL_RANKING.prefixWeight, fuzzy: 0.45 },
      tokenize: LEXICAL_RANKING.tokenizeQuery,
      processTerm: (term) => term,
    },
  });
}
