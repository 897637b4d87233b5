import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import type {
  MemoryBackend,
  MemoryRecord,
  MemorySnapshot,
  MemoryWriteOutcome,
} from "./memory-backend.js";
import { encodeNamespaceLabel } from "./memory-rules.js";

/**
 * One item of a LangGraph store, as `get` and `search` return it (the fields of `Item` from
 * `@langchain/langgraph`).
 */
export interface BaseStoreItemLike {
  /** The item's namespace, as stored. */
  namespace: string[];
  /** The item's key. */
  key: string;
  /** The stored value. */
  value: Record<string, unknown>;
  /** When the store created it. */
  createdAt: Date;
  /** When the store last updated it. */
  updatedAt: Date;
}

/**
 * The part of LangGraph's `BaseStore` (`@langchain/langgraph`: `InMemoryStore`;
 * `@langchain/langgraph-checkpoint-postgres/store`: `PostgresStore`; any other implementation)
 * that the memory backend uses. Structural, so this package imports no LangGraph code.
 */
export interface BaseStoreLike {
  /** Reads one item. */
  get(namespace: string[], key: string): Promise<BaseStoreItemLike | null>;
  /** Writes one item (`index: false` skips the store's embedding index). */
  put(
    namespace: string[],
    key: string,
    value: Record<string, unknown>,
    index?: false | string[],
  ): Promise<void>;
  /** Deletes one item. */
  delete(namespace: string[], key: string): Promise<void>;
  /** Lists items under a namespace prefix, a page at a time. */
  search(
    namespacePrefix: string[],
    options?: { limit?: number; offset?: number },
  ): Promise<BaseStoreItemLike[]>;
}

/** Options of {@link createBaseStoreMemoryBackend}. */
export interface BaseStoreMemoryBackendOptions {
  /** The LangGraph store: `new InMemoryStore()`, `PostgresStore.fromConnString(…)`, … */
  store: BaseStoreLike;
  /**
   * The labels put before every memory namespace, so memories sit apart from the graph's other
   * items. Default `["agentool-memory"]`. Each label must be a valid LangGraph label (no `.`, `:`,
   * and for PostgresStore no `%`, `_` or `\`).
   */
  namespacePrefix?: readonly string[];
  /**
   * Items read per `search` call while taking a snapshot. Default 10,000: one query for a
   * namespace of up to 10,000 memories (PostgresStore sorts the namespace again for every page, so
   * ten pages of 1,000 took about twice as long in `pnpm bench memory`).
   */
  pageSize?: number;
  /**
   * The store's `index` argument on `put`: `false` (default) skips the store's embedding index;
   * a list of fields (`["content"]`) embeds those when the store has an index configured.
   */
  index?: false | string[];
}

/** Default labels before every memory namespace in a LangGraph store. */
export const DEFAULT_BASE_STORE_MEMORY_PREFIX: readonly string[] = Object.freeze([
  "agentool-memory",
]);

/** Default items per `search` page while taking a snapshot: 10,000. */
export const DEFAULT_BASE_STORE_PAGE_SIZE = 10_000;

const optionsSchema = z.object({
  store: z.custom<BaseStoreLike>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as BaseStoreLike).get === "function" &&
      typeof (value as BaseStoreLike).put === "function" &&
      typeof (value as BaseStoreLike).delete === "function" &&
      typeof (value as BaseStoreLike).search === "function",
    { error: "expected a LangGraph BaseStore ({ get, put, delete, search })" },
  ),
  namespacePrefix: z
    .array(
      z
        .string()
        .min(1)
        .regex(/^[^.:%_\\\s]+$/, {
          error:
            "a label holds none of . : % _ \\ or spaces (LangGraph and PostgresStore refuse them)",
        }),
    )
    .readonly()
    .optional(),
  pageSize: z.number().int().min(1).max(100_000).optional(),
  index: z.union([z.literal(false), z.array(z.string().min(1))]).optional(),
});

function isoOf(value: unknown, fallback: Date | undefined): string {
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) {
    return new Date(value).toISOString();
  }
  if (fallback instanceof Date && !Number.isNaN(fallback.getTime())) return fallback.toISOString();
  return new Date(0).toISOString();
}

