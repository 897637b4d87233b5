import { formatCount } from "@agentool/contract";
import { REMEMBERED_ENDINGS } from "./limits.js";
import type { PreviewSession } from "./preview-session.js";

/**
 * The open sessions, one per conversation: idle-out (a busy session waits), a FIFO cap, and the
 * reason each conversation's last session ended (for the next call's message).
 */
export class SessionPool {
  readonly #sessions = new Map<string, PreviewSession>();
  readonly #endings = new Map<string, string>();
  readonly #idleMs: number;

  /** @param idleMs - a session closes after this long without a call */
  constructor(idleMs: number) {
    this.#idleMs = idleMs;
  }

  /** How many sessions are open. */
  get size(): number {
    return this.#sessions.size;
  }

  /**
   * @param thread - a conversation
   * @returns its open session
   */
  get(thread: string): PreviewSession | undefined {
    return this.#sessions.get(thread);
  }

  /**
   * @param thread - a conversation
   * @returns why its last session ended, if it did
   */
  whyEnded(thread: string): string | undefined {
    return this.#endings.get(thread);
  }

  /**
   * Adds a session that was just opened (forgetting why the conversation's last one ended) and
   * starts its idle timer.
   *
   * @param session - the new session
   */
  add(session: PreviewSession): void {
    this.#endings.delete(session.thread);
    this.#sessions.set(session.thread, session);
    this.touch(session);
  }

  /**
   * Ends a session: stops its timer, removes it, remembers why and closes the backend's session.
   *
   * @param session - the session
   * @param why - the reason told to the next call, or `undefined` to tell none
   * @returns when the backend's session is closed (never rejects)
   */
  end(session: PreviewSession, why: string | undefined): Promise<void> {
    if (session.closed) return Promise.resolve();
    session.closed = true;
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    if (this.#sessions.get(session.thread) === session) this.#sessions.delete(session.thread);
    if (why !== undefined) this.#remember(session.thread, why);
    return session.backend.close().catch(() => {});
  }

  /**
   * Restarts a session's idle timer; when it fires while a call is in progress, it starts again.
   *
   * @param session - the session
   */
  touch(session: PreviewSession): void {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => {
      if (session.busy > 0) {
        this.touch(session);
        return;
      }
      void this.end(
        session,
        `the session on ${session.path} closed after ${formatCount(this.#idleMs)} ms without a call`,
      );
    }, this.#idleMs);
    (session.idleTimer as { unref?: () => void }).unref?.();
  }

  /**
   * Closes the oldest sessions until one more fits under the cap.
   *
   * @param maxSessions - the cap
   */
  async makeRoom(maxSessions: number): Promise<void> {
    while (this.#sessions.size >= maxSessions) {
      const oldest = this.#sessions.values().next().value as PreviewSession | undefined;
      if (oldest === undefined) break;
      await this.end(
        oldest,
        `it was closed to make room: at most ${maxSessions} preview sessions stay open and it was the oldest`,
      );
    }
  }

  /**
   * Ends every session.
   *
   * @param why - the reason told to the next call
   */
  async endAll(why: string): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => this.end(session, why)));
  }

  #remember(thread: string, why: string): void {
    this.#endings.delete(thread);
    this.#endings.set(thread, why);
    if (this.#endings.size > REMEMBERED_ENDINGS) {
      const oldest = this.#endings.keys().next().value;
      if (oldest !== undefined) this.#endings.delete(oldest);
    }
  }
}
