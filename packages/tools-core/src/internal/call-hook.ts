/**
 * Calls a host hook so that nothing it does can break the tool call: a synchronous throw is
 * swallowed, and a returned promise is neither awaited nor allowed to become an unhandled
 * rejection.
 *
 * @internal
 */
export function callHookSafely(hook: () => unknown): void {
  try {
    const returned = hook();
    if (isThenable(returned)) {
      Promise.resolve(returned).catch(() => {
        // A failing host hook must not break the tool call.
      });
    }
  } catch {
    // A throwing host hook must not break the tool call.
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === "object" || typeof value === "function") &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

/**
 * A zod-checkable test for "is a function", used for hook options.
 *
 * @internal
 */
export function isFunction(value: unknown): boolean {
  return typeof value === "function";
}
