import {
  containsPrivateKey,
  defineTool,
  fail,
  formatCount,
  joinSentences,
  mountedTools,
  mountedToolsOption,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import {
  backendFailure,
  backendOption,
  clockOption,
  keyField,
  MEMORY_TOOL_NAMES,
  type MemoryNamespaceOption,
  namespaceOption,
  resolveNamespace,
  tagsField,
} from "./internal/memory-tool-common.js";
import type { MemoryBackend, MemoryRecord } from "./memory-backend.js";
import {
  DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS,
  MAX_MEMORY_CONTENT_CHARACTERS,
  normalizeMemoryTags,
} from "./memory-rules.js";

/** The default name of the write tool. */
export const MEMORY_WRITE_TOOL_NAME = MEMORY_TOOL_NAMES.write;

/** Default time limit of one `memory_write` call: 30 seconds. */
export const DEFAULT_MEMORY_WRITE_TIMEOUT_MS = 30_000;

/**
 * Field names other toolsets use for `memory_write`'s fields, accepted silently: `name`, `id` →
 * `key`; `text`, `value`, `memory`, `note` → `content`; `labels` → `tags`.
 */
export const MEMORY_WRITE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  name: "key",
  id: "key",
  text: "content",
  value: "content",
  memory: "content",
  note: "content",
  labels: "tags",
});

/** What `memory_write` returns (every key snake_case). */
export interface MemoryWriteToolData {
  /** The key written. */
  key: string;
  /**
   * Whether the key was new (`false`: the memory under it was replaced with `overwrite: true`, or
   * already held exactly this content and these tags, left unchanged).
   */
  created: boolean;
  /** When the key was first written (ISO 8601); kept when a memory is replaced. */
  created_at: string;
  /** When it was written now (ISO 8601). */
  updated_at: string;
  /** The tags stored (trimmed, duplicates removed). */
  tags: string[];
  /** Length of the content stored, in characters. */
  characters: number;
}

/** Options of {@link createMemoryWriteTool}. */
export interface MemoryWriteToolOptions {
  /** Where memories live: `createFileMemoryBackend` (`./node`), `createBaseStoreMemoryBackend`, … */
  backend: MemoryBackend;
  /** The host's namespace: a list of labels, or a function of the call's context. */
  namespace: MemoryNamespaceOption;
  /** Longest content accepted. Default {@link DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS} (10,000). */
  maxContentCharacters?: number;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /** The clock for the timestamps. Default `() => new Date()`. */
  now?: () => Date;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_MEMORY_WRITE_TIMEOUT_MS}. */
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
  maxContentCharacters: z.number().int().min(1).max(MAX_MEMORY_CONTENT_CHARACTERS).optional(),
  mountedTools: mountedToolsOption,
  now: clockOption,
  timeoutMs: z.number().int().min(0).optional(),
});

function createInputSchema(maxContentCharacters: number) {
  const cap = formatCount(maxContentCharacters);
  return z.object({
    key: keyField("A short stable name to read it back by.", true),
    content: z
      .string()
      .min(1)
      .max(maxContentCharacters, {
        error: `at most ${cap} characters — save a shorter summary, or split it over several keys`,
      })
      .describe("What to remember, as plain text."),
    tags: tagsField("save"),
    overwrite: z
      .boolean()
      .optional()
      .describe(
        "true replaces an existing key whole (default false: writing it fails, changing nothing).",
      ),
  });
}

/** The input schema of `memory_write` (default caps). */
export const memoryWriteInputSchema = createInputSchema(DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS);

/** The `memory_write` tool's type. */
export type MemoryWriteTool = Tool<typeof memoryWriteInputSchema, MemoryWriteToolData>;

/** Options of {@link formatMemoryWriteResult}. */
export interface MemoryWriteFormatOptions {
  /** The read tool to name, or `undefined` to name none. */
  readToolName?: string;
}

/**
 * Renders a `memory_write` result for the model.
 *
 * @param data - the tool's data
 * @param options - the read tool to name
 * @returns model-facing text
 * @example
 * formatMemoryWriteResult(data, { readToolName: "memory_read" });
 * // 'Saved a new memory "user/editor" (24 characters; tags: preference) at 2026-03-04T05:06:07.000Z.\nRead it back with memory_read key="user/editor".'
 */
export function formatMemoryWriteResult(
  data: MemoryWriteToolData,
  options: MemoryWriteFormatOptions = {},
): string {
  const tags = data.tags.length > 0 ? `tags: ${data.tags.join(", ")}` : "no tags";
  const facts = `${formatCount(data.characters)} ${data.characters === 1 ? "character" : "characters"}; ${tags}`;
  const lines = [
    data.created
      ? `Saved a new memory ${JSON.stringify(data.key)} (${facts}) at ${data.updated_at}.`
      : `Replaced the memory ${JSON.stringify(data.key)} (${facts}) at ${data.updated_at}; first written ${data.created_at}.`,
  ];
  if (options.readToolName !== undefined) {
    lines.push(`Read it back with ${options.readToolName} key=${JSON.stringify(data.key)}.`);
  }
  return lines.join("\n");
}

/** The tool's data for a stored record. */
function writeData(record: MemoryRecord, created: boolean): MemoryWriteToolData {
  return {
    key: record.key,
    created,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    tags: [...record.tags],
    characters: record.content.length,
  };
}

function sameTags(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((tag, index) => tag === right[index]);
}

