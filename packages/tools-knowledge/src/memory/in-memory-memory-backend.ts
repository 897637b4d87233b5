import type {
  MemoryBackend,
  MemoryRecord,
  MemorySnapshot,
  MemoryWriteOutcome,
  MemoryWriteRequest,
} from "./memory-backend.js";

/** A {@link MemoryBackend} that keeps memories in this process only (lost when it exits). */
export interface InMemoryMemoryBackend extends MemoryBackend {
  /** How many records it holds, across every namespace. */
  readonly size: number;
}

interface NamespaceRecords {
  records: Map<string, MemoryRecord>;
  revision: number;
  /** A snapshot holds `records`: the next change copies the map first. */
  shared: boolean;
}

/**
 * Creates a memory backend over a map in this process: for tests, browsers and short-lived agents.
 * Memories vanish with the process — use `createFileMemoryBackend` (`./node`) or
 * `createBaseStoreMemoryBackend` for memories that outlive it.
 *
 * @returns the backend
 * @example
 * const tools = createMemoryTools({ backend: createInMemoryMemoryBackend(), namespace: ["demo"] });
 */
export function createInMemoryMemoryBackend(): InMemoryMemoryBackend {
  const namespaces = new Map<string, NamespaceRecords>();
  let counter = 0;
  const entryOf = (namespace: readonly string[], create: boolean) => {
    const id = JSON.stringify(namespace);
    let entry = namespaces.get(id);
    if (entry === undefined && create) {
      entry = { records: new Map(), revision: 0, shared: false };
      namespaces.set(id, entry);
    }
    return entry;
  };
  return {
    get size() {
      let total = 0;
      for (const entry of namespaces.values()) total += entry.records.size;
      return total;
    },
    async read(namespace, key) {
      return entryOf(namespace, false)?.records.get(key);
    },
    async write(namespace, request: MemoryWriteRequest): Promise<MemoryWriteOutcome> {
      const entry = entryOf(namespace, true) as NamespaceRecords;
      const previous = entry.records.get(request.key);
      const at = request.now.toISOString();
      counter += 1;
      const record: MemoryRecord = Object.freeze({
        key: request.key,
        content: request.content,
        tags: Object.freeze([...request.tags]),
        createdAt: previous?.createdAt ?? at,
        updatedAt: at,
        revision: String(counter),
      });
      // Copy on write: a snapshot handed out earlier stays as it was.
      if (entry.shared) {
        entry.records = new Map(entry.records);
        entry.shared = false;
      }
      entry.records.set(request.key, record);
      entry.revision = counter;
      return { record, created: previous === undefined };
    },
    async delete(namespace, key) {
      const entry = entryOf(namespace, false);
      if (entry === undefined || !entry.records.has(key)) return false;
      if (entry.shared) {
        entry.records = new Map(entry.records);
        entry.shared = false;
      }
      entry.records.delete(key);
      counter += 1;
      entry.revision = counter;
      return true;
    },
    async snapshot(namespace): Promise<MemorySnapshot> {
      const entry = entryOf(namespace, false);
      if (entry === undefined) return { records: new Map(), revision: "0" };
      entry.shared = true;
      return { records: entry.records, revision: String(entry.revision) };
    },
  };
}
