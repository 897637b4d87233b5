/**
 * Waits `ms` milliseconds; rejects with the signal's reason when it aborts first. The timer does
 * not keep a Node process alive.
 *
 * @param ms - how long
 * @param signal - stops the wait
 * @returns when the time has passed
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    (timer as { unref?: () => void }).unref?.();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Races a promise with a signal: rejects with the signal's reason once it aborts (the promise's
 * own later rejection is then ignored).
 *
 * @param promise - the work
 * @param signal - the call's signal
 * @returns the work's value
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason ?? new Error("aborted"));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      promise.catch(() => {});
      reject(signal.reason ?? new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/** Options of {@link retryWithBackoff}. */
export interface RetryOptions {
  /** Attempts in all, the first included. Default 2 (one retry). */
  attempts?: number;
  /** Wait before the first retry, ms; doubled before each next one. Default 250. */
  baseDelayMs?: number;
  /** The longest wait between two attempts, ms. Default 5,000. */
  maxDelayMs?: number;
  /** Whether a failure is worth another attempt. Default: every failure is. */
  retryable?: (error: unknown) => boolean;
  /** Stops the retries (and the wait between them). */
  signal?: AbortSignal;
}

/**
 * Runs `work` and, when it throws a retryable error, runs it again after a doubling delay.
 *
 * @param work - the attempt (given its attempt number, from 1)
 * @param options - attempts, delays, which errors are retried, a signal
 * @returns the first attempt's value that succeeds
 * @example
 * const vectors = await retryWithBackoff(() => embedder.embed(texts), { attempts: 2 });
 */
export async function retryWithBackoff<T>(
  work: (attempt: number) => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? 2);
  let delay = options.baseDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5_000;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work(attempt);
    } catch (error) {
      const last = attempt >= attempts || options.signal?.aborted === true;
      if (last || (options.retryable !== undefined && !options.retryable(error))) throw error;
      await sleep(Math.min(delay, maxDelay), options.signal);
      delay *= 2;
    }
  }
}