/** The refusal of a write that would replace `existing` without `overwrite: true`. */
function existingKey(
  name: string,
  existing: MemoryRecord,
  readToolName: string | undefined,
): ReturnType<typeof fail> {
  const key = JSON.stringify(existing.key);
  const characters = `${formatCount(existing.content.length)} ${existing.content.length === 1 ? "character" : "characters"}`;
  const read =
    readToolName === undefined ? "Read what it holds" : `Read it with ${readToolName} key=${key}`;
  return fail(
    "CONFLICT",
    `${name} did not save: the memory ${key} already exists (${characters}, last written ${existing.updatedAt}), and replacing it needs overwrite: true. Nothing was changed.`,
    {
      hint: `${read}, then call ${name} again with the whole new content and overwrite: true — or save under a new key.`,
    },
  );
}

/**
 * Creates the `memory_write` tool: saves `content` under `key` (with optional `tags`) in the host's
 * namespace, creating the key, or replacing what it held when the call passes `overwrite: true`
 * (whole: a concurrent write of the same key wins or loses entirely). Returns whether the key was
 * new and both timestamps (ISO 8601).
 *
 * Refusals (`INVALID_INPUT`): a key outside the key rules, content over the cap, more than 10 tags
 * or a tag that is not one word; content holding a private key is `BLOCKED` (keys are never
 * stored); an existing key without `overwrite: true` is `CONFLICT` (naming the read tool and
 * `overwrite: true`), unless the call repeats the very content and tags stored (then it succeeds
 * unchanged). No namespace for the call is `NOT_CONFIGURED` (the host's to fix). Annotated
 * non-destructive: see the README's "memory_write and overwrite".
 *
 * @param options - the backend, the namespace, the caps, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const write = createMemoryWriteTool({ backend, namespace: ["user", "alice"] });
 * await write.run({ key: "user/editor", content: "Prefers Vim key bindings.", tags: ["preference"] });
 * // { success: true, data: { key: "user/editor", created: true, created_at: "…", updated_at: "…", tags: ["preference"], characters: 25 } }
 */
export function createMemoryWriteTool(options: MemoryWriteToolOptions): MemoryWriteTool {
  const parsed = parseOptions("createMemoryWriteTool", optionsSchema, options);
  const name = parsed.name ?? MEMORY_WRITE_TOOL_NAME;
  const maxContentCharacters = parsed.maxContentCharacters ?? DEFAULT_MAX_MEMORY_CONTENT_CHARACTERS;
  const mounted = mountedTools(parsed.mountedTools);
  const readToolName = mounted.has(MEMORY_TOOL_NAMES.read) ? MEMORY_TOOL_NAMES.read : undefined;
  const now = parsed.now ?? (() => new Date());
  const { backend } = parsed;
  const namespace = parsed.namespace as MemoryNamespaceOption;

  const description =
    parsed.description ??
    joinSentences(
      [
        "Save a fact, preference, decision or summary under a short key, across sessions.",
        `An existing key is replaced only with overwrite: true (${mounted.has(MEMORY_TOOL_NAMES.read) ? `read it first with ${MEMORY_TOOL_NAMES.read}` : "read it first"} to extend it).`,
        mounted.has(MEMORY_TOOL_NAMES.search) || mounted.has(MEMORY_TOOL_NAMES.read)
          ? `Find memories again with ${[
              mounted.when(MEMORY_TOOL_NAMES.search, `${MEMORY_TOOL_NAMES.search} (by words)`),
              mounted.when(MEMORY_TOOL_NAMES.read, `${MEMORY_TOOL_NAMES.read} (by key)`),
            ]
              .filter((part) => part.length > 0)
              .join(" or ")}.`
          : undefined,
        "Never save secrets.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: createInputSchema(maxContentCharacters) as unknown as typeof memoryWriteInputSchema,
    aliases: MEMORY_WRITE_ALIASES,
    annotations: {
      title: "Write a memory",
      readOnly: false,
      destructive: false,
      idempotent: true,
    },
    tags: ["memory", "memory:write"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_MEMORY_WRITE_TIMEOUT_MS,
    execute: async (request, context) => {
      if (request.content.trim().length === 0) {
        return fail("INVALID_INPUT", `${name} refused the memory: content is blank.`, {
          hint: `Call ${name} with the words to remember.`,
        });
      }
      if (containsPrivateKey(request.content)) {
        return fail(
          "BLOCKED",
          `${name} refused the memory: its content holds a private key, and keys are never stored.`,
          {
            hint: "This is policy, not a mistake in the call: save the memory without the key block.",
          },
        );
      }
      const resolved = await resolveNamespace(namespace, context, name);
      if ("failure" in resolved) return resolved.failure;
      const tags = normalizeMemoryTags(request.tags);
      try {
        if (request.overwrite !== true) {
          const existing = await backend.read(resolved.namespace, request.key, {
            signal: context.signal,
          });
          if (existing !== undefined) {
            // The very same memory again (a retry) replaces nothing: it succeeds unchanged.
            if (existing.content === request.content && sameTags(existing.tags, tags)) {
              return ok(writeData(existing, false));
            }
            return existingKey(name, existing, readToolName);
          }
        }
        const { record, created } = await backend.write(
          resolved.namespace,
          { key: request.key, content: request.content, tags, now: now() },
          { signal: context.signal },
        );
        return ok(writeData(record, created));
      } catch (error) {
        if (context.signal.aborted) throw error;
        return backendFailure(name, `save the memory ${JSON.stringify(request.key)}`, error);
      }
    },
    render: (data) =>
      formatMemoryWriteResult(data, readToolName === undefined ? {} : { readToolName }),
  });
}
