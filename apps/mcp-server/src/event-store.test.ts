import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { BoundedEventStore } from "./event-store.js";

function note(index: number, padding = ""): JSONRPCMessage {
  return { jsonrpc: "2.0", method: "notifications/message", params: { index, padding } };
}

async function replay(store: BoundedEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(after, {
    send: async (eventId, message) => {
      sent.push([eventId, message]);
    },
  });
  return { streamId, sent };
}

describe("BoundedEventStore", () => {
  it("replays the events of one stream after the given id, in order, skipping priming events", async () => {
    const store = new BoundedEventStore();
    const priming = await store.storeEvent("a", {} as JSONRPCMessage);
    const first = await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(99));
    const second = await store.storeEvent("a", note(2));
    expect(await store.getStreamIdForEventId(priming)).toBe("a");
    const { streamId, sent } = await replay(store, priming);
    expect(streamId).toBe("a");
    expect(sent).toEqual([
      [first, note(1)],
      [second, note(2)],
    ]);
    expect((await replay(store, second)).sent).toEqual([]);
  });

  it("keeps stream ids with the separator in them apart (ids are parsed from the last one)", async () => {
    const store = new BoundedEventStore();
    const id = await store.storeEvent("_GET~stream", note(1));
    expect(await store.getStreamIdForEventId(id)).toBe("_GET~stream");
  });

  it("refuses ids it never issued", async () => {
    const store = new BoundedEventStore();
    await store.storeEvent("a", note(1));
    for (const id of ["", "a", "a~", "a~0", "a~01", "a~2", "~1", "a~99999999999999999"]) {
      expect(await store.getStreamIdForEventId(id), id).toBeUndefined();
    }
    await expect(replay(store, "a~7")).rejects.toThrow("unknown or was dropped");
  });

  it("drops the oldest events beyond the count bound, and refuses a resume that would skip one", async () => {
    const store = new BoundedEventStore({ maxEvents: 3 });
    const ids: string[] = [];
    for (let index = 1; index <= 5; index += 1) ids.push(await store.storeEvent("a", note(index)));
    expect(store.size).toBe(3);
    // After event 1, events 2 was dropped: the replay would have a gap.
    expect(await store.getStreamIdForEventId(ids[0] as string)).toBeUndefined();
    // After event 2 (dropped itself), everything since is kept: 3, 4, 5.
    const fromTwo = await replay(store, ids[1] as string);
    expect(fromTwo.sent.map(([, message]) => message)).toEqual([note(3), note(4), note(5)]);
  });

  it("bounds the bytes it keeps, and never keeps a message larger than the bound", async () => {
    const store = new BoundedEventStore({ maxBytes: 300 });
    const padding = "x".repeat(100);
    const ids: string[] = [];
    for (let index = 1; index <= 5; index += 1) {
      ids.push(await store.storeEvent("a", note(index, padding)));
    }
    expect(store.bytes).toBeLessThanOrEqual(300);
    expect(store.size).toBeLessThan(5);
    const before = await store.storeEvent("b", note(1));
    await store.storeEvent("b", note(2, "y".repeat(1_000)));
    expect(await store.getStreamIdForEventId(before)).toBeUndefined();
    expect(store.bytes).toBeLessThanOrEqual(300);
  });

  it("remembers drops of a bounded number of streams, staying conservative for the rest", async () => {
    const store = new BoundedEventStore({ maxEvents: 1 });
    const first = await store.storeEvent("stream-0", note(0));
    for (let index = 1; index <= 1_100; index += 1)
      await store.storeEvent(`stream-${index}`, note(index));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    expect(store.size).toBe(1);
  });

  it("refuses bounds that are not positive integers", () => {
    expect(() => new BoundedEventStore({ maxEvents: 0 })).toThrow(RangeError);
    expect(() => new BoundedEventStore({ maxBytes: 1.5 })).toThrow(
      "maxBytes must be a positive integer",
    );
  });
});
