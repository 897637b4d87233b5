import {
  defineTool,
  fail,
  isOffsetPastEnd,
  mountedTools,
  mountedToolsOption,
  normalizeRelativePath,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  redactPrivateKeys,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { splitCommaList } from "../engine/comma-list.js";
import { tokenize } from "../engine/tokenize.js";
import type { KnowledgeSearchRequest, KnowledgeSource } from "../engine/types.js";
import { focusExcerpt } from "./densest-lines.js";
import {
  describeTool,
  formatSearchKnowledgeResult,
  type KnowledgeSourceKind,
  SEARCH_KNOWLEDGE_TOOL_NAME,
  type SearchKnowledgeHit,
  type SearchKnowledgeToolData,
  type Wording,
} from "./search-knowledge-format.js";

export {
  formatSearchKnowledgeResult,
  type KnowledgeSourceKind,
  SEARCH_KNOWLEDGE_TOOL_NAME,
  type SearchKnowledgeFormatOptions,
  type SearchKnowledgeHit,
  type SearchKnowledgeToolData,
} from "./search-knowledge-format.js";

/** Default number of hits when the model gives no `limit`: 8. */
export const DEFAULT_SEARCH_KNOWLEDGE_LIMIT = 8;

/** Default largest `limit` a model may ask for: 50. */
export const DEFAULT_SEARCH_KNOWLEDGE_MAX_LIMIT = 50;

/**
 * Default longest excerpt of one hit: 700 characters — enough to judge a passage, short enough
 * that a page of 8 stays under 6,000 characters; the reference opens the whole span.
 */
export const DEFAULT_MAX_EXCERPT_CHARACTERS = 700;

/**
 * Default time limit of one search: 120 seconds. The first search of a big corpus builds its
 * index (and embeds it, with an embedder); when a call times out the indexing goes on and the
 * next call picks it up.
 */
export const DEFAULT_SEARCH_KNOWLEDGE_TIMEOUT_MS = 120_000;

/** Most tags a store search may filter on. */
export const MAX_SEARCH_TAGS = 10;

/**
 * Field names other toolsets use, accepted silently by `search_knowledge` (alias → field): their
 * meaning is unambiguous here.
 */
export const SEARCH_KNOWLEDGE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  q: "query",
  search: "query",
  search_query: "query",
  text: "query",
  top_k: "limit",
  k: "limit",
  max_results: "limit",
  prefix: "path_prefix",
  path: "path_prefix",
  folder: "path_prefix",
});

