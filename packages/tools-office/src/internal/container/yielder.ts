/**
 * Cooperative yielding for long parses: work in slices, and hand the event loop back whenever a
 * slice has run longer than its budget, so no document blocks other work for more than that
 * (the design's ceiling is 250 ms; the default slice is 20 ms). Also the one place a parse checks
 * its caller's abort signal.
 *
 * @internal
 */

/** Milliseconds of parsing between two yields to the event loop. */
export const DEFAULT_SLICE_MS = 20;

/** A clock that tells a parse when to yield. */
export interface Yielder {
  /** Yields to the event loop when the slice's budget is spent; throws when the signal aborted. */
  tick(): Promise<void>;
  /** True when the current slice's budget is spent (a synchronous loop should `await tick()`). */
  due(): boolean;
}

function macrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Creates a yielder.
 *
 * @param signal - aborts the parse (the tool's timeout or the caller's signal)
 * @param sliceMs - budget of one slice in milliseconds
 * @returns the yielder
 */
export function createYielder(signal?: AbortSignal, sliceMs: number = DEFAULT_SLICE_MS): Yielder {
  let sliceStart = performance.now();
  return {
    due: () => performance.now() - sliceStart > sliceMs,
    tick: async () => {
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      if (performance.now() - sliceStart <= sliceMs) return;
      await macrotask();
      if (signal?.aborted) throw signal.reason ?? new Error("aborted");
      sliceStart = performance.now();
    },
  };
}

/** A yielder that never yields (for callers that have none). */
export const NEVER_YIELD: Yielder = { due: () => false, tick: async () => {} };
