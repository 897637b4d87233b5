import { resolve } from "node:path";
import { toLangChainTools } from "@agentool/adapters/langchain";
import { type AnyTool, errorMessage } from "@agentool/contract";
import type { PlanStep } from "@agentool/tools-core";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { type AgentMiddleware, createAgent } from "langchain";
import type { DemoContext, DemoFamily } from "./families/demo-family.js";
import { DEMO_FAMILIES } from "./families/index.js";
import { DEFAULT_DEMO_MEMORY_DIRECTORY } from "./families/memory.js";
import { buildScript, createScriptedModel } from "./scripted-model.js";
import type { DemoSummary, TranscriptEvent } from "./transcript.js";
import { createTemporaryWorkspace } from "./workspace.js";

/** The task the agent is given. */
export const DEMO_TASK =
  "Tally's todo list (notes/todo.md) has four open items: the README and src/app.ts disagree " +
  "on the default port (8080 vs 3000), GET /count does not send a JSON content type, " +
  "POST /reset is missing, and the daily report shows shares over 100%. Plan the work, decide " +
  "what to fix first and why, and report back.";

/** The system prompt of the demo agent. */
export const DEMO_SYSTEM_PROMPT = [
  "You are a careful coding assistant working in a small project workspace.",
  "For work with several steps, publish a plan with update_plan first and keep it current:",
  "send the complete plan each time, with exactly one step in progress.",
  "Use think before anything hard to undo, when instructions conflict, or when a result surprises you.",
  "Finish with a short answer for the user.",
].join("\n");

/** Options of {@link runDemo}. */
export interface RunDemoOptions {
  /** A real chat model to drive the tools; without it the run is scripted (deterministic). */
  model?: BaseChatModel;
  /** The model's name for the transcript. Default: `"scripted"`, or the model's own name. */
  modelName?: string;
  /** The families to run. Default: every family in `src/families/index.ts`. */
  families?: readonly DemoFamily[];
  /** The user's request. Default {@link DEMO_TASK}. */
  task?: string;
  /** Receives each event as it happens (e.g. to print it live). Errors it throws stop the run. */
  onEvent?: (event: TranscriptEvent) => void;
  /** The conversation id passed to tools. Default `"demo"`. */
  threadId?: string;
  /**
   * The folder of the memory family's file store, kept after the run (a second run recalls what
   * the first saved). Default {@link DEFAULT_DEMO_MEMORY_DIRECTORY} (`apps/demo/.memory`).
   */
  memoryDirectory?: string;
  /**
   * Most graph steps before LangGraph stops the run (two per model turn: the model, then its
   * tools). Default 200: the scripted run takes 55 turns, a live model may take more.
   */
  recursionLimit?: number;
  /** Cancels the run. */
  signal?: AbortSignal;
}

/** The outcome of {@link runDemo}. */
export interface DemoRun {
  /** Everything that happened, in order. */
  events: TranscriptEvent[];
  /** Totals. */
  summary: DemoSummary;
}

interface Envelope {
  success: boolean;
  data?: unknown;
  error?: { code?: unknown };
}

function isEnvelope(value: unknown): value is Envelope {
  return (
    typeof value === "object" && value !== null && typeof (value as Envelope).success === "boolean"
  );
}

function isPlan(value: unknown): value is PlanStep[] {
  return (
    Array.isArray(value) &&
    value.every(
      (item) =>
        typeof item === "object" &&
        item !== null &&
        typeof (item as PlanStep).step === "string" &&
        typeof (item as PlanStep).status === "string",
    )
  );
}

function planOf(envelope: Envelope | undefined): PlanStep[] | undefined {
  if (envelope?.success !== true) return undefined;
  const data = envelope.data;
  if (typeof data !== "object" || data === null) return undefined;
  const plan = (data as { plan?: unknown }).plan;
  return isPlan(plan) ? plan : undefined;
}

/** Turns new agent-state messages into transcript events. */
function eventsFromMessage(
  message: BaseMessage,
  toolNames: Map<string, string>,
): TranscriptEvent[] {
  if (HumanMessage.isInstance(message)) return [{ type: "user", text: message.text }];
  if (AIMessage.isInstance(message)) {
    const toolCalls = message.tool_calls ?? [];
    const text = message.text.trim();
    if (toolCalls.length === 0) return [{ type: "final", text }];
    const events: TranscriptEvent[] = [];
    if (text.length > 0) events.push({ type: "assistant", text });
    for (const call of toolCalls) {
      const toolCallId = call.id ?? "";
      toolNames.set(toolCallId, call.name);
      events.push({ type: "tool_call", toolCallId, name: call.name, arguments: call.args });
    }
    return events;
  }
  if (ToolMessage.isInstance(message)) {
    const envelope = isEnvelope(message.artifact) ? message.artifact : undefined;
    const success = message.status !== "error" && envelope?.success !== false;
    const name = message.name ?? toolNames.get(message.tool_call_id) ?? "(unknown tool)";
    const event: TranscriptEvent = {
      type: "tool_result",
      toolCallId: message.tool_call_id,
      name,
      success,
      content: message.text,
    };
    const code = envelope?.error?.code;
    if (!success) event.errorCode = typeof code === "string" ? code : "ERROR";
    const plan = planOf(envelope);
    if (plan !== undefined) event.plan = plan;
    return [event];
  }
  return [];
}

