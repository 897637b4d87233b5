import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { ASK_USER_TOOL_NAME, type AskUserToolOptions, createAskUserTool } from "./ask-user.js";
import { CONFIRM_TOOL_NAME, type ConfirmToolOptions, createConfirmTool } from "./confirm.js";
import type { InteractionHandler } from "./interaction-handler.js";
import {
  handlerOptionSchema,
  maxWaitTimeoutOptionSchema,
  waitTimeoutOptionSchema,
} from "./internal/handler-option.js";
import { createNotifyTool, NOTIFY_TOOL_NAME, type NotifyToolOptions } from "./notify.js";

/** Options of {@link createInteractTools}. */
export interface InteractToolsOptions {
  /** The host's handler, shared by every tool. Required; there is no default. */
  handler: InteractionHandler;
  /** How long `ask_user` and `confirm` wait for an answer when a call sends no `timeout_seconds` (each tool's own option wins). Default 10 minutes. */
  timeoutMs?: number;
  /** The longest wait a call's `timeout_seconds` may ask for, shared by `ask_user` and `confirm` (each tool's own option wins). Default: the tool's `timeoutMs`. */
  maxTimeoutMs?: number;
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
  maxTimeoutMs: maxWaitTimeoutOptionSchema,
  askUser: tuning,
  confirm: tuning,
  notify: tuning,
});

/**
 * Creates the human-in-the-loop tools over one handler: `ask_user`, `confirm`, and `notify` when
 * the handler has a `notify` function. Each default description names only the tools mounted
 * here (the `mountedTools` of `askUser` / `notify` add names mounted elsewhere).
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
  const shared = {
    ...(parsed.timeoutMs === undefined ? {} : { timeoutMs: parsed.timeoutMs }),
    ...(parsed.maxTimeoutMs === undefined ? {} : { maxTimeoutMs: parsed.maxTimeoutMs }),
  };
  const notifies = typeof handler.notify === "function";
  const mountedTools = [
    options.askUser?.name ?? ASK_USER_TOOL_NAME,
    options.confirm?.name ?? CONFIRM_TOOL_NAME,
    ...(notifies ? [options.notify?.name ?? NOTIFY_TOOL_NAME] : []),
  ];
  const mounted = (own: readonly string[] | undefined) => [
    ...new Set([...mountedTools, ...(own ?? [])]),
  ];
  const tools: AnyTool[] = [
    createAskUserTool({
      ...shared,
      ...options.askUser,
      mountedTools: mounted(options.askUser?.mountedTools),
      handler,
    }),
    createConfirmTool({
      ...shared,
      ...options.confirm,
      mountedTools: mounted(options.confirm?.mountedTools),
      handler,
    }),
  ];
  if (notifies) {
    tools.push(
      createNotifyTool({
        ...options.notify,
        mountedTools: mounted(options.notify?.mountedTools),
        handler,
      }),
    );
  }
  return tools;
}
