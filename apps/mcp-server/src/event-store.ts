import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The most SSE events one session keeps for replay, unless told otherwise. */
export const DEFAULT_MAX_STORED_EVENTS = 1_000;

/** The most bytes of SSE events (their JSON) one session keeps for replay, unless told otherwise. */
export const DEFAULT_MAX_STORED_EVENT_BYTES = 4 * 1024 * 1024;

/** Options of {@link BoundedEventStore}. */
export interface BoundedEventStoreOptions {
  /** Most events kept. Default {@link DEFAULT_MAX_STORED_EVENTS}. */
  maxEvents?: number;
  /** Most bytes kept (the messages' JSON, UTF-8). Default {@link DEFAULT_MAX_STORED_EVENT_BYTES}. */
  maxBytes?: number;
}

interface StoredEvent {
  streamId: StreamId;
  sequence: number;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * How many streams' drop records are kept; a stream beyond them is held to the highest sequence
 * dropped on any forgotten stream (a resume may then be refused, never replayed with a gap).
 */
const MAX_DROP_RECORDS = 1_024;

/** Between a stream id and the event's sequence number in an event id. */
const SEPARATOR = "~";

/**
 * The SSE events of one Streamable HTTP session, kept so a client that lost its stream can
 * reconnect with `Last-Event-ID` and get what it missed (the SDK transport's `eventStore`).
 * Bounded: the oldest events are dropped once the session holds more than `maxEvents` events or
 * `maxBytes` bytes. A resume from an event whose successors on its stream were dropped is refused
 * (the SDK answers 400) rather than replayed with a silent gap.
 *
 * Event ids are `<stream id>~<sequence>`: the sequence grows across the session, so ids are
 * unique and ordered.
 *
 * @example
 * const transport = new StreamableHTTPServerTransport({
 *   sessionIdGenerator: () => randomUUID(),
 *   eventStore: new BoundedEventStore({ maxEvents: 500 }),
 *   retryInterval: 1_000,
 * });
 */
export class BoundedEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  /** The kept events by id, oldest first (a Map keeps insertion order). */
  readonly #events = new Map<EventId, StoredEvent>();
  /** Per stream, the highest sequence number dropped so far (the latest {@link MAX_DROP_RECORDS} streams). */
  readonly #droppedUpTo = new Map<StreamId, number>();
  /** The highest sequence number dropped on a stream whose record was itself forgotten. */
  #forgottenUpTo = 0;
  #bytes = 0;
  #sequence = 0;

  /**
   * @param options - the bounds
   * @throws RangeError when a bound is not a positive integer
   */
  constructor(options: BoundedEventStoreOptions = {}) {
    this.#maxEvents = positive("maxEvents", options.maxEvents ?? DEFAULT_MAX_STORED_EVENTS);
    this.#maxBytes = positive("maxBytes", options.maxBytes ?? DEFAULT_MAX_STORED_EVENT_BYTES);
  }

  /** How many events are kept. */
  get size(): number {
    return this.#events.size;
  }

  /** How many bytes the kept events take. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Keeps one event (dropping the oldest ones beyond the bounds).
   *
   * @param streamId - the stream it is sent on
   * @param message - the message (`{}` for the SDK's priming event)
   * @returns its event id
   */
  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    this.#sequence += 1;
    const sequence = this.#sequence;
    const eventId = `${streamId}${SEPARATOR}${sequence}`;
    const bytes = Buffer.byteLength(JSON.stringify(message), "utf8");
    if (bytes > this.#maxBytes) {
      // Too large to keep at all: a resume from before it must not skip it silently.
      this.#dropped(streamId, sequence);
      return eventId;
    }
    this.#events.set(eventId, { streamId, sequence, message, bytes });
    this.#bytes += bytes;
    while (this.#events.size > this.#maxEvents || this.#bytes > this.#maxBytes) {
      const [oldestId, oldest] = this.#events.entries().next().value as [EventId, StoredEvent];
      this.#events.delete(oldestId);
      this.#bytes -= oldest.bytes;
      this.#dropped(oldest.streamId, oldest.sequence);
    }
    return eventId;
  }

  /**
   * The stream an event id belongs to, when a replay from it would be complete.
   *
   * @param eventId - the client's `Last-Event-ID`
   * @returns the stream id; `undefined` for an id this session never issued, or one whose
   *   successors were dropped
   */
  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const parsed = parseEventId(eventId);
    if (parsed === undefined || parsed.sequence > this.#sequence) return undefined;
    const dropped = this.#droppedUpTo.get(parsed.streamId) ?? this.#forgottenUpTo;
    if (parsed.sequence < dropped) return undefined;
    return parsed.streamId;
  }

  /**
   * Sends every kept event of the event's stream that came after it, in order.
   *
   * @param lastEventId - the client's `Last-Event-ID`
   * @param sink - where the SDK writes them to the new stream
   * @returns the stream id
   * @throws Error for an id {@link getStreamIdForEventId} refuses
   */
  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    const parsed = parseEventId(lastEventId);
    if (streamId === undefined || parsed === undefined) {
      throw new Error(`Cannot resume after event ${lastEventId}: it is unknown or was dropped.`);
    }
    const after = [...this.#events].filter(
      ([, event]) =>
        event.streamId === streamId &&
        event.sequence > parsed.sequence &&
        // The SDK's priming events carry no message: nothing to replay.
        Object.keys(event.message).length > 0,
    );
    for (const [eventId, event] of after) await send(eventId, event.message);
    return streamId;
  }

  #dropped(streamId: StreamId, sequence: number): void {
    // Re-inserted so the map stays ordered by last drop; the oldest record is forgotten first.
    this.#droppedUpTo.delete(streamId);
    this.#droppedUpTo.set(streamId, sequence);
    if (this.#droppedUpTo.size > MAX_DROP_RECORDS) {
      const [oldestStream, upTo] = this.#droppedUpTo.entries().next().value as [StreamId, number];
      this.#droppedUpTo.delete(oldestStream);
      this.#forgottenUpTo = Math.max(this.#forgottenUpTo, upTo);
    }
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`BoundedEventStore: ${name} must be a positive integer, not ${value}.`);
  }
  return value;
}

function parseEventId(eventId: string): { streamId: StreamId; sequence: number } | undefined {
  const at = eventId.lastIndexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const digits = eventId.slice(at + 1);
  if (!/^[1-9]\d{0,15}$/.test(digits)) return undefined;
  return { streamId: eventId.slice(0, at), sequence: Number(digits) };
}
