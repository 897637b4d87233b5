import {
  AgentoolError,
  type AnyTool,
  isTool,
  parseOptions,
  type ToolProgress,
  type ToolResult,
  toJsonSchema,
  toolOverridesShape,
} from "@agentool/contract";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch/web";
import { ToolMessage } from "@langchain/core/messages";
import {
  type DynamicStructuredTool,
  tool as langChainTool,
  type ToolRunnableConfig,
} from "@langchain/core/tools";
import { z } from "zod";
import type { ApproveFunction, RequireApprovalFunction } from "../approval.js";
import {
  approvalGateFor,
  type CallGate,
  checkApprovalOptions,
  runWithApproval,
} from "../internal/approval-gate.js";
import {
  allowDestructiveOptionSchema,
  approveOptionSchema,
  metadataOptionSchema,
  requireApprovalOptionSchema,
} from "../internal/option-schemas.js";
import { takeInterrupt } from "../internal/pending-interrupts.js";
import { createToolRegistry } from "../internal/tool-registry.js";
import { type LangChainToolContent, toLangChainContent } from "./lang-chain-content.js";

/**
 * The name of the LangChain custom event that carries progress reports.
 *
 * @example
 * const handler = { handleCustomEvent: (name, payload) => name === PROGRESS_EVENT_NAME && console.log(payload) };
 */
export const PROGRESS_EVENT_NAME = "agentool_progress";

/** The payload of an `agentool_progress` custom event. */
export interface LangChainProgressEvent extends ToolProgress {
  /** The tool's name. */
  tool: string;
  /** The model's id for the call, when there is one. */
  toolCallId: string | undefined;
}

/**
 * What a `ToolMessage`'s `artifact` holds (the model never sees it; checkpoints store it):
 *
 * - `"envelope"` (default): the whole result, `{ success: true, data }` or `{ success: false, error }`;
 * - `"data"`: only `result.data` on success, only `result.error` on failure (tell them apart by
 *   the message's `status`);
 * - `"none"`: no artifact — the checkpoint keeps only the content the model read.
 */
export type LangChainArtifactMode = "envelope" | "data" | "none";

/** Options of {@link toLangChainTools}. */
export interface ToLangChainToolsOptions {
  /**
   * Runs before every call of a tool that needs approval (see `requireApproval`; by default the
   * tools annotated `destructive: true`); anything but `true` refuses the call with an error
   * `ToolMessage` `Error [BLOCKED]: …`.
   */
  approve?: ApproveFunction;
  /**
   * Which tools need approval, decided once per tool from its name (overrides applied),
   * annotations and tags. Default: `defaultRequireApproval` (annotated `destructive: true`).
   * Needs `approve`.
   *
   * @example
   * { approve, requireApproval: (tool) => tool.annotations.openWorld === true }
   */
  requireApproval?: RequireApprovalFunction;
  /**
   * The host's decision to run tools annotated `destructive: true` without asking. Default
   * `false`: without `approve`, their calls are refused with `Error [BLOCKED]: …` and never run.
   */
  allowDestructive?: boolean;
  /** What the `ToolMessage`'s `artifact` holds: `"envelope"` (default), `"data"` or `"none"`. */
  artifact?: LangChainArtifactMode;
  /** Host values: LangChain tool metadata (for tracing) and `context.metadata` of every call. */
  metadata?: Record<string, unknown>;
}

/** Options of {@link toLangChainTool}. */
export interface ToLangChainToolOptions extends ToLangChainToolsOptions {
  /** A new snake_case name for the tool. */
  name?: string;
  /** A new description for the tool. */
  description?: string;
}

/**
 * The LangChain tool made from an agentool tool: a `DynamicStructuredTool` with
 * `responseFormat: "content_and_artifact"`, whose schema is the tool's JSON Schema (the artifact
 * is left out with `artifact: "none"`).
 */
export type LangChainTool = DynamicStructuredTool;

const toolsOptionsSchema = z.object({
  approve: approveOptionSchema,
  requireApproval: requireApprovalOptionSchema,
  allowDestructive: allowDestructiveOptionSchema,
  artifact: z
    .enum(["envelope", "data", "none"])
    .optional()
    .describe("What the ToolMessage artifact holds (default envelope)."),
  metadata: metadataOptionSchema,
});

