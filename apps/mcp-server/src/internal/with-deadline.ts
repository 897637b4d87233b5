/**
 * Settles when `promise` does or after `milliseconds`, whichever comes first (the timer does not
 * keep the process alive).
 *
 * @param promise - the work waited for
 * @param milliseconds - the longest wait
 * @returns when the work is done or the time is up
 */
export function withDeadline(promise: Promise<unknown>, milliseconds: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, milliseconds);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}
