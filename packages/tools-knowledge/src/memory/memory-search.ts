import {
  defineTool,
  fail,
  formatCount,
  formatPageMarker,
  isOffsetPastEnd,
  joinSentences,
  listWords,
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
import { MemorySearchIndex, memoryExcerpt } from "./internal/memory-search-index.js";
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
import type { MemoryBackend, MemoryRecord } from "./memory-backend.js";
import { normalizeMemoryTags } from "./memory-rules.js";

/** The default name of the search tool. */
export const MEMORY_SEARCH_TOOL_NAME = MEMORY_TOOL_NAMES.search;

/** Default number of results when the model gives no `limit`: 10 (seed 002's default). */
export const DEFAULT_MEMORY_SEARCH_LIMIT = 10;

/** Default largest `limit`: 50. */
export const DEFAULT_MEMORY_SEARCH_MAX_LIMIT = 50;

/** Default longest excerpt of one result: 400 characters (`memory_read` gives the whole memory). */
export const DEFAULT_MEMORY_EXCERPT_CHARACTERS = 400;

/** Default time limit of one `memory_search` call: 30 seconds. */
export const DEFAULT_MEMORY_SEARCH_TIMEOUT_MS = 30_000;

/**
 * Field names other toolsets use for `memory_search`'s fields, accepted silently: `q`, `text`,
 * `search` → `query`; `top_k`, `k`, `max_results` → `limit`; `labels` → `tags`.
 */
export const MEMORY_SEARCH_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  q: "query",
  text: "query",
  search: "query",
  top_k: "limit",
  k: "limit",
  max_results: "limit",
  labels: "tags",
});

/** One result of `memory_search`. */
export interface MemorySearchResult {
  /** The memory's key (`memory_read` opens it whole). */
  key: string;
  /** The content, or an excerpt of it when it is longer than the excerpt cap. */
  content: string;
  /** Whether `content` is an excerpt. */
  content_truncated: boolean;
  /** The memory's tags. */
  tags: string[];
  /** BM25 score: higher is better, comparable within one result list only. */
  score: number;
  /** When it was last written (ISO 8601). */
  updated_at: string;
}

/** Why a search found nothing. */
export type MemorySearchEmptyReason = "no_memories" | "no_match" | "filtered_out";

/** What `memory_search` returns (every key snake_case). */
export interface MemorySearchToolData {
  /** The query, as searched (trimmed). */
  query: string;
  /** The tags every result had to carry, when some were given. */
  tags?: string[];
  /** 1-based rank of this page's first result. */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's results, best first (ties by key). */
  results: MemorySearchResult[];
  /** Results in all (exact), before paging. */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether results after this page were left out. */
  truncated: boolean;
  /** Memories searched (the whole namespace). */
  searched: number;
  /** Why there is no result, when there is none. */
  empty_reason?: MemorySearchEmptyReason;
}

/** Options of {@link createMemorySearchTool}. */
export interface MemorySearchToolOptions {
  /** Where memories live. */
  backend: MemoryBackend;
  /** The host's namespace: a list of labels, or a function of the call's context. */
  namespace: MemoryNamespaceOption;
  /** Results on a page when the model gives no limit. Default {@link DEFAULT_MEMORY_SEARCH_LIMIT} (10). */
  defaultLimit?: number;
  /** Largest limit accepted. Default {@link DEFAULT_MEMORY_SEARCH_MAX_LIMIT} (50). */
  maxLimit?: number;
  /** Longest excerpt per result. Default {@link DEFAULT_MEMORY_EXCERPT_CHARACTERS} (400). */
  maxExcerptCharacters?: number;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /**
   * The name of a `remember` that saves into this same backend (`createMemoryRememberTool`;
   * `createMemoryTools({ remember: true })` sets it): named as a saver in the description and in
   * empty answers. Default: none — a mounted `remember` is taken to save into another store.
   */
  rememberToolName?: string;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_MEMORY_SEARCH_TIMEOUT_MS}. */
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
    defaultLimit: z.number().int().min(1).max(1_000).optional(),
    maxLimit: z.number().int().min(1).max(1_000).optional(),
    maxExcerptCharacters: z.number().int().min(40).max(100_000).optional(),
    mountedTools: mountedToolsOption,
    rememberToolName: z.string().min(1).optional(),
    timeoutMs: z.number().int().min(0).optional(),
  })
  .refine(
    (value) =>
      (value.defaultLimit ?? DEFAULT_MEMORY_SEARCH_LIMIT) <=
      (value.maxLimit ?? DEFAULT_MEMORY_SEARCH_MAX_LIMIT),
    { message: "defaultLimit must not exceed maxLimit", path: ["defaultLimit"] },
  );

