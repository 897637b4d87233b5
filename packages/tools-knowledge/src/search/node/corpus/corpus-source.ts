import type { KnowledgeSearchContext, KnowledgeSource } from "../../../engine/types.js";

/** What one refresh did. */
export interface CorpusRefreshReport {
  /** Files in the index after the refresh. */
  files: number;
  /** Chunks in the index after the refresh. */
  chunks: number;
  /** Files seen for the first time. */
  added: number;
  /** Files whose content changed (re-chunked, re-embedded). */
  changed: number;
  /** Files whose size or time changed but whose bytes did not (re-hashed only). */
  touched: number;
  /** Files gone since the last refresh. */
  removed: number;
  /** Chunks embedded by this refresh. */
  embedded: number;
  /** Chunks still without a vector (their embedding failed; retried next time). */
  pendingEmbeddings: number;
  /** Whether the sidecar was written. */
  saved: boolean;
  /**
   * Whether the folder was walked (every file stat'ed). `false` when the folder watchers saw no
   * change since the last walk (see `watch`).
   */
  walked: boolean;
  /**
   * Entries checked because a folder watcher named them, when that was enough (no walk): each
   * was `lstat`ed, nothing else. 0 after a walk or when nothing changed.
   */
  eventPaths: number;
  /** Whether the BM25 index of this refresh was built on a worker thread (see `indexWorker`). */
  builtOnWorker: boolean;
  /** What went wrong or was rebuilt. */
  warnings: string[];
  /** Wall time in ms. */
  durationMs: number;
}

/** A corpus folder with its sidecar index: a {@link KnowledgeSource} for `search_knowledge`. */
export interface CorpusSource extends KnowledgeSource {
  /** The corpus root, absolute. */
  readonly root: string;
  /** The sidecar index file, absolute. */
  readonly indexPath: string;
  /**
   * Brings the index up to date with the folder (what every search does first). Concurrent calls
   * in one process share one refresh.
   */
  refresh(context?: Partial<KnowledgeSearchContext>): Promise<CorpusRefreshReport>;
  /**
   * Waits until the sidecar on disk holds what the index in memory holds. A search answers
   * before its changes are written (the write follows in the background); `refresh()` and
   * `close()` wait for it themselves.
   *
   * @returns whether the last write succeeded (`true` when there was nothing to write)
   */
  flush(): Promise<{ saved: boolean; warnings: string[] }>;
  /** Stops any refresh, waits for the last save and drops the in-memory index (a later search reloads it). */
  close(): Promise<void>;
}
