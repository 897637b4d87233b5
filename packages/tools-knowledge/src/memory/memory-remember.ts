import {
  defineTool,
  joinSentences,
  mountedTools,
  mountedToolsOption,
  ok,
  parseOptions,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { contentDocumentKey } from "../engine/content-hash.js";
import {
  backendFailure,
  backendOption,
  clockOption,
  MEMORY_TOOL_NAMES,
  type MemoryNamespaceOption,
  namespaceOption,
  resolveNamespace,
  tagsField,
} from "./internal/memory-tool-common.js";
import { refuseExcerpt } from "./internal/save-excerpt.js";
import type { MemoryBackend } from "./memory-backend.js";
import {
  DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS,
  MAX_MEMORY_CONTENT_CHARACTERS,
  normalizeMemoryTags,
} from "./memory-rules.js";
import {
  DEFAULT_REMEMBER_TIMEOUT_MS,
  formatRememberResult,
  REMEMBER_ALIASES,
  REMEMBER_TOOL_NAME,
  type RememberTool,
  type RememberToolData,
  type rememberInputSchema,
  rememberSourceField,
} from "./remember.js";

/** The key prefix of an excerpt `remember` keeps as a memory: `excerpt/sha256-…`. */
export const EXCERPT_KEY_PREFIX = "excerpt/";

/** Options of {@link createMemoryRememberTool}. */
export interface MemoryRememberToolOptions {
  /** Where memories live: the backend the memory tools read. */
  backend: MemoryBackend;
  /** The host's namespace: a list of labels, or a function of the call's context. */
  namespace: MemoryNamespaceOption;
  /** Longest excerpt accepted. Default 10,000 characters (the memory content cap). */
  maxTextCharacters?: number;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /** The clock for the timestamps. Default `() => new Date()`. */
  now?: () => Date;
  /** Time limit of one call in ms (`0` = none). Default 60 seconds. */
  timeoutMs?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  backend: backendOption,
  namespace: namespaceOption,
  maxTextCharacters: z.number().int().min(1).max(MAX_MEMORY_CONTENT_CHARACTERS).optional(),
  mountedTools: mountedToolsOption,
  now: clockOption,
  timeoutMs: z.number().int().min(0).optional(),
});

function createInputSchema(maxTextCharacters: number) {
  return z.object({
    text: z.string().min(1).max(maxTextCharacters).describe("The excerpt to keep, verbatim."),
    source: rememberSourceField(),
    tags: tagsField("save"),
  });
}

/** The text a remembered excerpt is kept as: the excerpt, then its source on a line of its own. */
function excerptContent(text: string, source: string | undefined): string {
  return source === undefined ? text : `${text}\n\nSource: ${source}`;
}

/**
 * Creates `remember` over a memory backend: the same excerpt-saving tool as
 * `createRememberTool`, but the excerpt is kept as one memory, under a key made from its text
 * (`excerpt/sha256-…`: the same text, the same key — saving it again replaces its source and
 * tags), in the backend and namespace the memory tools read. `memory_search` finds it beside
 * `memory_write`'s memories, `memory_read` opens it whole (its source on the last line),
 * `memory_list` lists it under `excerpt/`: one memory for the model. `createMemoryTools({
 * remember: true })` mounts it with the others.
 *
 * Refusals: a blank excerpt (`INVALID_INPUT`), one holding a private key (`BLOCKED`). A backend
 * failure is reported as the memory tools report it.
 *
 * @param options - the backend, the namespace, the cap, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const remember = createMemoryRememberTool({ backend, namespace: ["user", "alice"], mountedTools: ["memory_search"] });
 * await remember.run({ text: "Pro plan: $49/month.", source: "https://example.com/pricing", tags: ["pricing"] });
 * // { success: true, data: { document_key: "excerpt/sha256-…", stored_chunks: 1, tags: ["pricing"], … } }
 */
export function createMemoryRememberTool(options: MemoryRememberToolOptions): RememberTool {
  const parsed = parseOptions("createMemoryRememberTool", optionsSchema, options);
  const name = parsed.name ?? REMEMBER_TOOL_NAME;
  const maxTextCharacters = parsed.maxTextCharacters ?? DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS;
  const mounted = mountedTools(parsed.mountedTools);
  const { backend } = parsed;
  const namespace = parsed.namespace as MemoryNamespaceOption;
  const now = parsed.now ?? (() => new Date());
  const searchToolName = mounted.has(MEMORY_TOOL_NAMES.search)
    ? MEMORY_TOOL_NAMES.search
    : undefined;

  const description =
    parsed.description ??
    joinSentences(
      [
        `Save an excerpt worth keeping (a fact, figure, decision or quote) verbatim with its source, to find it later${searchToolName === undefined ? "" : ` with ${searchToolName}`}.`,
        "It is kept as one memory under a key made from its text (excerpt/sha256-…); saving the same text again updates its source and tags.",
        mounted.when(
          MEMORY_TOOL_NAMES.write,
          `For a note under a key of your own, use ${MEMORY_TOOL_NAMES.write}: both are one memory.`,
        ),
        "Never save secrets.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: createInputSchema(maxTextCharacters) as unknown as typeof rememberInputSchema,
    aliases: REMEMBER_ALIASES,
    annotations: {
      title: "Remember an excerpt",
      readOnly: false,
      destructive: false,
      idempotent: true,
    },
    tags: ["knowledge:write", "memory", "memory:write"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_REMEMBER_TIMEOUT_MS,
    execute: async (request, context) => {
      const refusal = refuseExcerpt(name, request.text);
      if (refusal !== undefined) return refusal;
      const resolved = await resolveNamespace(namespace, context, name);
      if ("failure" in resolved) return resolved.failure;
      const source = request.source?.trim() || undefined;
      const tags = normalizeMemoryTags(request.tags);
      const key = `${EXCERPT_KEY_PREFIX}${await contentDocumentKey(request.text)}`;
      try {
        const { record, created } = await backend.write(
          resolved.namespace,
          { key, content: excerptContent(request.text, source), tags, now: now() },
          { signal: context.signal },
        );
        const data: RememberToolData = {
          document_key: record.key,
          stored_chunks: 1,
          dropped_chunks: 0,
          characters: request.text.length,
          tags: [...record.tags],
          created_at: record.createdAt,
          already_saved: !created,
        };
        if (source !== undefined) data.source = source;
        return ok(data);
      } catch (error) {
        if (context.signal.aborted) throw error;
        return backendFailure(name, "save the excerpt", error);
      }
    },
    render: (data) =>
      formatRememberResult(data, searchToolName === undefined ? {} : { searchToolName }),
  });
}