/**
 * Runs the demo agent (`createAgent` from `langchain` with the families' tools wrapped by
 * `toLangChainTools`) over a temporary copy of the sample workspace, and returns everything
 * that happened. Scripted by default; pass `model` to drive the same tools with a real model.
 * Never throws for an agent failure: it ends the transcript with a `failure` event instead.
 * The temporary workspace is deleted before it returns.
 *
 * @param options - the model, families, task and an `onEvent` listener
 * @returns the events and a summary
 * @example
 * const run = await runDemo({ onEvent: (event) => console.log(formatEvent(event)) });
 * console.log(formatSummary(run.summary));
 */
export async function runDemo(options: RunDemoOptions = {}): Promise<DemoRun> {
  const started = performance.now();
  const families = options.families ?? DEMO_FAMILIES;
  const threadId = options.threadId ?? "demo";
  const mode = options.model === undefined ? "scripted" : "live";
  const model = options.model ?? createScriptedModel(buildScript(families));
  const modelName =
    options.modelName ?? (options.model === undefined ? "scripted" : options.model.getName());
  const events: TranscriptEvent[] = [];
  const emit = (event: TranscriptEvent) => {
    events.push(event);
    options.onEvent?.(event);
  };

  const workspace = await createTemporaryWorkspace();
  const cleanups: Array<() => void | Promise<void>> = [];
  const middleware: AgentMiddleware[] = [];
  const context: DemoContext = {
    workspaceRoot: workspace.root,
    savedPlans: new Map(),
    memoryDirectory: resolve(options.memoryDirectory ?? DEFAULT_DEMO_MEMORY_DIRECTORY),
    onCleanup: (cleanup) => {
      cleanups.push(cleanup);
    },
    addMiddleware: (item) => {
      middleware.push(item);
    },
  };
  let failure: string | undefined;
  let modelTurns = 0;
  try {
    for (const family of families) await family.prepareWorkspace?.(workspace.root);
    const tools: AnyTool[] = [];
    for (const family of families) tools.push(...(await family.createTools(context)));
    emit({
      type: "start",
      mode,
      model: modelName,
      workspaceRoot: workspace.root,
      tools: tools.map((tool) => tool.name),
    });
    const agent = createAgent({
      model,
      // The host's decision on destructive tools: the agent works in a throwaway temporary
      // workspace, so writes and deletes run without asking (a real host passes `approve`).
      tools: toLangChainTools(tools, { allowDestructive: true }),
      systemPrompt: DEMO_SYSTEM_PROMPT,
      middleware,
    });
    const toolNames = new Map<string, string>();
    // Messages already reported. Not an index: the messages reducer replaces a message that
    // reuses an earlier id (some OpenAI-compatible servers reuse ids), so scan them all.
    const seen = new WeakSet<BaseMessage>();
    try {
      const stream = await agent.stream(
        { messages: [new HumanMessage(options.task ?? DEMO_TASK)] },
        {
          streamMode: "values",
          recursionLimit: options.recursionLimit ?? 200,
          configurable: { thread_id: threadId },
          signal: options.signal,
        },
      );
      for await (const state of stream) {
        const messages = (state as { messages?: BaseMessage[] }).messages ?? [];
        for (const message of messages) {
          if (seen.has(message)) continue;
          seen.add(message);
          if (AIMessage.isInstance(message)) modelTurns += 1;
          for (const event of eventsFromMessage(message, toolNames)) emit(event);
        }
      }
    } catch (error) {
      failure = errorMessage(error);
      emit({ type: "failure", message: failure });
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
    await workspace.cleanup();
  }

  const toolCallsByName: Record<string, number> = {};
  let toolCalls = 0;
  let toolErrors = 0;
  let finalAnswer: string | undefined;
  for (const event of events) {
    if (event.type === "tool_call") {
      toolCalls += 1;
      toolCallsByName[event.name] = (toolCallsByName[event.name] ?? 0) + 1;
    }
    if (event.type === "tool_result" && !event.success) toolErrors += 1;
    if (event.type === "final") finalAnswer = event.text;
  }
  return {
    events,
    summary: {
      mode,
      model: modelName,
      toolCalls,
      toolCallsByName,
      toolErrors,
      modelTurns,
      durationMs: performance.now() - started,
      finalAnswer,
      finalPlan: context.savedPlans.get(threadId),
      failure,
    },
  };
}
