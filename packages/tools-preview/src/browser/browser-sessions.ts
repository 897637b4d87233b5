import { fail, type ToolResult } from "@agentool/contract";
import type { SharedBrowserLease } from "../node/shared-browser.js";
import type { BrowserToolData } from "./browser-data.js";
import { BrowserSession, type BrowserSessionSettings } from "./browser-session.js";

/** The sessions' limits and what each starts with. */
export interface BrowserSessionsSettings {
  maxSessions: number;
  idleMs: number;
  session: BrowserSessionSettings;
}

interface Entry {
  session: BrowserSession;
  /** The calls of this conversation, one after the other. */
  queue: Promise<unknown>;
}

/**
 * One browser session per conversation (thread): started by its first navigation, its calls run
 * one after the other, closed after `idleMs` without a call, the least recently used closed when
 * a new one would pass `maxSessions`.
 */
export class BrowserSessions {
  readonly #entries = new Map<string, Entry>();
  readonly #lease: SharedBrowserLease;
  readonly #settings: BrowserSessionsSettings;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #disposed = false;

  /**
   * @param lease - the shared browser
   * @param settings - limits and session settings
   */
  constructor(lease: SharedBrowserLease, settings: BrowserSessionsSettings) {
    this.#lease = lease;
    this.#settings = settings;
  }

  /** Sessions open now. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Runs one call on the conversation's session (started when `start` and there is none), after
   * its earlier calls; the session's events since its last answer join a successful answer.
   *
   * @param thread - the conversation
   * @param start - whether this call may start a session (a navigation)
   * @param work - the op
   * @returns its answer
   */
  async run(
    thread: string,
    start: boolean,
    work: (session: BrowserSession) => Promise<ToolResult<BrowserToolData>>,
  ): Promise<ToolResult<BrowserToolData>> {
    if (this.#disposed)
      return fail("NOT_CONFIGURED", "The browser tool was disposed.", {
        hint: "The host must create it again.",
      });
    await this.#sweep();
    let entry = this.#entries.get(thread);
    if (entry === undefined) {
      if (!start)
        return fail("INVALID_INPUT", "No browser session is open in this conversation.", {
          hint: 'Start one with { op: "navigate", url: "https://…" }.',
        });
      await this.#makeRoom();
      const session = new BrowserSession(this.#settings.session);
      entry = { session, queue: Promise.resolve() };
      this.#entries.set(thread, entry);
      try {
        await session.start(await this.#lease.browser());
      } catch (error) {
        this.#entries.delete(thread);
        await session.close();
        throw error;
      }
      this.#startSweeper();
    }
    const { session } = entry;
    const result = entry.queue.then(async () => {
      session.beginCall();
      try {
        return await work(session);
      } catch (error) {
        if ((error as { name?: unknown } | null)?.name !== "TimeoutError") throw error;
        // The page did not answer in time — usually a script that never yields: stop it, so the
        // session stays usable, and say so.
        await session.stopScripts();
        return fail(
          "TIMEOUT",
          `The page did not answer in time (${String((error as Error).message).split("\n")[0]}); any script still running on it was stopped.`,
          {
            hint: "Take a snapshot to see where it is, or navigate elsewhere; a page that loops at load stays stopped.",
            retryable: true,
          },
        );
      }
    });
    entry.queue = result.catch(() => {});
    const answer = await result;
    session.lastUsed = Date.now();
    if (!answer.success) return answer;
    const { events, omitted } = session.events.take();
    return { ...answer, data: { ...answer.data, events, events_omitted: omitted } };
  }

  /**
   * Closes a conversation's session.
   *
   * @param thread - the conversation
   * @returns whether there was one
   */
  async close(thread: string): Promise<boolean> {
    const entry = this.#entries.get(thread);
    if (entry === undefined) return false;
    this.#entries.delete(thread);
    await entry.session.close();
    return true;
  }

  /** Closes every session and gives the browser back. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    await Promise.all([...this.#entries.values()].map((entry) => entry.session.close()));
    this.#entries.clear();
    await this.#lease.release();
  }

  async #makeRoom(): Promise<void> {
    while (this.#entries.size >= this.#settings.maxSessions) {
      let oldest: [string, Entry] | undefined;
      for (const item of this.#entries)
        if (oldest === undefined || item[1].session.lastUsed < oldest[1].session.lastUsed)
          oldest = item;
      if (oldest === undefined) return;
      await this.close(oldest[0]);
    }
  }

  async #sweep(): Promise<void> {
    const now = Date.now();
    for (const [thread, entry] of [...this.#entries])
      if (now - entry.session.lastUsed > this.#settings.idleMs) await this.close(thread);
  }

  #startSweeper(): void {
    if (this.#sweeper !== undefined) return;
    this.#sweeper = setInterval(() => void this.#sweep(), Math.min(this.#settings.idleMs, 30_000));
    this.#sweeper.unref?.();
  }
}