/** What each converted tool needs besides the tool. */
interface ConvertSettings {
  /** The gate, when this tool's calls need approval (or are refused: no host decision). */
  approve: CallGate | undefined;
  /** What the artifact holds. */
  artifact: LangChainArtifactMode;
  /** Host values. */
  metadata: Record<string, unknown> | undefined;
}

function artifactOf(result: ToolResult<unknown>, mode: LangChainArtifactMode): unknown {
  if (mode === "envelope") return result;
  if (mode === "none") return undefined;
  return result.success ? result.data : result.error;
}

const toolOptionsSchema = toolsOptionsSchema.extend(toolOverridesShape);

/**
 * A schema that accepts anything: LangChain's own pre-validation sees only this. A zod schema,
 * not `{}`: LangChain validates a JSON Schema by dereferencing it (URL parsing) on every call,
 * which costs more than the rest of the adapter together.
 */
const ACCEPT_ANY_SCHEMA = z.any();

/**
 * LangChain validates a JSON Schema itself before the tool function runs and, on a mismatch,
 * throws a generic "did not match expected schema" error. That would hide the tool's own
 * `INVALID_INPUT` message (which names each bad field) and refuse `null` for optional fields,
 * which OpenAI strict mode sends and `run` accepts. So `call` runs on a view of the tool whose
 * schema accepts anything; `tool.schema` (what `bindTools` sends to the model) stays the real
 * JSON Schema, and `run` does the validation.
 */
function validateInRunOnly(structuredTool: LangChainTool): void {
  const prototypeCall = Object.getPrototypeOf(structuredTool).call as LangChainTool["call"];
  const unvalidated = Object.create(structuredTool, {
    schema: { value: ACCEPT_ANY_SCHEMA, enumerable: true },
  }) as LangChainTool;
  Object.defineProperty(structuredTool, "call", {
    configurable: true,
    writable: true,
    value: (...parameters: Parameters<LangChainTool["call"]>) =>
      prototypeCall.apply(unvalidated, parameters),
  });
}

function threadIdOf(config: ToolRunnableConfig): string | undefined {
  const threadId: unknown = config.configurable?.thread_id;
  return typeof threadId === "string" || typeof threadId === "number"
    ? String(threadId)
    : undefined;
}

function toolCallIdOf(config: ToolRunnableConfig): string | undefined {
  const fromToolCall = config.toolCall?.id;
  if (typeof fromToolCall === "string") return fromToolCall;
  const fromRuntime: unknown = (config as { toolCallId?: unknown }).toolCallId;
  return typeof fromRuntime === "string" && fromRuntime.length > 0 ? fromRuntime : undefined;
}

function convert(tool: AnyTool, settings: ConvertSettings): LangChainTool {
  const { approve, metadata } = settings;
  const name = tool.name;
  const run = async (
    input: unknown,
    config: ToolRunnableConfig,
  ): Promise<[LangChainToolContent | ToolMessage, unknown]> => {
    const toolCallId = toolCallIdOf(config);
    let events: Promise<void> | undefined;
    const progress = (update: ToolProgress) => {
      const payload: LangChainProgressEvent = { tool: name, toolCallId, ...update };
      events = (events ?? Promise.resolve())
        .then(() => dispatchCustomEvent(PROGRESS_EVENT_NAME, payload, config))
        .catch(() => {});
    };
    const result = await runWithApproval(
      tool,
      input,
      { signal: config.signal, toolCallId, threadId: threadIdOf(config), metadata, progress },
      approve,
    );
    if (events !== undefined) await events;
    // A LangGraph interrupt raised inside the tool (see createInterruptHandler) pauses the graph.
    const interrupted = takeInterrupt(config, toolCallId);
    if (interrupted !== undefined) throw interrupted;
    const content = toLangChainContent(tool.renderResult(result));
    const artifact = artifactOf(result, settings.artifact);
    if (!result.success && toolCallId !== undefined) {
      // A returned ToolMessage is passed through by LangChain as is: this is how the error status gets set.
      const message = new ToolMessage({
        status: "error",
        content: content as ToolMessage["content"],
        ...(artifact === undefined ? {} : { artifact }),
        tool_call_id: toolCallId,
        name,
        ...(metadata === undefined ? {} : { metadata }),
      });
      return [message, artifact];
    }
    return [content, artifact];
  };
  const structuredTool = langChainTool(run, {
    name,
    description: tool.description,
    schema: toJsonSchema(tool),
    responseFormat: "content_and_artifact",
    ...(metadata === undefined ? {} : { metadata }),
  }) as unknown as LangChainTool;
  validateInRunOnly(structuredTool);
  return structuredTool;
}

