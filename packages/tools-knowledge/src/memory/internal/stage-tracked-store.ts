import type { Embeddings, VectorStore } from "../../engine/types.js";

/**
 * An embedder or store failure, marked with where it came from: the embedder (nothing was
 * written) or the store.
 *
 * @internal
 */
export class StageError extends Error {
  /**
   * @param stage - where the failure came from
   * @param original - what was thrown
   */
  constructor(
    readonly stage: "embedder" | "store",
    readonly original: unknown,
  ) {
    super(original instanceof Error ? original.message : String(original));
  }
}

/** Wraps a store method so what it throws becomes a store {@link StageError}. */
function storeStage<Arguments extends unknown[], Result>(
  call: (...parameters: Arguments) => Promise<Result>,
): (...parameters: Arguments) => Promise<Result> {
  return async (...parameters: Arguments): Promise<Result> => {
    try {
      return await call(...parameters);
    } catch (error) {
      throw new StageError("store", error);
    }
  };
}

/**
 * The store and embedder `remember` writes through, each failure marked with its stage
 * ({@link StageError}) so the tool can tell an embedder failure (nothing written) from a store one.
 *
 * @param store - the store
 * @param embeddings - the embedder, if any
 * @returns the wrapped store and embedder
 * @internal
 */
export function stageTrackedStore(
  store: VectorStore,
  embeddings: Embeddings | undefined,
): { writer: VectorStore; embedder: Embeddings | undefined } {
  const embedder: Embeddings | undefined =
    embeddings === undefined
      ? undefined
      : {
          embedDocuments: async (texts) => {
            try {
              return await embeddings.embedDocuments(texts);
            } catch (error) {
              throw new StageError("embedder", error);
            }
          },
          embedQuery: (text) => embeddings.embedQuery(text),
        };
  const writer: VectorStore = {
    searchesText: store.searchesText,
    upsert: storeStage(store.upsert.bind(store)),
    query: storeStage(store.query.bind(store)),
    delete: storeStage(store.delete.bind(store)),
    ...(typeof store.range === "function" ? { range: storeStage(store.range.bind(store)) } : {}),
  };
  return { writer, embedder };
}
