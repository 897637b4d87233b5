import {
  closestNames,
  defineTool,
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
  keyField,
  keyNotFound,
  MEMORY_TOOL_NAMES,
  type MemoryNamespaceOption,
  namespaceOption,
  resolveNamespace,
} from "./internal/memory-tool-common.js";
import type { MemoryBackend } from "./memory-backend.js";

/** The default name of the read tool. */
export const MEMORY_READ_TOOL_NAME = MEMORY_TOOL_NAMES.read;

/** Default time limit of one `memory_read` call: 30 seconds. */
export const DEFAULT_MEMORY_READ_TIMEOUT_MS = 30_000;

/** Field names other toolsets use for `memory_read`'s key, accepted silently: `name`, `id`. */
export const MEMORY_READ_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  name: "key",
  id: "key",
});

/** What `memory_read` returns (every key snake_case). */
export interface MemoryReadToolData {
  /** The key. */
  key: string;
  /** The content, whole, as written. */
  content: string;
  /** Its tags. */
  tags: string[];
  /** When the key was first written (ISO 8601). */
  created_at: string;
  /** When it was last written (ISO 8601). */
  updated_at: string;
}

/** Options of {@link createMemoryReadTool}. */
export interface MemoryReadToolOptions {
  /** Where memories live. */
  backend: MemoryBackend;
  /** The host's namespace: a list of labels, or a function of the call's context. */
  namespace: MemoryNamespaceOption;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_MEMORY_READ_TIMEOUT_MS}. */
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
  mountedTools: mountedToolsOption,
  timeoutMs: z.number().int().min(0).optional(),
});

/** The input schema of `memory_read`. */
export const memoryReadInputSchema = z.object({
  key: keyField("The exact key"),
});

/** The `memory_read` tool's type. */
export type MemoryReadTool = Tool<typeof memoryReadInputSchema, MemoryReadToolData>;

/**
 * Renders a `memory_read` result for the model: a header line (key, tags, timestamps), then the
 * content as written.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatMemoryReadResult(data);
 * // 'Memory "user/editor" (tags: preference; created 2026-03-04T05:06:07.000Z, updated 2026-03-04T05:06:07.000Z):\nPrefers Vim key bindings.'
 */
export function formatMemoryReadResult(data: MemoryReadToolData): string {
  const tags = data.tags.length > 0 ? `tags: ${data.tags.join(", ")}` : "no tags";
  const times =
    data.created_at === data.updated_at
      ? `written ${data.updated_at}`
      : `created ${data.created_at}, updated ${data.updated_at}`;
  return `Memory ${JSON.stringify(data.key)} (${tags}; ${times}):\n${data.content}`;
}

/**
 * Creates the `memory_read` tool: the memory saved under an exact key in the host's namespace,
 * whole, with its tags and timestamps. An unknown key is `MEMORY_KEY_NOT_FOUND`, naming the closest
 * keys that exist (another case, a longer or shorter key, a typo).
 *
 * @param options - the backend, the namespace, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const read = createMemoryReadTool({ backend, namespace: ["user", "alice"] });
 * await read.run({ key: "user/editor" });
 * // { success: true, data: { key: "user/editor", content: "Prefers Vim key bindings.", tags: ["preference"], created_at: "…", updated_at: "…" } }
 */
export function createMemoryReadTool(options: MemoryReadToolOptions): MemoryReadTool {
  const parsed = parseOptions("createMemoryReadTool", optionsSchema, options);
  const name = parsed.name ?? MEMORY_READ_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const { backend } = parsed;
  const namespace = parsed.namespace as MemoryNamespaceOption;
  const next = {
    ...(mounted.has(MEMORY_TOOL_NAMES.search) ? { search: MEMORY_TOOL_NAMES.search } : {}),
    ...(mounted.has(MEMORY_TOOL_NAMES.list) ? { list: MEMORY_TOOL_NAMES.list } : {}),
  };

  const description =
    parsed.description ??
    joinSentences(
      [
        "Read one memory's whole content and tags by its exact key.",
        mounted.has(MEMORY_TOOL_NAMES.search) || mounted.has(MEMORY_TOOL_NAMES.list)
          ? `Find keys with ${[
              mounted.when(MEMORY_TOOL_NAMES.search, `${MEMORY_TOOL_NAMES.search} (by words)`),
              mounted.when(MEMORY_TOOL_NAMES.list, MEMORY_TOOL_NAMES.list),
            ]
              .filter((part) => part.length > 0)
              .join(" or ")}.`
          : undefined,
        "An unknown key fails, naming the closest keys.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: memoryReadInputSchema,
    aliases: MEMORY_READ_ALIASES,
    annotations: { title: "Read a memory", readOnly: true, idempotent: true },
    tags: ["memory", "memory:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_MEMORY_READ_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await resolveNamespace(namespace, context, name);
      if ("failure" in resolved) return resolved.failure;
      try {
        const record = await backend.read(resolved.namespace, request.key, {
          signal: context.signal,
        });
        if (record === undefined) {
          const snapshot = await backend.snapshot(resolved.namespace, { signal: context.signal });
          return keyNotFound(
            name,
            request.key,
            closestNames(request.key, snapshot.records.keys()),
            next,
          );
        }
        return ok({
          key: record.key,
          content: record.content,
          tags: [...record.tags],
          created_at: record.createdAt,
          updated_at: record.updatedAt,
        });
      } catch (error) {
        if (context.signal.aborted) throw error;
        return backendFailure(name, `read the memory ${JSON.stringify(request.key)}`, error);
      }
    },
    render: (data) => formatMemoryReadResult(data),
  });
}