/** Options of {@link createSearchKnowledgeTool}. */
export interface SearchKnowledgeToolOptions {
  /** What to search: `createCorpusSource` from `./node`, `createStoreSource`, or your own. */
  source: KnowledgeSource;
  /**
   * What the source holds, for the description, the messages and the input: `"corpus"` (files;
   * default) or `"store"` (saved excerpts; adds the `tags` filter).
   */
  sourceKind?: KnowledgeSourceKind;
  /** Hits on a page when the model gives no limit. Default {@link DEFAULT_SEARCH_KNOWLEDGE_LIMIT} (8). */
  defaultLimit?: number;
  /** Largest limit accepted. Default {@link DEFAULT_SEARCH_KNOWLEDGE_MAX_LIMIT} (50). */
  maxLimit?: number;
  /** Longest excerpt per hit. Default {@link DEFAULT_MAX_EXCERPT_CHARACTERS} (700). */
  maxExcerptCharacters?: number;
  /** Time limit of one search in ms (`0` = none). Default {@link DEFAULT_SEARCH_KNOWLEDGE_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Names of the tools mounted beside this one (`read_file`, `web_fetch`, `remember`,
   * `grep_search`, the other search tool…); the description and messages name only these.
   * Default: none.
   */
  mountedTools?: readonly string[];
  /**
   * Absolute forms of the folder `path_prefix` is relative to: an absolute `path_prefix` under
   * one of them is accepted and made relative; any other absolute path is refused. Default: the
   * source's `root` when it has one (`createCorpusSource`'s), else none.
   */
  roots?: readonly string[];
  /** Replaces the tool's name (e.g. `"search_memory"`); every message uses it. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const sourceOption = z.custom<KnowledgeSource>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as KnowledgeSource).search === "function",
  { error: "expected a KnowledgeSource ({ search(request, context) })" },
);

const optionsSchema = z
  .object({
    ...toolOverridesShape,
    source: sourceOption,
    sourceKind: z.enum(["corpus", "store"]).optional(),
    defaultLimit: z.number().int().min(1).max(1_000).optional(),
    maxLimit: z.number().int().min(1).max(1_000).optional(),
    maxExcerptCharacters: z.number().int().min(80).max(100_000).optional(),
    timeoutMs: z.number().int().min(0).optional(),
    mountedTools: mountedToolsOption,
    roots: z.array(z.string().min(1)).readonly().optional(),
  })
  .refine(
    (value) =>
      (value.defaultLimit ?? DEFAULT_SEARCH_KNOWLEDGE_LIMIT) <=
      (value.maxLimit ?? DEFAULT_SEARCH_KNOWLEDGE_MAX_LIMIT),
    { message: "defaultLimit must not exceed maxLimit", path: ["defaultLimit"] },
  );

function createInputSchema(kind: KnowledgeSourceKind, defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({
    unit: "hit",
    defaultLimit,
    maxLimit,
    offsetDescription: "1-based rank of the first hit (default 1).",
    limitDescription: `Page size (default ${defaultLimit}).`,
  });
  const base = {
    query: z
      .string()
      .min(1)
      .max(2_000)
      .describe(
        kind === "corpus"
          ? "A few specific terms the documents would use."
          : "A few specific terms the saved excerpts would use.",
      ),
    path_prefix: z
      .string()
      .min(1)
      .max(1_000)
      .optional()
      .describe(
        kind === "corpus"
          ? "Only files under this folder, e.g. 'docs/api/'."
          : "Only excerpts whose document key or source starts with this.",
      ),
    offset: paging.offset,
    limit: paging.limit,
  };
  if (kind === "corpus") return z.object(base);
  return z.object({
    ...base,
    tags: z
      .preprocess(
        splitCommaList,
        z
          .array(z.string().min(1).max(200))
          .max(MAX_SEARCH_TAGS, { error: `at most ${MAX_SEARCH_TAGS} tags` }),
      )
      .optional()
      .describe("Only excerpts carrying every one of these tags."),
  });
}

/** The input schema of `search_knowledge` over a corpus (default limits). */
export const searchKnowledgeInputSchema = createInputSchema(
  "corpus",
  DEFAULT_SEARCH_KNOWLEDGE_LIMIT,
  DEFAULT_SEARCH_KNOWLEDGE_MAX_LIMIT,
);

/** The input of `search_knowledge`; `tags` exists only when the tool searches a store. */
export type SearchKnowledgeInput = z.output<typeof searchKnowledgeInputSchema> & {
  tags?: string[];
};

/** The `search_knowledge` tool's type. */
export type SearchKnowledgeTool = Tool<typeof searchKnowledgeInputSchema, SearchKnowledgeToolData>;

function normalizeTags(raw: readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const tags = [...new Set(raw.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
  return tags.length === 0 ? undefined : tags;
}

/**
 * Creates the `search_knowledge` tool over any {@link KnowledgeSource}: a corpus folder with its
 * sidecar index (`createCorpusSource` from `@agentool/tools-knowledge/node`) or a store filled by
 * `remember` / `ingest` (`createStoreSource`). Runtime-neutral: the tool only pages, caps and
 * words what the source ranks.
 *
 * Hits come best first, paged by `offset` / `limit` (a cut page ends with the contract's marker
 * naming the next call); each carries a reference `file.md:12-40` that `read_file` opens with
 * `offset: 12, limit: 29`, and an excerpt capped at `maxExcerptCharacters`. An empty result says
 * why: nothing indexed yet, nothing matched, or everything filtered out by `path_prefix` / `tags`.
 * Name and description are overridable (`name: "search_memory"` for a second backend), and every
 * message uses the given name.
 *
 * @param options - the source, what it holds, the limits, the mounted tools and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const source = createCorpusSource({ root: "./sources" });
 * const searchKnowledge = createSearchKnowledgeTool({ source, mountedTools: ["read_file"] });
 * await searchKnowledge.run({ query: "hnsw index parameters", path_prefix: "docs/" });
 *
 * const searchMemory = createSearchKnowledgeTool({
 *   source: createStoreSource({ store }),
 *   sourceKind: "store",
 *   name: "search_memory",
 *   mountedTools: ["remember", "search_knowledge"],
 * });
 */
export function createSearchKnowledgeTool(
  options: SearchKnowledgeToolOptions,
): SearchKnowledgeTool {
  const parsed = parseOptions("createSearchKnowledgeTool", optionsSchema, options);
  const source = parsed.source;
  const kind = parsed.sourceKind ?? "corpus";
  const maxLimit = parsed.maxLimit ?? DEFAULT_SEARCH_KNOWLEDGE_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_SEARCH_KNOWLEDGE_LIMIT, maxLimit);
  const maxExcerptCharacters = parsed.maxExcerptCharacters ?? DEFAULT_MAX_EXCERPT_CHARACTERS;
  const name = parsed.name ?? SEARCH_KNOWLEDGE_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const wording: Wording = { name, kind, mounted };
  const sourceRoot = (source as { root?: unknown }).root;
  const roots = parsed.roots ?? (typeof sourceRoot === "string" ? [sourceRoot] : []);
  const input = createInputSchema(
    kind,
    defaultLimit,
    maxLimit,
  ) as unknown as typeof searchKnowledgeInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? describeTool(wording),
    input,
    aliases: SEARCH_KNOWLEDGE_ALIASES,
    annotations: {
      title: kind === "corpus" ? "Search knowledge" : "Search saved excerpts",
      readOnly: true,
      idempotent: true,
    },
    tags: ["knowledge:search"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_SEARCH_KNOWLEDGE_TIMEOUT_MS,
    execute: async (rawRequest, context) => {
      const request = rawRequest as SearchKnowledgeInput;
      const query = request.query.trim();
      if (query.length === 0) {
        return fail("INVALID_INPUT", "query is blank.", {
          hint: `Call ${name} with the words the documents would use.`,
        });
      }
      let pathPrefix: string | undefined;
      if (request.path_prefix !== undefined) {
        if (kind === "corpus") {
          const normalized = normalizeRelativePath(request.path_prefix, {
            roots,
            argument: "path_prefix",
            rootName: "knowledge folder",
          });
          if (normalized.problem !== undefined) {
            return fail("INVALID_PATH", normalized.problem, {
              hint: "Give path_prefix relative to the knowledge folder, e.g. 'docs/'.",
            });
          }
          const keepsSlash =
            request.path_prefix.endsWith("/") || request.path_prefix.endsWith("\\");
          const path = normalized.path ?? "";
          pathPrefix = path.length === 0 ? undefined : keepsSlash ? `${path}/` : path;
        } else {
          pathPrefix = request.path_prefix;
        }
      }
      const tags = normalizeTags(request.tags);
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const sourceRequest: KnowledgeSearchRequest = { query, offset, limit };
      if (pathPrefix !== undefined) sourceRequest.path_prefix = pathPrefix;
      if (tags !== undefined) sourceRequest.tags = tags;
      // A KnowledgeSourceError thrown here is a ToolFailureError: run maps it to the envelope.
      const result = await source.search(sourceRequest, {
        signal: context.signal,
        progress: (update) => context.progress(update),
      });
      if (isOffsetPastEnd(offset, result.total)) {
        return offsetPastEnd({ tool: name, offset, total: result.total, unit: "hits" });
      }
      // A long passage shows the lines where the query's terms are densest, not its start.
      const queryTerms = new Set(tokenize(query, { mode: "query" }));
      const hits = result.hits.slice(0, limit).map((hit): SearchKnowledgeHit => {
        const focused = focusExcerpt(
          { ...hit, excerpt: redactPrivateKeys(hit.excerpt) },
          queryTerms,
          maxExcerptCharacters,
        );
        return {
          ...hit,
          start_line: focused.start_line,
          end_line: focused.end_line,
          reference: focused.reference,
          excerpt: focused.excerpt,
          excerpt_truncated: focused.truncated,
        };
      });
      const end = offset - 1 + hits.length;
      const data: SearchKnowledgeToolData = {
        query,
        offset,
        limit,
        hits,
        total: result.total,
        truncated: end < result.total,
        searched: { documents: result.searched.documents, chunks: result.searched.chunks },
        warnings: [...result.warnings],
      };
      if (pathPrefix !== undefined) data.path_prefix = pathPrefix;
      if (tags !== undefined) data.tags = tags;
      if (end < result.total) data.next_offset = end + 1;
      if (hits.length === 0) data.empty_reason = result.empty_reason ?? "no_match";
      return ok(data);
    },
    render: (data) =>
      formatSearchKnowledgeResult(data, {
        toolName: name,
        sourceKind: kind,
        ...(parsed.mountedTools === undefined ? {} : { mountedTools: parsed.mountedTools }),
      }),
  });
}
