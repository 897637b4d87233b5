import {
  errorMessage,
  fail,
  listWords,
  type MountedTools,
  type ToolContext,
  type ToolFailure,
} from "@agentool/contract";
import { z } from "zod";
import { splitCommaList } from "../../engine/comma-list.js";
import {
  KnowledgeSourceError,
  QUOTED_MESSAGE_CHARACTERS,
} from "../../engine/knowledge-source-error.js";
import type { MemoryBackend } from "../memory-backend.js";
import {
  MAX_MEMORY_KEY_CHARACTERS,
  MAX_MEMORY_TAG_CHARACTERS,
  MAX_MEMORY_TAGS,
  memoryKeyProblem,
  memoryNamespaceProblem,
  memoryTagProblem,
} from "../memory-rules.js";

/** The five memory tools' default names. @internal */
export const MEMORY_TOOL_NAMES = Object.freeze({
  write: "memory_write",
  read: "memory_read",
  search: "memory_search",
  delete: "memory_delete",
  list: "memory_list",
});

/**
 * Where a memory tool's memories live: a fixed namespace, or one computed for each call from its
 * context (thread id, metadata the host passes to `run`). Never chosen by the model.
 */
export type MemoryNamespaceOption =
  | readonly string[]
  | ((
      context: ToolContext,
    ) => readonly string[] | undefined | Promise<readonly string[] | undefined>);

/** @internal */
export const backendOption = z.custom<MemoryBackend>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as MemoryBackend).read === "function" &&
    typeof (value as MemoryBackend).write === "function" &&
    typeof (value as MemoryBackend).delete === "function" &&
    typeof (value as MemoryBackend).snapshot === "function",
  { error: "expected a MemoryBackend ({ read, write, delete, snapshot })" },
);

/** The clock option of the memory tools (`now`), checked once here. @internal */
export const clockOption = z
  .custom<() => Date>((value) => typeof value === "function", {
    error: "expected a function () => Date",
  })
  .optional();

/** @internal */
export const namespaceOption = z.union([
  z
    .array(z.string())
    .readonly()
    .superRefine((value, context) => {
      const problem = memoryNamespaceProblem(value);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    }),
  z.custom<(context: ToolContext) => readonly string[]>((value) => typeof value === "function", {
    error: "expected a list of labels or a function (context) => labels",
  }),
]);

/**
 * The key field of every memory tool: `what` it names, then the key's format when `withFormat`
 * (the tool that chooses a key; the others are given one). @internal
 */
export function keyField(what: string, withFormat = false) {
  return z
    .string()
    .min(1)
    .max(MAX_MEMORY_KEY_CHARACTERS, {
      error: `at most ${MAX_MEMORY_KEY_CHARACTERS} characters — use a shorter key`,
    })
    .superRefine((value, context) => {
      const problem = memoryKeyProblem(value);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
    })
    .describe(
      withFormat
        ? `${what} Letters, digits and _ . : / - (e.g. "user/editor"), case-sensitive.`
        : `${what} (case-sensitive).`,
    );
}

/**
 * Who saves into the memory a memory tool reads, for its description and its empty messages:
 * `savers` are the mounted tools that write there (`memory_write`, and `remember` when it saves
 * into the same backend); `apartSearch` is the search tool of a `remember` mounted over another
 * store (`search_memory`), so an empty memory never claims nothing was saved anywhere.
 *
 * @param mounted - the tools mounted beside it
 * @param rememberToolName - the name of a `remember` that saves into this backend, if one does
 * @returns the savers and the other store's search tool
 * @internal
 */
export function memoryNeighbours(
  mounted: MountedTools,
  rememberToolName: string | undefined,
): { savers: string[]; apartSearch: string | undefined } {
  const savers = [MEMORY_TOOL_NAMES.write, rememberToolName].filter(
    (name): name is string => name !== undefined && mounted.has(name),
  );
  const apart =
    rememberToolName === undefined && mounted.has("remember") && mounted.has("search_memory");
  return { savers, apartSearch: apart ? "search_memory" : undefined };
}

/**
 * What an empty memory answers: "No memory has been saved with memory_write or remember yet"
 * (or "… here yet" when no saver is mounted), the sentence that names the savers, and where
 * excerpts kept apart are searched — never "nothing saved" about a store it did not look in.
 *
 * @param neighbours - {@link memoryNeighbours}
 * @param after - what follows "yet" in the first sentence (", so nothing matches \"x\"")
 * @param saveSuffix - what follows the savers in the advice (" first")
 * @returns the message
 * @internal
 */
export function nothingSavedYet(
  neighbours: { savers: string[]; apartSearch: string | undefined },
  after: string,
  saveSuffix: string,
): string {
  const { savers, apartSearch } = neighbours;
  const who = savers.length === 0 ? " here" : ` with ${listWords(savers)}`;
  const save = savers.length === 0 ? "" : ` Save one with ${listWords(savers)}${saveSuffix}.`;
  const elsewhere =
    apartSearch === undefined
      ? ""
      : ` Excerpts saved with remember are kept apart: search them with ${apartSearch}.`;
  return `No memory has been saved${who} yet${after}.${save}${elsewhere}`;
}

