import { z } from "zod";
import { type InteractionHandler, isInteractionHandler } from "../interaction-handler.js";

/**
 * The `handler` option every factory requires: an object with an `ask` function.
 *
 * @internal
 */
export const handlerOptionSchema = z.custom<InteractionHandler>(isInteractionHandler, {
  error:
    "expected a handler { ask(question, context), notify?(notification, context) } — e.g. createTerminalHandler() from @agentool/tools-interact/node or createInterruptHandler() from @agentool/adapters/langchain; there is no default",
});

/**
 * The `timeoutMs` option of the waiting tools: `0` (wait without limit) up to 24 hours.
 *
 * @internal
 */
export const waitTimeoutOptionSchema = z.number().int().min(0).max(86_400_000).optional();

/**
 * The `maxTimeoutMs` option of the waiting tools: the longest wait a call's `timeout_seconds`
 * may ask for (`0` = no limit).
 *
 * @internal
 */
export const maxWaitTimeoutOptionSchema = z.number().int().min(0).max(86_400_000).optional();
