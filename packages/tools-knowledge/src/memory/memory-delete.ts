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

/** The default name of the delete tool. */
export const MEMORY_DELETE_TOOL_NAME = MEMORY_TOOL_NAMES.delete;

/** Default time limit of one `memory_delete` call: 30 seconds. */
export const DEFAULT_MEMORY_DELETE_TIMEOUT_MS = 30_000;

/** Field names other toolsets use for `memory_delete`'s key, accepted silently: `name`, `id`. */
export const MEMORY_DELETE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  name: "key",
  id: "key",
});

/** What `memory_delete` returns (every key snake_case). */
export interface MemoryDeleteToolData {
  /** The key deleted. */
  key: string;
  /** Always `true`: an unknown key fails with `MEMORY_KEY_NOT_FOUND` instead. */
  deleted: true;
}

/** Options of {@link createMemoryDeleteTool}. */
export interface MemoryDeleteToolOptions {
  /** Where memories live. */
  backend: MemoryBackend;
  /** The host's namespace: a list of labels, or a function of the call's context. */
  namespace: MemoryNamespaceOption;
  /** Names of the tools mounted beside this one; the description names only these. Default: none. */
  mountedTools?: readonly string[];
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_MEMORY_DELETE_TIMEOUT_MS}. */
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

/** The input schema of `memory_delete`. */
export const memoryDeleteInputSchema = z.object({
  key: keyField("The exact key"),
});

/** The `memory_delete` tool's type. */
export type MemoryDeleteTool = Tool<typeof memoryDeleteInputSchema, MemoryDeleteToolData>;

/**
 * Renders a `memory_delete` result for the model.
 *
 * @param data - the tool's data
 * @returns model-facing text, e.g. `Deleted the memory "user/editor".`
 */
export function formatMemoryDeleteResult(data: MemoryDeleteToolData): string {
  return `Deleted the memory ${JSON.stringify(data.key)}.`;
}

/**
 * Creates the `memory_delete` tool: forgets the memory under an exact key in the host's namespace
 * (annotated destructive, so an approval gate can ask first). An unknown key is
 * `MEMORY_KEY_NOT_FOUND` with the closest keys, so a typo never passes for a deletion.
 *
 * @param options - the backend, the namespace, the mounted tools
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const forget = createMemoryDeleteTool({ backend, namespace: ["user", "alice"] });
 * await forget.run({ key: "user/editor" }); // { success: true, data: { key: "user/editor", deleted: true } }
 */
export function createMemoryDeleteTool(options: MemoryDeleteToolOptions): MemoryDeleteTool {
  const parsed = parseOptions("createMemoryDeleteTool", optionsSchema, options);
  const name = parsed.name ?? MEMORY_DELETE_TOOL_NAME;
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
        "Forget one memory for good: when wrong, outdated or the user asks.",
        mounted.has(MEMORY_TOOL_NAMES.write)
          ? `To correct one, overwrite it with ${MEMORY_TOOL_NAMES.write}.`
          : undefined,
        "An unknown key fails, naming the closest keys.",
      ],
      "\n",
    );

  return defineTool({
    name,
    description,
    input: memoryDeleteInputSchema,
    aliases: MEMORY_DELETE_ALIASES,
    annotations: {
      title: "Delete a memory",
      readOnly: false,
      destructive: true,
      idempotent: true,
    },
    tags: ["memory", "memory:write"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_MEMORY_DELETE_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await resolveNamespace(namespace, context, name);
      if ("failure" in resolved) return resolved.failure;
      try {
        const deleted = await backend.delete(resolved.namespace, request.key, {
          signal: context.signal,
        });
        if (!deleted) {
          const snapshot = await backend.snapshot(resolved.namespace, { signal: context.signal });
          return keyNotFound(
            name,
            request.key,
            closestNames(request.key, snapshot.records.keys()),
            next,
          );
        }
        return ok({ key: request.key, deleted: true as const });
      } catch (error) {
        if (context.signal.aborted) throw error;
        return backendFailure(name, `delete the memory ${JSON.stringify(request.key)}`, error);
      }
    },
    render: (data) => formatMemoryDeleteResult(data),
  });
}
