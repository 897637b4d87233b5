/**
 * One real `abort` listener per caller signal, shared by every call that uses the signal.
 *
 * Adding and removing an `abort` listener on an `AbortSignal` per tool call costs microseconds in
 * Node; agents usually pass the same signal (one per agent run) to many calls. Here a call adds
 * its callback to a `Set`; the signal carries one listener that calls them all.
 *
 * @internal
 */
const callbacksBySignal = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `callback` once when `signal` aborts. Returns a function that unsubscribes.
 *
 * @internal
 */
export function subscribeToAbort(signal: AbortSignal, callback: () => void): () => void {
  let callbacks = callbacksBySignal.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    callbacksBySignal.set(signal, created);
    signal.addEventListener(
      "abort",
      () => {
        const waiting = [...created];
        created.clear();
        for (const waiter of waiting) {
          try {
            waiter();
          } catch {
            // One broken callback must not stop the others.
          }
        }
      },
      { once: true },
    );
  }
  const set = callbacks;
  set.add(callback);
  return () => {
    set.delete(callback);
  };
}