/**
 * Turns an agentool tool into a LangChain tool for a LangGraph `ToolNode`, `createAgent` or
 * `model.bindTools`.
 *
 * - Invoked with a `ToolCall` (as agents do), it returns a `ToolMessage`: content is the
 *   rendered result (text, or text and image blocks), `artifact` is the envelope (or only the
 *   data / error, or nothing: option `artifact`), and a failure has `status: "error"` and
 *   content `Error [CODE]: message` (+ `Hint: …`).
 * - Invoked with plain arguments, it returns the content only.
 * - The model's arguments are validated by the tool itself, so bad arguments give
 *   `Error [INVALID_INPUT]: …` naming each bad field.
 * - `config.signal` is passed to the tool: aborting cancels the work (LangChain then rejects
 *   the invocation with an `AbortError`, as for every tool).
 * - `context.progress(…)` is dispatched as the custom event `agentool_progress` with
 *   `{ tool, toolCallId, message?, completed?, total? }`.
 * - The tool gets `toolCallId` and `threadId` (`config.configurable.thread_id`).
 *
 * @param tool - a tool made by `defineTool`
 * @param options - `name`, `description` (overrides), `approve` (the gate), `requireApproval`
 *   (which tools need it; default: annotated `destructive`), `artifact`, `metadata`
 * @returns a LangChain `DynamicStructuredTool`
 * @throws AgentoolError for bad options or something that is not an agentool tool
 * @example
 * const readFile = toLangChainTool(createReadFileTool({ root }), { description: "Read a file of the project." });
 * const toolNode = new ToolNode([readFile]);
 */
export function toLangChainTool(tool: AnyTool, options?: ToLangChainToolOptions): LangChainTool {
  const parsed = parseOptions("toLangChainTool", toolOptionsSchema, options);
  if (!isTool(tool))
    throw new AgentoolError("toLangChainTool: expected a tool made by defineTool.");
  const target =
    parsed.name === undefined && parsed.description === undefined
      ? tool
      : tool.withOverrides({ name: parsed.name, description: parsed.description });
  checkApprovalOptions("toLangChainTool", parsed);
  return convert(target, {
    approve: approvalGateFor("toLangChainTool", target, parsed),
    artifact: parsed.artifact ?? "envelope",
    metadata: parsed.metadata,
  });
}

/**
 * Turns several agentool tools into LangChain tools, with the same options for each.
 *
 * @param tools - tools made by `defineTool` (names must be unique)
 * @param options - `approve`, `requireApproval`, `artifact` and `metadata`; rename single tools
 *   with {@link toLangChainTool}
 * @returns one LangChain tool per tool, in order
 * @throws AgentoolError for bad options, duplicate names or something that is not a tool
 * @example
 * const agent = createAgent({ model, tools: toLangChainTools(tools, { approve: askTheUser }) });
 */
export function toLangChainTools(
  tools: readonly AnyTool[],
  options?: ToLangChainToolsOptions,
): LangChainTool[] {
  const parsed = parseOptions("toLangChainTools", toolsOptionsSchema, options);
  checkApprovalOptions("toLangChainTools", parsed);
  const registry = createToolRegistry("toLangChainTools", tools);
  return [...registry.values()].map((tool) =>
    convert(tool, {
      approve: approvalGateFor("toLangChainTools", tool, parsed),
      artifact: parsed.artifact ?? "envelope",
      metadata: parsed.metadata,
    }),
  );
}
