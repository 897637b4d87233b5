import {
  AgentoolError,
  defineTool,
  formatCount,
  joinSentences,
  mountedTools,
  mountedToolsOption,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { splitCommaList } from "../engine/comma-list.js";
import { embeddingsSchema, vectorStoreSchema } from "../engine/option-schemas.js";
import type { Embeddings, VectorStore } from "../engine/types.js";
import { MIN_MAX_CHUNK_CHARACTERS } from "../search/chunk-markdown.js";
import { clockOption } from "./internal/memory-tool-common.js";
import { type ExcerptSaver, saveExcerpt } from "./internal/save-excerpt.js";
import { stageTrackedStore } from "./internal/stage-tracked-store.js";

/** The default name of the write tool. */
export const REMEMBER_TOOL_NAME = "remember";

/** The search tool `remember` points to by default. */
export const DEFAULT_REMEMBER_SEARCH_TOOL_NAME = "search_knowledge";

/** Default cap on one excerpt: 20,000 characters (about 5,000 tokens). */
export const DEFAULT_MAX_REMEMBER_CHARACTERS = 20_000;

/** Default cap on the tags of one excerpt: 10. */
export const DEFAULT_MAX_REMEMBER_TAGS = 10;

/** Longest tag: 64 characters. */
export const MAX_REMEMBER_TAG_CHARACTERS = 64;

/** Longest source: 2,000 characters. */
export const MAX_REMEMBER_SOURCE_CHARACTERS = 2_000;

/** Default time limit of one `remember` call: 60 seconds (an embedder call and a store write). */
export const DEFAULT_REMEMBER_TIMEOUT_MS = 60_000;

/**
 * Field names other toolsets use for `remember`'s fields, accepted silently: `content`, `note`,
 * `memory`, `excerpt` → `text`; `url` → `source`; `labels` → `tags`.
 */
export const REMEMBER_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  content: "text",
  note: "text",
  memory: "text",
  excerpt: "text",
  url: "source",
  labels: "tags",
});

/** What `remember` returns (every key snake_case). */
export interface RememberToolData {
  /** The excerpt's key: `sha256-` and 16 hex digits of its text (the same text, the same key). */
  document_key: string;
  /** Passages stored (the excerpt split on its headings and at the chunk size). */
  stored_chunks: number;
  /** Passages left out: blank after clean-up, or too short to be worth a search. */
  dropped_chunks: number;
  /** Length of the text saved, in characters. */
  characters: number;
  /** The tags stored (trimmed, duplicates removed). */
  tags: string[];
  /** The source stored, when one was given. */
  source?: string;
  /** When it was saved (ISO 8601). */
  created_at: string;
  /**
   * Whether this very text had been saved before (its source and tags are now replaced). Absent
   * when the store cannot tell (no `range`).
   */
  already_saved?: boolean;
}

/** Options of {@link createRememberTool}. */
export interface RememberToolOptions {
  /** Where excerpts go: the store the paired search tool reads (`createStoreSource({ store })`). */
  store: VectorStore;
  /** The embedder (the same one the search side uses). Without one the store must search text. */
  embeddings?: Embeddings;
  /**
   * The search tool that reads the excerpts back, named in the description and every message.
   * Default `"search_knowledge"`; `"search_memory"` when the store sits beside a corpus search.
   * Named only when given here or listed in `mountedTools`.
   */
  searchToolName?: string;
  /** Longest excerpt accepted. Default {@link DEFAULT_MAX_REMEMBER_CHARACTERS} (20,000). */
  maxTextCharacters?: number;
  /** Most tags per excerpt. Default {@link DEFAULT_MAX_REMEMBER_TAGS} (10). */
  maxTags?: number;
  /** Largest stored passage, in characters. Default 1,500. */
  maxChunkCharacters?: number;
  /** Drop passages with fewer letters and digits than this (`ingest`'s floor). Default 0. */
  minAlnumChars?: number;
  /** `ingest`'s `embedHeadingTrail`. Default `false`. */
  embedHeadingTrail?: boolean;
  /** `ingest`'s sanitizer. Default: strip control characters. */
  sanitize?: (text: string) => string;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /** The clock for `created_at`. Default `() => new Date()`. */
  now?: () => Date;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_REMEMBER_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  store: vectorStoreSchema,
  embeddings: embeddingsSchema.optional(),
  searchToolName: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/)
    .optional(),
  maxTextCharacters: z.number().int().min(1).max(1_000_000).optional(),
  maxTags: z.number().int().min(0).max(100).optional(),
  maxChunkCharacters: z.number().int().min(MIN_MAX_CHUNK_CHARACTERS).max(1_000_000).optional(),
  minAlnumChars: z.number().int().min(0).max(100_000).optional(),
  embedHeadingTrail: z.boolean().optional(),
  sanitize: z
    .custom<(text: string) => string>((value) => typeof value === "function", {
      error: "expected a function (text: string) => string",
    })
    .optional(),
  mountedTools: mountedToolsOption,
  now: clockOption,
  timeoutMs: z.number().int().min(0).optional(),
});

