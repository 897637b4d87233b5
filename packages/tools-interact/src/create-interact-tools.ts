import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { type AskUserToolOptions, createAskUserTool } from "./ask-user.js";
import { type ConfirmToolOptions, createConfirmTool } from "./confirm.js";
import type { InteractionHandler } from "./interaction-handler.js";
import { handlerOptionSchema, waitTimeoutOptionSchema } from "./internal/handler-option.js";
import { createNotifyTool, type NotifyToolOptions } from "./notify.js";

/** Options of {@link createInteractTools}. */
export interface InteractToolsOptions {
  /** The host's handler, shared by every tool. Required; there is no default. */
  handler: InteractionHandler;
  /** How long `ask_user` and `confirm` wait for an answer (each tool's own option wins). Default 10 minutes. */
  timeoutMs?: number;
  /** Options of `ask_user` ({@link createAskUserTool}), without `handler`. */
  askUser?: Omit<AskUserToolOptions, "handler">;
  /** Options of `confirm` ({@link createConfirmTool}), without `handler`. */
  confirm?: Omit<ConfirmToolOptions, "handler">;
  /** Options of `notify` ({@link createNotifyTool}), without `handler`. */
  notify?: Omit<NotifyToolOptions, "handler">;
}

const tuning = z.record(z.string(), z.unknown()).optional();

const interactToolsOptionsSchema = z.object({
  handler: handlerOptionSchema,
  timeoutMs: waitTimeoutOptionSchema,
  askUser: tuning,
  confirm: tuning,
  notify: tuning,
});

/**
 * Creates the human-in-the-loop tools over one handler: `ask_user`, `confirm`, and `notify` when
 * the handler has a `notify` function.
 *
 * @param options - the handler (required), a shared timeout and per-tool options
 * @returns the tools: `ask_user`, `confirm`, then `notify` (if the handler can notify)
 * @throws AgentoolError for a missing handler or invalid options
 * @example
 * import { toLangChainTools, createInterruptHandler } from "@agentool/adapters/langchain";
 * const tools = createInteractTools({ handler: createInterruptHandler() });
 * const agent = createAgent({ model, tools: toLangChainTools(tools), checkpointer: new MemorySaver() });
 */
export function createInteractTools(options: InteractToolsOptions): AnyTool[] {
  const parsed = parseOptions("createInteractTools", interactToolsOptionsSchema, options);
  const handler = parsed.handler;
  const shared = parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs };
  const tools: AnyTool[] = [
    createAskUserTool({ ...shared, ...options.askUser, handler }),
    createConfirmTool({ ...shared, ...options.confirm, handler }),
  ];
  if (typeof handler.notify === "function") {
    tools.push(createNotifyTool({ ...options.notify, handler }));
  }
  return tools;
}
