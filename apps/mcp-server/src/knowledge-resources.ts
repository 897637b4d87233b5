import { createInMemoryVectorStore, type VectorStore } from "@agentool/tools-knowledge";
import { type CorpusSource, createCorpusSource } from "@agentool/tools-knowledge/node";

/**
 * What the knowledge family keeps across tool-set rebuilds (a roots change, the client's
 * capabilities arriving): the memory `remember` writes, and one corpus source per knowledge
 * folder and index location, so a rebuild over the same folder keeps its loaded index.
 */
export interface KnowledgeResources {
  /** The store `remember` writes and `search_memory` reads: in memory, as long as the server lives. */
  readonly memory: VectorStore;
  /**
   * The corpus source of a knowledge folder (the same object for the same folder and index
   * directory).
   *
   * @param folder - the knowledge folder's real path
   * @param indexDirectory - where its sidecar index goes; `undefined` = `<folder>/.knowledge`
   */
  corpus(folder: string, indexDirectory: string | undefined): CorpusSource;
  /**
   * Closes every corpus source except `keep` (a roots change left them behind): their indexing
   * stops and their last save is awaited.
   */
  release(keep: CorpusSource | undefined): Promise<void>;
  /** Closes every corpus source (their last saves are awaited). */
  close(): Promise<void>;
}

/**
 * Creates the knowledge family's long-lived state: an in-memory store for `remember` /
 * `search_memory` and a cache of corpus sources.
 *
 * @param options - `onWarn` receives the corpus sources' warnings (index rebuilt, file skipped…)
 * @returns the resources
 * @example
 * const resources = createKnowledgeResources({ onWarn: (message) => console.error(message) });
 * const source = resources.corpus("/work/project", undefined);
 */
export function createKnowledgeResources(
  options: { onWarn?: (message: string) => void } = {},
): KnowledgeResources {
  const memory = createInMemoryVectorStore();
  const sources = new Map<string, CorpusSource>();
  const closeAll = (list: CorpusSource[]) =>
    Promise.allSettled(list.map((source) => source.close())).then(() => undefined);
  return {
    memory,
    corpus(folder, indexDirectory) {
      const key = JSON.stringify([folder, indexDirectory ?? null]);
      let source = sources.get(key);
      if (source === undefined) {
        source = createCorpusSource({
          root: folder,
          ...(indexDirectory === undefined ? {} : { indexDirectory }),
          ...(options.onWarn === undefined ? {} : { onWarn: options.onWarn }),
        });
        sources.set(key, source);
      }
      return source;
    },
    release(keep) {
      const left: CorpusSource[] = [];
      for (const [key, source] of sources) {
        if (source === keep) continue;
        sources.delete(key);
        left.push(source);
      }
      return closeAll(left);
    },
    close() {
      const all = [...sources.values()];
      sources.clear();
      return closeAll(all);
    },
  };
}
