/** Most events kept between two calls (the rest counted). */
export const MAX_BROWSER_EVENTS = 30;

/** Longest event text kept. */
const MAX_EVENT_CHARACTERS = 300;

/** One thing that happened in the session since the last call. */
export interface BrowserEvent {
  /** `blocked` (a refused request), `dialog`, `popup`, `download`, `error` (an uncaught page error), `crash`. */
  kind: string;
  /** What happened. */
  text: string;
  /** How many times in a row. */
  count: number;
}

/** The events of one session since the last call: consecutive repeats collapsed, capped. */
export class BrowserEvents {
  #events: BrowserEvent[] = [];
  #omitted = 0;

  /**
   * Records one event.
   *
   * @param kind - its kind
   * @param text - what happened
   */
  record(kind: string, text: string): void {
    const clipped =
      text.length > MAX_EVENT_CHARACTERS ? `${text.slice(0, MAX_EVENT_CHARACTERS)}…` : text;
    const last = this.#events[this.#events.length - 1];
    if (last !== undefined && last.kind === kind && last.text === clipped) last.count += 1;
    else if (this.#events.length < MAX_BROWSER_EVENTS)
      this.#events.push({ kind, text: clipped, count: 1 });
    else this.#omitted += 1;
  }

  /** The events since the last call, and how many were left out; the log starts again. */
  take(): { events: BrowserEvent[]; omitted: number } {
    const taken = { events: this.#events, omitted: this.#omitted };
    this.#events = [];
    this.#omitted = 0;
    return taken;
  }
}