/** The `source` field of every `remember`, described once. @internal */
export function rememberSourceField() {
  return z
    .string()
    .min(1)
    .max(MAX_REMEMBER_SOURCE_CHARACTERS)
    .optional()
    .describe("Where it came from: a URL, file:lines, 'user'…");
}

function createInputSchema(maxTextCharacters: number, maxTags: number) {
  return z.object({
    text: z
      .string()
      .min(1)
      .max(maxTextCharacters)
      .describe("The excerpt to keep, verbatim (Markdown headings are kept as context)."),
    source: rememberSourceField(),
    tags: z
      .preprocess(
        splitCommaList,
        z.array(z.string().min(1).max(MAX_REMEMBER_TAG_CHARACTERS)).max(maxTags),
      )
      .optional()
      .describe("A few labels to filter on later."),
  });
}

/** The input schema of `remember` (default caps). */
export const rememberInputSchema = createInputSchema(
  DEFAULT_MAX_REMEMBER_CHARACTERS,
  DEFAULT_MAX_REMEMBER_TAGS,
);

/** The `remember` tool's type. */
export type RememberTool = Tool<typeof rememberInputSchema, RememberToolData>;

/** Options of {@link formatRememberResult}. */
export interface RememberFormatOptions {
  /** The search tool to name, or `undefined` to name none. */
  searchToolName?: string;
}

/**
 * Renders a `remember` result for the model: what was stored, under which key, with which tags and
 * source, and the call that finds it again.
 *
 * @param data - the tool's data
 * @param options - the search tool to name
 * @returns model-facing text
 * @example
 * formatRememberResult(data, { searchToolName: "search_memory" });
 * // "Saved 1 passage (412 characters) as sha256-3f2a9c1e8b7d6a5f, tags: pricing, 2024; source https://example.com/pricing.\nFind it again with search_memory (tags=[\"pricing\"] to filter)."
 */
export function formatRememberResult(
  data: RememberToolData,
  options: RememberFormatOptions = {},
): string {
  const passages = `${data.stored_chunks} ${data.stored_chunks === 1 ? "passage" : "passages"}`;
  const details = [
    data.tags.length > 0 ? `tags: ${data.tags.join(", ")}` : "no tags",
    data.source === undefined ? undefined : `source ${data.source}`,
  ].filter((part): part is string => part !== undefined);
  const lines = [
    `Saved ${passages} (${formatCount(data.characters)} characters) as ${data.document_key}, ${details.join("; ")}.`,
  ];
  if (data.already_saved === true) {
    lines.push(
      "This text had been saved before: it is stored once, with the source and tags given now.",
    );
  }
  if (data.dropped_chunks > 0) {
    lines.push(
      `${data.dropped_chunks} ${data.dropped_chunks === 1 ? "passage was" : "passages were"} left out (blank or too short to search).`,
    );
  }
  if (options.searchToolName !== undefined) {
    const tagHint =
      data.tags[0] === undefined ? "" : ` (tags=${JSON.stringify([data.tags[0]])} to filter)`;
    lines.push(`Find it again with ${options.searchToolName}${tagHint}.`);
  }
  return lines.join("\n");
}

