import { z } from "zod";
import type { Embeddings, VectorStore } from "./types.js";

/**
 * The option schema of a {@link VectorStore} (`upsert`, `query`, `delete`), shared by `ingest`,
 * `remember` and the store source.
 *
 * @internal
 */
export const vectorStoreSchema = z.custom<VectorStore>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as VectorStore).upsert === "function" &&
    typeof (value as VectorStore).query === "function" &&
    typeof (value as VectorStore).delete === "function",
  { error: "expected a VectorStore ({ upsert, query, delete, searchesText })" },
);

/**
 * The option schema of an embedder (any LangChain-shaped `Embeddings`), shared by `ingest`,
 * `remember`, the store source and the corpus source.
 *
 * @internal
 */
export const embeddingsSchema = z.custom<Embeddings>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Embeddings).embedDocuments === "function" &&
    typeof (value as Embeddings).embedQuery === "function",
  { error: "expected an Embeddings ({ embedDocuments(texts), embedQuery(text) })" },
);