function createInputSchema(defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({
    unit: "result",
    defaultLimit,
    maxLimit,
    offsetDescription: "1-based rank of the first result (default 1).",
    limitDescription: `Page size (default ${defaultLimit}).`,
  });
  return z.object({
    query: z
      .string()
      .min(1)
      .max(2_000)
      .describe("Words the memory would use; keys and tags are searched too."),
    tags: tagsField("filter"),
    offset: paging.offset,
    limit: paging.limit,
  });
}

/** The input schema of `memory_search` (default limits). */
export const memorySearchInputSchema = createInputSchema(
  DEFAULT_MEMORY_SEARCH_LIMIT,
  DEFAULT_MEMORY_SEARCH_MAX_LIMIT,
);

/** The `memory_search` tool's type. */
export type MemorySearchTool = Tool<typeof memorySearchInputSchema, MemorySearchToolData>;

/** Options of {@link formatMemorySearchResult}. */
export interface MemorySearchFormatOptions {
  /** The tool's name, for the next call. Default `"memory_search"`. */
  toolName?: string;
  /** Names of the tools mounted beside it (the messages name only these). Default: none. */
  mountedTools?: readonly string[];
  /** The name of a `remember` that saves into the same backend, if one does. Default: none. */
  rememberToolName?: string;
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => (line.length === 0 ? "" : `   ${line}`))
    .join("\n");
}

/**
 * Renders a `memory_search` result for the model: a summary line, then per result its rank, key,
 * tags and content (indented; an excerpt ends with `…`), the contract's page marker naming the next
 * call when more results remain. An empty result says why (nothing saved, nothing matched, or
 * everything filtered out by `tags`) and what to do next.
 *
 * @param data - the tool's data
 * @param options - the tool's name and the tools mounted beside it
 * @returns model-facing text
 * @example
 * formatMemorySearchResult(data);
 * // '2 memories match "editor" (best first; 14 searched):\n1. user/editor (tags: preference)\n   Prefers Vim key bindings.\n…'
 */
