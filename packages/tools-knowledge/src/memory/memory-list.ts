import {
  defineTool,
  formatCount,
  formatPageMarker,
  isOffsetPastEnd,
  joinSentences,
  mountedTools,
  mountedToolsOption,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { recordsByKey } from "./internal/memory-search-index.js";
import {
  backendFailure,
  backendOption,
  MEMORY_TOOL_NAMES,
  type MemoryNamespaceOption,
  memoryNeighbours,
  namespaceOption,
  nothingSavedYet,
  resolveNamespace,
  tagsField,
} from "./internal/memory-tool-common.js";
import type { MemoryBackend } from "./memory-backend.js";
import { MAX_MEMORY_KEY_CHARACTERS, normalizeMemoryTags } from "./memory-rules.js";

/** The default name of the list tool. */
export const MEMORY_LIST_TOOL_NAME = MEMORY_TOOL_NAMES.list;

/** Default number of entries when the model gives no `limit`: 50. */
export const DEFAULT_MEMORY_LIST_LIMIT = 50;

/** Default largest `limit`: 500. */
export const DEFAULT_MEMORY_LIST_MAX_LIMIT = 500;

/** Default time limit of one `memory_list` call: 30 seconds. */
export const DEFAULT_MEMORY_LIST_TIMEOUT_MS = 30_000;

/** Field names other toolsets use for `memory_list`'s fields, accepted silently: `key_prefix` → `prefix`; `labels` → `tags`. */
export const MEMORY_LIST_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  key_prefix: "prefix",
  labels: "tags",
});

/** One entry of `memory_list`. */
export interface MemoryListEntry {
  /** The key. */
  key: string;
  /** Its tags. */
  tags: string[];
  /** Length of its content, in characters. */
  characters: number;
  /** When it was first written (ISO 8601). */
  created_at: string;
  /** When it was last written (ISO 8601). */
  updated_at: string;
}

/** What `memory_list` returns (every key snake_case). */
export interface MemoryListToolData {
  /** The key prefix the entries were limited to, when one was given. */
  prefix?: string;
  /** The tags every entry had to carry, when some were given. */
  tags?: string[];
  /** 1-based position of this page's first entry. */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's entries, by key (code-unit order). */
  entries: MemoryListEntry[];
  /** Entries in all (exact), after the filters, before paging. */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether entries after this page were left out. */
  truncated: boolean;
  /** Memories in the namespace, before the filters. */
  memories: number;
}

