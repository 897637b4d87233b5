/**
 * One shared timer for every call's deadline, instead of a `setTimeout` per call.
 *
 * Creating and clearing a Node timer per tool call costs microseconds once an agent process has
 * other timers; a deadline here costs a `Set` insert and delete. The single timer is armed for
 * the earliest deadline; it keeps the process alive only while a deadline is pending (it is
 * `unref`'d when none is), exactly like a per-call timer would. Runtimes whose timers cannot be
 * unref'd get the timer cleared as soon as nothing is pending.
 *
 * @internal
 */
export interface Deadline {
  /** When it fires (milliseconds since the epoch). */
  readonly at: number;
  /** What to do then. */
  readonly fire: () => void;
}

type TimerHandle = ReturnType<typeof setTimeout> & { ref?: () => unknown; unref?: () => unknown };

const pending = new Set<Deadline>();
let timer: TimerHandle | undefined;
let timerAt = Number.POSITIVE_INFINITY;

function arm(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(onTimer, Math.max(0, at - Date.now())) as TimerHandle;
}

function onTimer(): void {
  timer = undefined;
  timerAt = Number.POSITIVE_INFINITY;
  const now = Date.now();
  let next = Number.POSITIVE_INFINITY;
  for (const deadline of pending) {
    if (deadline.at <= now) {
      pending.delete(deadline);
      try {
        deadline.fire();
      } catch {
        // A deadline callback must not stop the others.
      }
    } else if (deadline.at < next) {
      next = deadline.at;
    }
  }
  if (next !== Number.POSITIVE_INFINITY) arm(next);
}

/**
 * Calls `fire` after `milliseconds` unless cancelled first.
 *
 * @internal
 */
export function scheduleDeadline(milliseconds: number, fire: () => void): Deadline {
  const deadline: Deadline = { at: Date.now() + milliseconds, fire };
  pending.add(deadline);
  if (deadline.at < timerAt) arm(deadline.at);
  else if (pending.size === 1) timer?.ref?.();
  return deadline;
}

/**
 * Cancels a deadline (a no-op when it has fired already).
 *
 * @internal
 */
export function cancelDeadline(deadline: Deadline): void {
  if (!pending.delete(deadline) || pending.size > 0 || timer === undefined) return;
  if (typeof timer.unref === "function") {
    timer.unref();
  } else {
    clearTimeout(timer);
    timer = undefined;
    timerAt = Number.POSITIVE_INFINITY;
  }
}

/**
 * How many deadlines are pending (for tests).
 *
 * @internal
 */
export function pendingDeadlineCount(): number {
  return pending.size;
}