export function formatMemorySearchResult(
  data: MemorySearchToolData,
  options: MemorySearchFormatOptions = {},
): string {
  const name = options.toolName ?? MEMORY_SEARCH_TOOL_NAME;
  const mounted = mountedTools(options.mountedTools);
  const query = JSON.stringify(data.query);
  const lines: string[] = [];
  if (data.results.length === 0) {
    switch (data.empty_reason) {
      case "no_memories":
        lines.push(
          nothingSavedYet(
            memoryNeighbours(mounted, options.rememberToolName),
            `, so nothing matches ${query}`,
            " first",
          ),
        );
        break;
      case "filtered_out":
        lines.push(
          `Memories match ${query}, but none carries every tag of tags=${JSON.stringify(data.tags ?? [])}. Call ${name} again with fewer tags or without tags.`,
        );
        break;
      default:
        lines.push(
          `No memory matches ${query} among ${formatCount(data.searched)} ${data.searched === 1 ? "memory" : "memories"}. Try other words: the terms the memory would use, a synonym, fewer words${mounted.has(MEMORY_TOOL_NAMES.list) ? `, or ${MEMORY_TOOL_NAMES.list} to browse the keys` : ""}.`,
        );
    }
  } else {
    const first = data.offset;
    const last = data.offset + data.results.length - 1;
    const range =
      first === 1 && !data.truncated
        ? `${formatCount(data.total)} ${data.total === 1 ? "memory matches" : "memories match"}`
        : `Results ${formatCount(first)}–${formatCount(last)} of ${formatCount(data.total)} for`;
    const filter = data.tags === undefined ? "" : ` tagged ${data.tags.join(", ")}`;
    lines.push(`${range} ${query}${filter} (best first; ${formatCount(data.searched)} searched):`);
    for (const [index, result] of data.results.entries()) {
      const tags = result.tags.length > 0 ? ` (tags: ${result.tags.join(", ")})` : "";
      lines.push(`${formatCount(first + index)}. ${result.key}${tags}`);
      const content = result.content_truncated ? `${result.content.trimEnd()} …` : result.content;
      lines.push(indent(content));
    }
    if (
      mounted.has(MEMORY_TOOL_NAMES.read) &&
      data.results.some((result) => result.content_truncated)
    ) {
      lines.push(
        `Excerpts end with …: read a whole memory with ${MEMORY_TOOL_NAMES.read} key="…".`,
      );
    }
  }
  if (data.next_offset !== undefined) {
    const args: Record<string, NextCallValue> = { query: data.query };
    if (data.tags !== undefined) args.tags = data.tags;
    args.limit = data.limit;
    const omitted = Math.max(1, data.total - data.next_offset + 1);
    lines.push(
      formatPageMarker({
        tool: name,
        nextOffset: data.next_offset,
        omitted,
        unit: omitted === 1 ? "result" : "results",
        args,
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `memory_search` tool: BM25 over the host's namespace — the key's words, the tags
 * and the content, through `createLexicalIndex` — best first (ties by key), with an exact tag
 * filter (every tag given must be on the memory) and `offset` / `limit` paging whose marker names
 * the next call. The index lives in this process, one per namespace (the 32 last searched), and
 * is brought up to date from the backend's snapshot on every call: only memories whose revision
 * changed are re-indexed, so writes from other processes show up on the next search.
 *
 * @param options - the backend, the namespace, the limits, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const search = createMemorySearchTool({ backend, namespace: ["user", "alice"], mountedTools: ["memory_read"] });
 * await search.run({ query: "editor key bindings", tags: ["preference"] });
 */
export function createMemorySearchTool(options: MemorySearchToolOptions): MemorySearchTool {
  const parsed = parseOptions("createMemorySearchTool", optionsSchema, options);
  const name = parsed.name ?? MEMORY_SEARCH_TOOL_NAME;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MEMORY_SEARCH_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_MEMORY_SEARCH_LIMIT, maxLimit);
  const maxExcerptCharacters = parsed.maxExcerptCharacters ?? DEFAULT_MEMORY_EXCERPT_CHARACTERS;
  const mounted = mountedTools(parsed.mountedTools);
  const { backend } = parsed;
  const namespace = parsed.namespace as MemoryNamespaceOption;
  const index = new MemorySearchIndex();
  const { savers, apartSearch } = memoryNeighbours(mounted, parsed.rememberToolName);

  const description =
    parsed.description ??
    joinSentences(
      [
        `Search memories saved earlier${savers.length > 0 ? ` with ${listWords(savers)}` : ""} by their words, best first: key, tags and content (an excerpt when long).`,
        apartSearch === undefined
          ? undefined
          : `Excerpts saved with remember are kept apart: search them with ${apartSearch}.`,
        mounted.when(MEMORY_TOOL_NAMES.read, `Read a whole one with ${MEMORY_TOOL_NAMES.read}.`),
        "A cut page ends with the exact next call.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: createInputSchema(defaultLimit, maxLimit) as unknown as typeof memorySearchInputSchema,
    aliases: MEMORY_SEARCH_ALIASES,
    annotations: { title: "Search memories", readOnly: true, idempotent: true },
    tags: ["memory", "memory:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_MEMORY_SEARCH_TIMEOUT_MS,
    execute: async (request, context) => {
      const query = request.query.trim();
      if (query.length === 0) {
        return fail("INVALID_INPUT", "query is blank.", {
          hint: `Call ${name} with the words the memory would use.`,
        });
      }
      const tags = request.tags === undefined ? undefined : normalizeMemoryTags(request.tags);
      const resolved = await resolveNamespace(namespace, context, name);
      if ("failure" in resolved) return resolved.failure;
      let outcome: ReturnType<MemorySearchIndex["search"]>;
      try {
        const snapshot = await backend.snapshot(resolved.namespace, { signal: context.signal });
        outcome = index.search(resolved.namespace, snapshot, query, tags);
      } catch (error) {
        if (context.signal.aborted) throw error;
        return backendFailure(name, "search the memories", error);
      }
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const total = outcome.matches.length;
      if (isOffsetPastEnd(offset, total)) {
        return offsetPastEnd({ tool: name, offset, total, unit: "results" });
      }
      const page = outcome.matches.slice(offset - 1, offset - 1 + limit);
      const results = page.map(({ id, score }): MemorySearchResult => {
        const record = outcome.records.get(id) as MemoryRecord;
        const { excerpt, truncated } = memoryExcerpt(record.content, query, maxExcerptCharacters);
        return {
          key: record.key,
          content: excerpt,
          content_truncated: truncated,
          tags: [...record.tags],
          score: Math.round(score * 10_000) / 10_000,
          updated_at: record.updatedAt,
        };
      });
      const end = offset - 1 + results.length;
      const data: MemorySearchToolData = {
        query,
        offset,
        limit,
        results,
        total,
        truncated: end < total,
        searched: outcome.searched,
      };
      if (tags !== undefined && tags.length > 0) data.tags = tags;
      if (end < total) data.next_offset = end + 1;
      if (results.length === 0) {
        data.empty_reason =
          outcome.searched === 0
            ? "no_memories"
            : outcome.filteredOut
              ? "filtered_out"
              : "no_match";
      }
      return ok(data);
    },
    render: (data) =>
      formatMemorySearchResult(data, {
        toolName: name,
        ...(parsed.rememberToolName === undefined
          ? {}
          : { rememberToolName: parsed.rememberToolName }),
        ...(parsed.mountedTools === undefined ? {} : { mountedTools: parsed.mountedTools }),
      }),
  });
}