/** Options of {@link createMemoryListTool}. */
export interface MemoryListToolOptions {
  /** Where memories live. */
  backend: MemoryBackend;
  /** The host's namespace: a list of labels, or a function of the call's context. */
  namespace: MemoryNamespaceOption;
  /** Entries on a page when the model gives no limit. Default {@link DEFAULT_MEMORY_LIST_LIMIT} (50). */
  defaultLimit?: number;
  /** Largest limit accepted. Default {@link DEFAULT_MEMORY_LIST_MAX_LIMIT} (500). */
  maxLimit?: number;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /**
   * The name of a `remember` that saves into this same backend (`createMemoryRememberTool`;
   * `createMemoryTools({ remember: true })` sets it): named as a saver in empty answers. Default:
   * none — a mounted `remember` is taken to save into another store.
   */
  rememberToolName?: string;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_MEMORY_LIST_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const optionsSchema = z
  .object({
    ...toolOverridesShape,
    backend: backendOption,
    namespace: namespaceOption,
    defaultLimit: z.number().int().min(1).max(10_000).optional(),
    maxLimit: z.number().int().min(1).max(10_000).optional(),
    mountedTools: mountedToolsOption,
    rememberToolName: z.string().min(1).optional(),
    timeoutMs: z.number().int().min(0).optional(),
  })
  .refine(
    (value) =>
      (value.defaultLimit ?? DEFAULT_MEMORY_LIST_LIMIT) <=
      (value.maxLimit ?? DEFAULT_MEMORY_LIST_MAX_LIMIT),
    { message: "defaultLimit must not exceed maxLimit", path: ["defaultLimit"] },
  );

function createInputSchema(defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({
    unit: "entry",
    units: "entries",
    defaultLimit,
    maxLimit,
    offsetDescription: "1-based (default 1).",
    limitDescription: `Page size (default ${defaultLimit}).`,
  });
  return z.object({
    prefix: z
      .string()
      .min(1)
      .max(MAX_MEMORY_KEY_CHARACTERS)
      .optional()
      .describe("Only keys starting with this ('user/')."),
    tags: tagsField("filter"),
    offset: paging.offset,
    limit: paging.limit,
  });
}

/** The input schema of `memory_list` (default limits). */
export const memoryListInputSchema = createInputSchema(
  DEFAULT_MEMORY_LIST_LIMIT,
  DEFAULT_MEMORY_LIST_MAX_LIMIT,
);

/** The `memory_list` tool's type. */
export type MemoryListTool = Tool<typeof memoryListInputSchema, MemoryListToolData>;

/** Options of {@link formatMemoryListResult}. */
export interface MemoryListFormatOptions {
  /** The tool's name, for the next call. Default `"memory_list"`. */
  toolName?: string;
  /** Names of the tools mounted beside it (the messages name only these). Default: none. */
  mountedTools?: readonly string[];
  /** The name of a `remember` that saves into the same backend, if one does. Default: none. */
  rememberToolName?: string;
}

/**
 * Renders a `memory_list` result for the model: a summary line, one line per entry (key, tags,
 * size, last write) and the contract's page marker naming the next call.
 *
 * @param data - the tool's data
 * @param options - the tool's name and the tools mounted beside it
 * @returns model-facing text
 * @example
 * formatMemoryListResult(data);
 * // '2 memories (by key):\n- user/editor (tags: preference; 25 characters; updated 2026-03-04T05:06:07.000Z)\n…'
 */
export function formatMemoryListResult(
  data: MemoryListToolData,
  options: MemoryListFormatOptions = {},
): string {
  const name = options.toolName ?? MEMORY_LIST_TOOL_NAME;
  const mounted = mountedTools(options.mountedTools);
  const filters = [
    data.prefix === undefined ? undefined : `prefix=${JSON.stringify(data.prefix)}`,
    data.tags === undefined ? undefined : `tags=${JSON.stringify(data.tags)}`,
  ].filter((part): part is string => part !== undefined);
  const lines: string[] = [];
  if (data.entries.length === 0) {
    if (data.memories === 0) {
      lines.push(nothingSavedYet(memoryNeighbours(mounted, options.rememberToolName), "", ""));
    } else {
      lines.push(
        `None of the ${formatCount(data.memories)} ${data.memories === 1 ? "memory" : "memories"} matches ${filters.join(" and ")}. Call ${name} again with ${filters.length > 1 ? "fewer filters" : "another filter"} or without.`,
      );
    }
  } else {
    const first = data.offset;
    const last = data.offset + data.entries.length - 1;
    const range =
      first === 1 && !data.truncated
        ? `${formatCount(data.total)} ${data.total === 1 ? "memory" : "memories"}`
        : `Memories ${formatCount(first)}–${formatCount(last)} of ${formatCount(data.total)}`;
    lines.push(`${range}${filters.length > 0 ? ` with ${filters.join(" and ")}` : ""} (by key):`);
    for (const entry of data.entries) {
      const tags = entry.tags.length > 0 ? `tags: ${entry.tags.join(", ")}; ` : "";
      lines.push(
        `- ${entry.key} (${tags}${formatCount(entry.characters)} ${entry.characters === 1 ? "character" : "characters"}; updated ${entry.updated_at})`,
      );
    }
    if (mounted.has(MEMORY_TOOL_NAMES.read)) {
      lines.push(`Read one with ${MEMORY_TOOL_NAMES.read} key="…".`);
    }
  }
  if (data.next_offset !== undefined) {
    const args: Record<string, NextCallValue> = {};
    if (data.prefix !== undefined) args.prefix = data.prefix;
    if (data.tags !== undefined) args.tags = data.tags;
    args.limit = data.limit;
    const omitted = Math.max(1, data.total - data.next_offset + 1);
    lines.push(
      formatPageMarker({
        tool: name,
        nextOffset: data.next_offset,
        omitted,
        unit: omitted === 1 ? "entry" : "entries",
        args,
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `memory_list` tool: the keys of the host's namespace in key order (code units), with
 * their tags, sizes and timestamps — optionally only keys starting with `prefix` and carrying every
 * tag in `tags` — paged by `offset` / `limit` with the contract's marker.
 *
 * @param options - the backend, the namespace, the limits, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const list = createMemoryListTool({ backend, namespace: ["user", "alice"] });
 * await list.run({ prefix: "user/" });
 */
export function createMemoryListTool(options: MemoryListToolOptions): MemoryListTool {
  const parsed = parseOptions("createMemoryListTool", optionsSchema, options);
  const name = parsed.name ?? MEMORY_LIST_TOOL_NAME;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MEMORY_LIST_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_MEMORY_LIST_LIMIT, maxLimit);
  const mounted = mountedTools(parsed.mountedTools);
  const { backend } = parsed;
  const namespace = parsed.namespace as MemoryNamespaceOption;

  const description =
    parsed.description ??
    joinSentences(
      [
        "List memory keys with tags, size and last write, to see what is remembered.",
        mounted.has(MEMORY_TOOL_NAMES.search)
          ? `${MEMORY_TOOL_NAMES.search} finds one by its words.`
          : undefined,
        "A cut page ends with the exact next call.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: createInputSchema(defaultLimit, maxLimit) as unknown as typeof memoryListInputSchema,
    aliases: MEMORY_LIST_ALIASES,
    annotations: { title: "List memories", readOnly: true, idempotent: true },
    tags: ["memory", "memory:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_MEMORY_LIST_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await resolveNamespace(namespace, context, name);
      if ("failure" in resolved) return resolved.failure;
      const tags = request.tags === undefined ? undefined : normalizeMemoryTags(request.tags);
      let sorted: ReturnType<typeof recordsByKey>;
      try {
        sorted = recordsByKey(
          await backend.snapshot(resolved.namespace, { signal: context.signal }),
        );
      } catch (error) {
        if (context.signal.aborted) throw error;
        return backendFailure(name, "list the memories", error);
      }
      const prefix = request.prefix;
      const kept = sorted.filter(
        (record) =>
          (prefix === undefined || record.key.startsWith(prefix)) &&
          (tags === undefined || tags.every((tag) => record.tags.includes(tag))),
      );
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      if (isOffsetPastEnd(offset, kept.length)) {
        return offsetPastEnd({ tool: name, offset, total: kept.length, unit: "entries" });
      }
      const entries = kept.slice(offset - 1, offset - 1 + limit).map(
        (record): MemoryListEntry => ({
          key: record.key,
          tags: [...record.tags],
          characters: record.content.length,
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        }),
      );
      const end = offset - 1 + entries.length;
      const data: MemoryListToolData = {
        offset,
        limit,
        entries,
        total: kept.length,
        truncated: end < kept.length,
        memories: sorted.length,
      };
      if (prefix !== undefined) data.prefix = prefix;
      if (tags !== undefined && tags.length > 0) data.tags = tags;
      if (end < kept.length) data.next_offset = end + 1;
      return ok(data);
    },
    render: (data) =>
      formatMemoryListResult(data, {
        toolName: name,
        ...(parsed.rememberToolName === undefined
          ? {}
          : { rememberToolName: parsed.rememberToolName }),
        ...(parsed.mountedTools === undefined ? {} : { mountedTools: parsed.mountedTools }),
      }),
  });
}