function recordOf(item: BaseStoreItemLike): MemoryRecord | undefined {
  const value = item.value;
  if (typeof value !== "object" || value === null || typeof value.content !== "string") {
    return undefined;
  }
  const tags = Array.isArray(value.tags)
    ? value.tags.filter((tag): tag is string => typeof tag === "string")
    : [];
  const updatedAt = isoOf(value.updated_at, item.updatedAt);
  const storeStamp = item.updatedAt instanceof Date ? item.updatedAt.getTime() : 0;
  return Object.freeze({
    key: item.key,
    content: value.content,
    tags: Object.freeze(tags),
    createdAt: isoOf(value.created_at, item.createdAt),
    updatedAt,
    revision: `${updatedAt}|${storeStamp}|${value.content.length}|${tags.join(",")}`,
  });
}

/**
 * Creates a memory backend over any LangGraph `BaseStore`, so memories live where the host's graph
 * state lives: `InMemoryStore` (one process), `PostgresStore` (a fleet of processes or machines).
 * Each memory is one item: namespace = `namespacePrefix` + the memory namespace (each label
 * encoded to letters, digits, `-` and `~XX`, which every store accepts), key = the memory key,
 * value = `{ content, tags, created_at, updated_at }` (snake_case, ISO 8601).
 *
 * A snapshot (for `memory_search` and `memory_list`) reads the namespace with `search`, a page of
 * `pageSize` items per call, and keeps only the items of exactly that namespace (stores match
 * prefixes: `["alice"]` would otherwise see `["alice", "thread-1"]`). Runtime-neutral: no LangGraph
 * import; pass the store in.
 *
 * @param options - the store, the namespace prefix, the page size and the index argument
 * @returns the backend
 * @throws AgentoolError for invalid options
 * @example
 * import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
 * const store = PostgresStore.fromConnString(process.env.DATABASE_URL);
 * await store.setup();
 * const backend = createBaseStoreMemoryBackend({ store });
 * const tools = createMemoryTools({ backend, namespace: (context) => ["user", String(context.metadata.user_id)] });
 */
export function createBaseStoreMemoryBackend(
  options: BaseStoreMemoryBackendOptions,
): MemoryBackend {
  const parsed = parseOptions("createBaseStoreMemoryBackend", optionsSchema, options);
  const store = parsed.store;
  const prefix = [...(parsed.namespacePrefix ?? DEFAULT_BASE_STORE_MEMORY_PREFIX)];
  const pageSize = parsed.pageSize ?? DEFAULT_BASE_STORE_PAGE_SIZE;
  const index = parsed.index ?? false;
  const labelsOf = (namespace: readonly string[]) => [
    ...prefix,
    ...namespace.map(encodeNamespaceLabel),
  ];

  return {
    async read(namespace, key) {
      const item = await store.get(labelsOf(namespace), key);
      return item === null || item === undefined ? undefined : recordOf(item);
    },
    async write(namespace, request): Promise<MemoryWriteOutcome> {
      const labels = labelsOf(namespace);
      const previous = await store.get(labels, request.key);
      const previousRecord =
        previous === null || previous === undefined ? undefined : recordOf(previous);
      const at = request.now.toISOString();
      const value = {
        content: request.content,
        tags: [...request.tags],
        created_at: previousRecord?.createdAt ?? at,
        updated_at: at,
      };
      await store.put(labels, request.key, value, index);
      const record = recordOf({
        namespace: labels,
        key: request.key,
        value,
        createdAt: request.now,
        updatedAt: request.now,
      }) as MemoryRecord;
      return { record, created: previousRecord === undefined };
    },
    async delete(namespace, key) {
      const labels = labelsOf(namespace);
      const previous = await store.get(labels, key);
      if (previous === null || previous === undefined) return false;
      await store.delete(labels, key);
      return true;
    },
    async snapshot(namespace, callOptions): Promise<MemorySnapshot> {
      const labels = labelsOf(namespace);
      const path = labels.join("\u0000");
      const records = new Map<string, MemoryRecord>();
      for (let offset = 0; ; offset += pageSize) {
        callOptions?.signal?.throwIfAborted();
        const items = await store.search(labels, { limit: pageSize, offset });
        for (const item of items) {
          if (!Array.isArray(item.namespace) || item.namespace.join("\u0000") !== path) continue;
          const record = recordOf(item);
          if (record === undefined) continue;
          const known = records.get(record.key);
          if (known === undefined || known.updatedAt <= record.updatedAt) {
            records.set(record.key, record);
          }
        }
        if (items.length < pageSize) break;
      }
      return { records };
    },
  };
}
