/**
 * Waits for a promise at most `ms`; never rejects (a failure or the time limit gives `undefined`).
 * The timer does not keep the process alive.
 *
 * @param promise - the work
 * @param ms - the longest wait
 * @returns the work's value, or `undefined`
 */
export function settle<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  return Promise.race([
    promise.catch(() => undefined),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms).unref?.()),
  ]);
}
