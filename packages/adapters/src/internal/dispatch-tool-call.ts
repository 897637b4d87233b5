import {
  type AnyTool,
  errorMessage,
  fail,
  formatToolError,
  parseOptions,
  type ToolContent,
  type ToolResult,
} from "@agentool/contract";
import type { DispatcherOptions, DispatchRunOptions } from "../dispatcher-options.js";
import {
  approvalGateFor,
  type CallGate,
  checkApprovalOptions,
  runWithApproval,
} from "./approval-gate.js";
import { dispatcherOptionsSchema } from "./option-schemas.js";
import { createToolRegistry } from "./tool-registry.js";

/** One provider tool call, reduced to what every provider has. */
export interface ToolCallRequest {
  /** The tool name the model asked for. */
  name: string;
  /** The arguments: a JSON string (OpenAI) or an already parsed value (Anthropic, Gemini). */
  arguments: unknown;
  /** The provider's id for the call. */
  toolCallId: string | undefined;
}

/** What a dispatched call produced. */
export interface DispatchOutcome {
  /** The tool that ran, or `undefined` when the name matched none. */
  tool: AnyTool | undefined;
  /** The envelope. */
  result: ToolResult<unknown>;
  /** Model-facing content: `tool.renderResult(result)`, or the formatted error. */
  content: ToolContent;
}

/** Settings shared by every call of one dispatcher. */
export interface DispatchSettings {
  /** The gate of each tool whose calls need approval (or are refused), by tool name. */
  gates: ReadonlyMap<string, CallGate>;
  /** Host values for every call. */
  metadata: Record<string, unknown> | undefined;
}

function parseArguments(
  tool: AnyTool,
  raw: unknown,
): { success: true; input: unknown } | { success: false; result: ToolResult<unknown> } {
  if (typeof raw !== "string") return { success: true, input: raw ?? {} };
  if (raw.trim().length === 0) return { success: true, input: {} };
  try {
    return { success: true, input: JSON.parse(raw) };
  } catch (error) {
    const detail = errorMessage(error);
    return {
      success: false,
      result: fail(
        "INVALID_INPUT",
        `Invalid input for ${tool.name}: the arguments are not valid JSON (${detail}).`,
        {
          hint: `Send the arguments as one JSON object that matches the schema of ${tool.name}, then call it again.`,
        },
      ),
    };
  }
}

/**
 * Finds the tool, parses the arguments, asks the approval gate for tools that need it and runs
 * the tool. Never rejects: an unknown name becomes `UNSUPPORTED` (naming the available tools),
 * arguments that are not JSON become `INVALID_INPUT`.
 *
 * @param registry - the dispatcher's tools by name
 * @param call - the provider's call
 * @param settings - the dispatcher's gate and metadata
 * @param options - per-call options
 * @returns the tool, its envelope and the model-facing content
 */
export async function dispatchToolCall(
  registry: ReadonlyMap<string, AnyTool>,
  call: ToolCallRequest,
  settings: DispatchSettings,
  options: DispatchRunOptions = {},
): Promise<DispatchOutcome> {
  const tool = registry.get(call.name);
  if (tool === undefined) {
    const available = [...registry.keys()];
    const result = fail("UNSUPPORTED", `There is no tool named ${JSON.stringify(call.name)}.`, {
      hint:
        available.length > 0
          ? `Call one of the available tools instead: ${available.join(", ")}.`
          : "No tools are available; answer without calling a tool.",
    });
    return { tool: undefined, result, content: formatToolError(result.error) };
  }
  const parsed = parseArguments(tool, call.arguments);
  if (!parsed.success)
    return { tool, result: parsed.result, content: tool.renderResult(parsed.result) };
  const progress = options.progress;
  const metadata =
    settings.metadata === undefined && options.metadata === undefined
      ? undefined
      : { ...settings.metadata, ...options.metadata };
  const result = await runWithApproval(
    tool,
    parsed.input,
    {
      signal: options.signal,
      toolCallId: call.toolCallId,
      threadId: options.threadId,
      timeoutMs: options.timeoutMs,
      metadata,
      progress:
        progress === undefined
          ? undefined
          : (update) => progress({ ...update, tool: tool.name, toolCallId: call.toolCallId }),
    },
    settings.gates.get(tool.name),
  );
  return { tool, result, content: tool.renderResult(result) };
}

/**
 * What every provider dispatcher starts from: its options checked (unknown keys refused), its
 * tools indexed by name (duplicates refused) and, once per tool, whether its calls need approval.
 *
 * @param owner - the public factory's name, used in error messages
 * @param tools - the tools the model may call
 * @param options - the dispatcher's options
 * @returns the registry and the settings shared by every call
 * @throws AgentoolError for bad options (also `requireApproval` without `approve`, or a predicate
 *   that throws or returns no boolean), duplicate names or something that is not a tool
 */
export function prepareDispatcher(
  owner: string,
  tools: readonly AnyTool[],
  options: DispatcherOptions | undefined,
): { registry: ReadonlyMap<string, AnyTool>; settings: DispatchSettings } {
  const parsed = parseOptions(owner, dispatcherOptionsSchema, options);
  checkApprovalOptions(owner, parsed);
  const registry = createToolRegistry(owner, tools);
  const gates = new Map<string, CallGate>();
  for (const [name, tool] of registry) {
    const gate = approvalGateFor(owner, tool, parsed);
    if (gate !== undefined) gates.set(name, gate);
  }
  return { registry, settings: { gates, metadata: parsed.metadata } };
}