/**
 * Creates the `remember` tool: the write half of a store-backed search. The model sends an excerpt
 * (`text`), where it came from (`source`) and a few `tags`; the excerpt is chunked on its headings,
 * cleaned of control characters, embedded (with an embedder) and stored through `ingest`, under a
 * content key (`sha256-…`) — saving the same text again replaces it instead of duplicating it. The
 * paired search tool (`createSearchKnowledgeTool({ source: createStoreSource({ store }), name:
 * "search_memory" })`) reads it back, and every message names it (`searchToolName`).
 *
 * Refusals: a blank excerpt or one with no content left after clean-up (`INVALID_INPUT`), one
 * holding a private key (`BLOCKED`: keys are never stored). An embedder or store failure is
 * `NETWORK_ERROR` (retryable; nothing is written when the embedder fails, and saving again is safe
 * after a store failure).
 *
 * @param options - the store, the embedder, the search tool's name, the caps, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options, or a store that searches by vector only given no embedder
 * @example
 * const store = createInMemoryVectorStore();
 * const remember = createRememberTool({ store, searchToolName: "search_memory" });
 * await remember.run({ text: "Pro plan: $49/month, billed yearly.", source: "https://example.com/pricing", tags: ["pricing"] });
 * // { success: true, data: { document_key: "sha256-…", stored_chunks: 1, tags: ["pricing"], … } }
 */
export function createRememberTool(options: RememberToolOptions): RememberTool {
  const parsed = parseOptions("createRememberTool", optionsSchema, options);
  const { store, embeddings } = parsed;
  if (embeddings === undefined && store.searchesText !== true) {
    throw new AgentoolError(
      "createRememberTool: this store searches by vector only (searchesText is false) — pass the embeddings its search tool uses.",
    );
  }
  const name = parsed.name ?? REMEMBER_TOOL_NAME;
  const maxTextCharacters = parsed.maxTextCharacters ?? DEFAULT_MAX_REMEMBER_CHARACTERS;
  const maxTags = parsed.maxTags ?? DEFAULT_MAX_REMEMBER_TAGS;
  const mounted = mountedTools(parsed.mountedTools);
  const searchToolName = parsed.searchToolName ?? DEFAULT_REMEMBER_SEARCH_TOOL_NAME;
  const namedSearch =
    parsed.searchToolName !== undefined || mounted.has(searchToolName) ? searchToolName : undefined;
  const { writer, embedder } = stageTrackedStore(store, embeddings);
  const saver: ExcerptSaver = {
    name,
    writer,
    embedder,
    ingestOptions: {
      ...(parsed.maxChunkCharacters === undefined
        ? {}
        : { maxChunkCharacters: parsed.maxChunkCharacters }),
      ...(parsed.minAlnumChars === undefined ? {} : { minAlnumChars: parsed.minAlnumChars }),
      ...(parsed.embedHeadingTrail === undefined
        ? {}
        : { embedHeadingTrail: parsed.embedHeadingTrail }),
      ...(parsed.sanitize === undefined ? {} : { sanitize: parsed.sanitize }),
    },
    now: parsed.now ?? (() => new Date()),
  };

  const description =
    parsed.description ??
    joinSentences(
      [
        `Save an excerpt worth keeping (a fact, figure, decision or quote) verbatim with its source, to find it later${namedSearch === undefined ? "" : ` with ${namedSearch}`}.`,
        "Saving the same text again updates its source and tags. Never save secrets.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: createInputSchema(maxTextCharacters, maxTags) as unknown as typeof rememberInputSchema,
    aliases: REMEMBER_ALIASES,
    annotations: {
      title: "Remember an excerpt",
      readOnly: false,
      destructive: false,
      idempotent: true,
    },
    tags: ["knowledge:write", "memory"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_REMEMBER_TIMEOUT_MS,
    execute: (request, context) => saveExcerpt(saver, request, context),
    render: (data) =>
      formatRememberResult(data, namedSearch === undefined ? {} : { searchToolName: namedSearch }),
  });
}