/**
 * The tags field of every memory tool, described once: `"save"` for the tools that label a memory,
 * `"filter"` for the ones that keep only memories carrying every tag given.
 *
 * @internal
 */
export function tagsField(role: "save" | "filter") {
  const description =
    role === "save"
      ? "Labels to filter on later, one word each."
      : "Only memories with all these tags (exact).";
  return z
    .preprocess(
      splitCommaList,
      z
        .array(
          z
            .string()
            .max(MAX_MEMORY_TAG_CHARACTERS + 16, {
              error: `a tag is at most ${MAX_MEMORY_TAG_CHARACTERS} characters`,
            })
            .superRefine((value, context) => {
              const problem = memoryTagProblem(value.trim());
              if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
            }),
        )
        .max(MAX_MEMORY_TAGS, { error: `at most ${MAX_MEMORY_TAGS} tags` }),
    )
    .optional()
    .describe(description);
}

/**
 * Resolves the namespace of one call, or the failure that says the host configured none.
 *
 * @internal
 */
export async function resolveNamespace(
  option: MemoryNamespaceOption,
  context: ToolContext,
  toolName: string,
): Promise<{ namespace: readonly string[] } | { failure: ToolFailure }> {
  let namespace: unknown;
  try {
    namespace = typeof option === "function" ? await option(context) : option;
  } catch (error) {
    return {
      failure: fail(
        "NOT_CONFIGURED",
        `${toolName} has no memory namespace for this call: the host's namespace function failed (${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}).`,
        { hint: "The host must fix its namespace option; the model cannot choose one." },
      ),
    };
  }
  const problem = namespace === undefined ? "it returned none" : memoryNamespaceProblem(namespace);
  if (problem !== undefined) {
    return {
      failure: fail(
        "NOT_CONFIGURED",
        `${toolName} has no memory namespace for this call: ${problem}${context.threadId === undefined ? " (the call carries no thread id)" : ""}`,
        {
          hint: "The host must give the call what its namespace option needs (a thread id, a user id in metadata); the model cannot choose a namespace.",
        },
      ),
    };
  }
  return { namespace: namespace as readonly string[] };
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "EAI_AGAIN",
  "57P01",
  "57P03",
  "08000",
  "08003",
  "08006",
]);

const ACCESS_CODES = new Set(["EACCES", "EPERM", "EROFS"]);

/**
 * Turns what a backend threw into the failure envelope: a `KnowledgeSourceError` keeps its code, a
 * refused connection is `NETWORK_ERROR` (retryable), a refused file access `PERMISSION_DENIED`,
 * anything else `INTERNAL` with the backend's message.
 *
 * @internal
 */
export function backendFailure(toolName: string, action: string, error: unknown): ToolFailure {
  if (KnowledgeSourceError.isInstance(error)) {
    return fail(error.code, error.message, {
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      retryable: error.retryable,
    });
  }
  const code =
    typeof error === "object" && error !== null && "code" in error
      ? String((error as { code: unknown }).code)
      : "";
  if (
    NETWORK_CODES.has(code) ||
    /connect|connection|terminat/i.test(errorMessage(error, QUOTED_MESSAGE_CHARACTERS))
  ) {
    return fail(
      "NETWORK_ERROR",
      `${toolName} could not ${action}: the memory store is unreachable (${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}).`,
      { hint: `Call ${toolName} again shortly.`, retryable: true },
    );
  }
  if (ACCESS_CODES.has(code)) {
    return fail(
      "PERMISSION_DENIED",
      `${toolName} could not ${action}: the memory folder refused access (${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}).`,
      { hint: "The host must give this process access to its memory folder." },
    );
  }
  return fail(
    "INTERNAL",
    `${toolName} could not ${action}: the memory store failed (${errorMessage(error, QUOTED_MESSAGE_CHARACTERS)}).`,
    {
      hint: `Call ${toolName} again; if it fails the same way, the host must check its memory store.`,
    },
  );
}

/** The one `MEMORY_KEY_NOT_FOUND` failure, naming the closest keys. @internal */
export function keyNotFound(
  toolName: string,
  key: string,
  close: readonly string[],
  next: { list?: string; search?: string },
): ToolFailure {
  const others: string[] = [];
  if (next.search !== undefined) others.push(`${next.search} to find a memory by its words`);
  if (next.list !== undefined) others.push(`${next.list} to see the keys`);
  const closeText =
    close.length === 0
      ? ""
      : ` Closest ${close.length === 1 ? "key" : "keys"}: ${close.map((item) => JSON.stringify(item)).join(", ")}.`;
  return fail("MEMORY_KEY_NOT_FOUND", `No memory has the key ${JSON.stringify(key)}.${closeText}`, {
    hint:
      close.length > 0
        ? `Call ${toolName} again with key=${JSON.stringify(close[0])} if that is the one${others.length > 0 ? `, or use ${others.join(" or ")}` : ""}.`
        : others.length > 0
          ? `Use ${others.join(" or ")}; keys are case-sensitive.`
          : "Keys are case-sensitive: check the exact key.",
  });
}
