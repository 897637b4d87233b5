import { mountedToolsOption, parseOptions } from "@agentool/contract";
import { z } from "zod";
import {
  backendOption,
  clockOption,
  MEMORY_TOOL_NAMES,
  type MemoryNamespaceOption,
  namespaceOption,
} from "./internal/memory-tool-common.js";
import type { MemoryBackend } from "./memory-backend.js";
import { createMemoryDeleteTool, type MemoryDeleteTool } from "./memory-delete.js";
import { createMemoryListTool, type MemoryListTool } from "./memory-list.js";
import { createMemoryReadTool, type MemoryReadTool } from "./memory-read.js";
import { createMemoryRememberTool } from "./memory-remember.js";
import { MAX_MEMORY_CONTENT_CHARACTERS } from "./memory-rules.js";
import { createMemorySearchTool, type MemorySearchTool } from "./memory-search.js";
import { createMemoryWriteTool, type MemoryWriteTool } from "./memory-write.js";
import { REMEMBER_TOOL_NAME, type RememberTool } from "./remember.js";

/** The names of the five memory tools, in the order {@link createMemoryTools} returns them. */
export const MEMORY_TOOL_NAME_LIST: readonly string[] = Object.freeze([
  MEMORY_TOOL_NAMES.write,
  MEMORY_TOOL_NAMES.read,
  MEMORY_TOOL_NAMES.search,
  MEMORY_TOOL_NAMES.list,
  MEMORY_TOOL_NAMES.delete,
]);

/** A memory tool of {@link createMemoryTools}. */
export type MemoryTool =
  | MemoryWriteTool
  | MemoryReadTool
  | MemorySearchTool
  | MemoryListTool
  | MemoryDeleteTool
  | RememberTool;

/** Options of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  /** Where memories live: `createFileMemoryBackend` (`./node`), `createBaseStoreMemoryBackend`, … */
  backend: MemoryBackend;
  /**
   * The host's namespace, never the model's: a list of labels (`["user", "alice"]`), or a function
   * of the call's context (`(context) => ["thread", context.threadId]`,
   * `(context) => ["user", String(context.metadata.user_id)]`). A function that returns nothing
   * makes the call fail with `NOT_CONFIGURED` — never a shared fallback.
   */
  namespace: MemoryNamespaceOption;
  /** Which tools to create (default all five). `readOnly: true` keeps read, search and list. */
  include?: readonly string[];
  /** Only the read-only tools (`memory_read`, `memory_search`, `memory_list`). Default `false`. */
  readOnly?: boolean;
  /** Longest content `memory_write` accepts. Default 10,000 characters. */
  maxContentCharacters?: number;
  /**
   * Also create `remember` over the same backend and namespace (`createMemoryRememberTool`): an
   * excerpt with its source, kept under a key made from its text, that `memory_search` finds
   * beside `memory_write`'s memories — one memory for the model. Left out with `readOnly`.
   * Default `false`.
   */
  remember?: boolean;
  /** Other tools mounted beside these (descriptions may name them). Default: none. */
  mountedTools?: readonly string[];
  /** The clock for the timestamps. Default `() => new Date()`. */
  now?: () => Date;
}

const optionsSchema = z.object({
  backend: backendOption,
  namespace: namespaceOption,
  include: z
    .array(z.enum(MEMORY_TOOL_NAME_LIST as [string, ...string[]]))
    .readonly()
    .optional(),
  readOnly: z.boolean().optional(),
  maxContentCharacters: z.number().int().min(1).max(MAX_MEMORY_CONTENT_CHARACTERS).optional(),
  remember: z.boolean().optional(),
  mountedTools: mountedToolsOption,
  now: clockOption,
});

/**
 * Creates the memory tools over one backend and one host-chosen namespace: `memory_write`,
 * `memory_read`, `memory_search`, `memory_list` and `memory_delete` (or the ones `include` names),
 * each told which of the others are mounted so descriptions and messages name only those.
 *
 * @param options - the backend, the namespace, which tools, the content cap
 * @returns the tools, in the order of {@link MEMORY_TOOL_NAME_LIST}
 * @throws AgentoolError for invalid options
 * @example
 * import { createFileMemoryBackend } from "@agentool/tools-knowledge/node";
 * const tools = createMemoryTools({
 *   backend: createFileMemoryBackend({ directory: "./memories" }),
 *   namespace: (context) => (context.threadId === undefined ? undefined : ["thread", context.threadId]),
 * });
 */
export function createMemoryTools(options: MemoryToolsOptions): MemoryTool[] {
  const parsed = parseOptions("createMemoryTools", optionsSchema, options);
  const readOnlyNames = new Set<string>([
    MEMORY_TOOL_NAMES.read,
    MEMORY_TOOL_NAMES.search,
    MEMORY_TOOL_NAMES.list,
  ]);
  const chosen = new Set(
    (parsed.include ?? MEMORY_TOOL_NAME_LIST).filter(
      (name) => parsed.readOnly !== true || readOnlyNames.has(name),
    ),
  );
  const remember = parsed.remember === true && parsed.readOnly !== true;
  const mounted = [
    ...chosen,
    ...(remember ? [REMEMBER_TOOL_NAME] : []),
    ...(parsed.mountedTools ?? []),
  ];
  const common = {
    backend: parsed.backend,
    namespace: parsed.namespace as MemoryNamespaceOption,
    mountedTools: mounted,
  };
  const readers = { ...common, ...(remember ? { rememberToolName: REMEMBER_TOOL_NAME } : {}) };
  const tools: MemoryTool[] = [];
  if (chosen.has(MEMORY_TOOL_NAMES.write)) {
    tools.push(
      createMemoryWriteTool({
        ...common,
        ...(parsed.maxContentCharacters === undefined
          ? {}
          : { maxContentCharacters: parsed.maxContentCharacters }),
        ...(parsed.now === undefined ? {} : { now: parsed.now }),
      }),
    );
  }
  if (remember) {
    tools.push(
      createMemoryRememberTool({
        ...common,
        ...(parsed.maxContentCharacters === undefined
          ? {}
          : { maxTextCharacters: parsed.maxContentCharacters }),
        ...(parsed.now === undefined ? {} : { now: parsed.now }),
      }),
    );
  }
  if (chosen.has(MEMORY_TOOL_NAMES.read)) tools.push(createMemoryReadTool(common));
  if (chosen.has(MEMORY_TOOL_NAMES.search)) tools.push(createMemorySearchTool(readers));
  if (chosen.has(MEMORY_TOOL_NAMES.list)) tools.push(createMemoryListTool(readers));
  if (chosen.has(MEMORY_TOOL_NAMES.delete)) tools.push(createMemoryDeleteTool(common));
  return tools;
}
