/**
 * The memory port: where `memory_write`, `memory_read`, `memory_search`, `memory_delete` and
 * `memory_list` keep their memories. Runtime-neutral (no `node:` import); the file store is on
 * `@agentool/tools-knowledge/node` (`createFileMemoryBackend`), the LangGraph adapter
 * (`createBaseStoreMemoryBackend`) and an in-process map (`createInMemoryMemoryBackend`) on the root
 * entry.
 *
 * A backend stores records by namespace and key and returns every record of a namespace as a
 * snapshot; ranking (BM25), paging and wording stay in the tools, so every backend searches alike.
 * A backend that cannot do something the contract names throws a `KnowledgeSourceError` with the
 * code (`NETWORK_ERROR` for a database that is down…); anything else it throws becomes `INTERNAL`.
 */

/** One stored memory, as a backend returns it (immutable: a change is a new record). */
export interface MemoryRecord {
  /** The key, exactly as written. */
  readonly key: string;
  /** The text saved. */
  readonly content: string;
  /** Its tags (trimmed, without duplicates, in the order written). */
  readonly tags: readonly string[];
  /** When the key was first written (ISO 8601, UTC). */
  readonly createdAt: string;
  /** When it was last written (ISO 8601, UTC). */
  readonly updatedAt: string;
  /**
   * Changes whenever the record does: two records of one key with the same revision are the same
   * record (the search index re-reads only records whose revision changed).
   */
  readonly revision: string;
}

/** What {@link MemoryBackend.write} stores. */
export interface MemoryWriteRequest {
  /** The key (already checked against the key rules). */
  key: string;
  /** The text (already checked against the content cap). */
  content: string;
  /** The tags (already normalised). */
  tags: readonly string[];
  /** The time of the write (a backend with its own clock may use that instead). */
  now: Date;
}

/** What {@link MemoryBackend.write} returns. */
export interface MemoryWriteOutcome {
  /** The record as stored. */
  record: MemoryRecord;
  /** Whether the key was new (`false`: an existing memory was replaced, `createdAt` kept). */
  created: boolean;
}

/** Every record of one namespace at one moment. */
export interface MemorySnapshot {
  /** The records by key. */
  readonly records: ReadonlyMap<string, MemoryRecord>;
  /**
   * Optional: a value that changes whenever any record of the namespace does. When two snapshots
   * carry the same revision the tools skip comparing their records.
   */
  readonly revision?: string;
}

/** Options of every {@link MemoryBackend} call. */
export interface MemoryBackendCallOptions {
  /** Aborted when the tool call is cancelled or times out. */
  signal?: AbortSignal;
}

/**
 * A place to keep memories. Namespaces are lists of non-empty strings chosen by the host (never by
 * the model): a backend must keep them apart — `["alice"]` never sees `["bob"]`'s records, nor
 * `["alice", "thread-1"]`'s.
 */
export interface MemoryBackend {
  /**
   * Reads one record.
   *
   * @returns the record, or `undefined` when the key does not exist
   */
  read(
    namespace: readonly string[],
    key: string,
    options?: MemoryBackendCallOptions,
  ): Promise<MemoryRecord | undefined>;
  /** Creates or replaces one record, whole (never a mix of two writes). */
  write(
    namespace: readonly string[],
    request: MemoryWriteRequest,
    options?: MemoryBackendCallOptions,
  ): Promise<MemoryWriteOutcome>;
  /**
   * Deletes one record.
   *
   * @returns whether it existed
   */
  delete(
    namespace: readonly string[],
    key: string,
    options?: MemoryBackendCallOptions,
  ): Promise<boolean>;
  /** Every record of the namespace (an empty map when it holds none). */
  snapshot(
    namespace: readonly string[],
    options?: MemoryBackendCallOptions,
  ): Promise<MemorySnapshot>;
  /** Releases what the backend holds open (watchers, pools); optional. */
  close?(): Promise<void>;
}
