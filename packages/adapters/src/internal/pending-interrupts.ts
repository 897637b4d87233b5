/**
 * Carries a LangGraph interrupt past the tool's `run`, which never throws: the interrupt
 * handler records the `GraphInterrupt` it caught, and the LangChain wrapper rethrows it once
 * `run` has resolved, so the graph pauses. Keyed by the LangGraph task's scratchpad (one per
 * task, shared by every config of that task) and the tool call id.
 */
const SCRATCHPAD_KEY = "__pregel_scratchpad";

const pending = new WeakMap<object, Map<string, unknown>>();

function scratchpadOf(config: unknown): object | undefined {
  const configurable = (config as { configurable?: Record<string, unknown> } | undefined)
    ?.configurable;
  const scratchpad = configurable?.[SCRATCHPAD_KEY];
  return typeof scratchpad === "object" && scratchpad !== null ? scratchpad : undefined;
}

/**
 * Remembers an interrupt raised during a tool call.
 *
 * @internal
 */
export function recordInterrupt(
  config: unknown,
  toolCallId: string | undefined,
  error: unknown,
): void {
  const scratchpad = scratchpadOf(config);
  if (scratchpad === undefined) return;
  let calls = pending.get(scratchpad);
  if (calls === undefined) {
    calls = new Map();
    pending.set(scratchpad, calls);
  }
  calls.set(toolCallId ?? "", error);
}

/**
 * Takes (and forgets) the interrupt raised during a tool call, if there was one.
 *
 * @internal
 */
export function takeInterrupt(config: unknown, toolCallId: string | undefined): unknown {
  const scratchpad = scratchpadOf(config);
  if (scratchpad === undefined) return undefined;
  const calls = pending.get(scratchpad);
  const key = toolCallId ?? "";
  if (calls === undefined || !calls.has(key)) return undefined;
  const error = calls.get(key);
  calls.delete(key);
  if (calls.size === 0) pending.delete(scratchpad);
  return error;
}
