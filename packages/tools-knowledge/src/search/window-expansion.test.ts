import { describe, expect, it } from "vitest";
import {
  DEFAULT_MAX_PASSAGE_CHARACTERS,
  expandWindows,
  type WindowChunk,
  type WindowFetch,
} from "./window-expansion.js";

interface TestChunk extends WindowChunk {
  label: string;
}

/** A document of `count` chunks, each two lines long with a blank line between chunks. */
function document(
  key: string,
  count: number,
  text = (index: number) => `${key} chunk ${index}`,
): TestChunk[] {
  return Array.from({ length: count }, (_, index) => ({
    document_key: key,
    chunk_index: index,
    start_line: 1 + index * 3,
    end_line: 2 + index * 3,
    heading_trail: [`Section ${index}`],
    text: text(index),
    label: `${key}#${index}`,
  }));
}

function fetcher(chunks: readonly TestChunk[]) {
  const calls: Array<{ key: string; from: number; to: number }> = [];
  const fetch: WindowFetch<TestChunk> = (key, from, to) => {
    calls.push({ key, from, to });
    return chunks.filter(
      (chunk) => chunk.document_key === key && chunk.chunk_index >= from && chunk.chunk_index <= to,
    );
  };
  return { fetch, calls };
}

describe("expandWindows", () => {
  it("widens a hit by its neighbours with one range fetch and stitches them in order", async () => {
    const chunks = document("a.md", 10);
    const { fetch, calls } = fetcher(chunks);
    const passages = await expandWindows([{ chunk: chunks[5] as TestChunk, score: 0.9 }], {
      window: 2,
      fetch,
    });
    expect(calls).toEqual([{ key: "a.md", from: 3, to: 7 }]);
    expect(passages).toHaveLength(1);
    const [passage] = passages;
    expect(passage).toMatchObject({
      document_key: "a.md",
      first_chunk_index: 3,
      last_chunk_index: 7,
      start_line: 10,
      end_line: 23,
      heading_trail: ["Section 5"],
      score: 0.9,
      hit_chunk_indexes: [5],
      truncated: false,
    });
    expect(passage?.text).toBe(
      ["a.md chunk 3", "a.md chunk 4", "a.md chunk 5", "a.md chunk 6", "a.md chunk 7"].join("\n\n"),
    );
    expect(passage?.chunks.map((chunk) => chunk.label)).toEqual([
      "a.md#3",
      "a.md#4",
      "a.md#5",
      "a.md#6",
      "a.md#7",
    ]);
  });

  it("clamps windows at the document's start and merges overlapping windows into one passage scored by its best hit", async () => {
    const chunks = document("a.md", 20);
    const { fetch, calls } = fetcher(chunks);
    const passages = await expandWindows(
      [
        { chunk: chunks[1] as TestChunk, score: 0.4 },
        { chunk: chunks[4] as TestChunk, score: 0.8 },
        { chunk: chunks[15] as TestChunk, score: 0.6 },
      ],
      { window: 2, fetch },
    );
    // [0..3] and [2..6] overlap → one range; [13..17] separate.
    expect(calls).toEqual([
      { key: "a.md", from: 0, to: 6 },
      { key: "a.md", from: 13, to: 17 },
    ]);
    expect(
      passages.map((passage) => [
        passage.first_chunk_index,
        passage.last_chunk_index,
        passage.score,
      ]),
    ).toEqual([
      [0, 6, 0.8],
      [13, 17, 0.6],
    ]);
    expect(passages[0]?.hit_chunk_indexes).toEqual([4, 1]);
    expect(passages[0]?.heading_trail).toEqual(["Section 4"]);
  });

  it("merges touching windows (consecutive indexes are adjacent text) and keeps documents apart", async () => {
    const a = document("a.md", 10);
    const b = document("b.md", 10);
    const { fetch, calls } = fetcher([...a, ...b]);
    const passages = await expandWindows(
      [
        { chunk: a[2] as TestChunk, score: 0.5 },
        { chunk: a[5] as TestChunk, score: 0.7 },
        { chunk: b[2] as TestChunk, score: 0.7 },
      ],
      { window: 1, fetch },
    );
    // a: [1..3] and [4..6] touch → one range [1..6]
    expect(calls).toEqual([
      { key: "a.md", from: 1, to: 6 },
      { key: "b.md", from: 1, to: 3 },
    ]);
    // ties on score are ordered by document key
    expect(
      passages.map(
        (passage) =>
          `${passage.document_key}:${passage.first_chunk_index}-${passage.last_chunk_index}`,
      ),
    ).toEqual(["a.md:1-6", "b.md:1-3"]);
  });

  it("splits a window where a chunk is missing, keeping only the runs that hold a hit", async () => {
    const chunks = document("a.md", 10).filter((chunk) => chunk.chunk_index !== 4);
    const { fetch } = fetcher(chunks);
    const passages = await expandWindows(
      [{ chunk: chunks.find((chunk) => chunk.chunk_index === 5) as TestChunk, score: 1 }],
      {
        window: 2,
        fetch,
      },
    );
    expect(
      passages.map((passage) => [passage.first_chunk_index, passage.last_chunk_index]),
    ).toEqual([[5, 7]]);
  });

  it("coerces string chunk indexes with Number() — a window of [5941, 59412] would swallow the document", async () => {
    const chunks = document("big.md", 6000);
    const stringly = chunks.map((chunk) => ({
      ...chunk,
      chunk_index: String(chunk.chunk_index) as unknown as number,
    }));
    const { fetch, calls } = fetcher(chunks);
    const passages = await expandWindows([{ chunk: stringly[5941] as TestChunk, score: 1 }], {
      window: 2,
      fetch,
    });
    expect(calls).toEqual([{ key: "big.md", from: 5939, to: 5943 }]);
    expect(passages[0]?.chunks).toHaveLength(5);
    expect(passages[0]?.first_chunk_index).toBe(5939);
  });

  it("ignores chunks a fetch returns from another document or outside the range, and duplicates", async () => {
    const a = document("a.md", 10);
    const b = document("b.md", 10);
    const fetch: WindowFetch<TestChunk> = () => [...a, ...b, a[3] as TestChunk];
    const passages = await expandWindows([{ chunk: a[3] as TestChunk, score: 1 }], {
      window: 1,
      fetch,
    });
    expect(passages).toHaveLength(1);
    expect(passages[0]?.chunks.map((chunk) => chunk.label)).toEqual(["a.md#2", "a.md#3", "a.md#4"]);
  });

  it("keeps the hit even when the fetch does not return it", async () => {
    const a = document("a.md", 5);
    const passages = await expandWindows([{ chunk: a[2] as TestChunk, score: 1 }], {
      window: 1,
      fetch: () => [],
    });
    expect(passages.map((passage) => passage.text)).toEqual(["a.md chunk 2"]);
  });

  it("fetches nothing with window 0 and stitches only hits that are neighbours", async () => {
    const a = document("a.md", 10);
    let fetched = 0;
    const passages = await expandWindows(
      [
        { chunk: a[3] as TestChunk, score: 0.5 },
        { chunk: a[4] as TestChunk, score: 0.9 },
        { chunk: a[8] as TestChunk, score: 0.7 },
        { chunk: a[4] as TestChunk, score: 0.1 },
      ],
      {
        window: 0,
        fetch: () => {
          fetched += 1;
          return [];
        },
      },
    );
    expect(fetched).toBe(0);
    expect(
      passages.map((passage) => [
        passage.first_chunk_index,
        passage.last_chunk_index,
        passage.score,
      ]),
    ).toEqual([
      [3, 4, 0.9],
      [8, 8, 0.7],
    ]);
  });

  it("joins consecutive lines with one line feed and the pieces of one over-long line with nothing", async () => {
    const pieces: TestChunk[] = [
      {
        document_key: "l.md",
        chunk_index: 0,
        start_line: 1,
        end_line: 1,
        heading_trail: [],
        text: "intro",
        label: "0",
      },
      {
        document_key: "l.md",
        chunk_index: 1,
        start_line: 2,
        end_line: 2,
        heading_trail: [],
        text: "abc",
        label: "1",
      },
      {
        document_key: "l.md",
        chunk_index: 2,
        start_line: 2,
        end_line: 2,
        heading_trail: [],
        text: "def",
        label: "2",
      },
      {
        document_key: "l.md",
        chunk_index: 3,
        start_line: 5,
        end_line: 5,
        heading_trail: [],
        text: "later",
        label: "3",
      },
    ];
    const { fetch } = fetcher(pieces);
    const [passage] = await expandWindows([{ chunk: pieces[1] as TestChunk, score: 1 }], {
      window: 2,
      fetch,
    });
    expect(passage?.text).toBe("intro\nabcdef\n\nlater");
    expect([passage?.start_line, passage?.end_line]).toEqual([1, 5]);
  });

  it("hard-caps a passage, keeping the best hit and the neighbours nearest the hits", async () => {
    const chunks = document(
      "a.md",
      21,
      (index) => `${String(index).padStart(2, "0")}${"x".repeat(98)}`,
    );
    const { fetch } = fetcher(chunks);
    const [passage] = await expandWindows(
      [
        { chunk: chunks[10] as TestChunk, score: 0.9 },
        { chunk: chunks[12] as TestChunk, score: 0.3 },
      ],
      { window: 8, fetch, maxPassageCharacters: 520 },
    );
    // 100-character chunks joined by 2 characters: 5 chunks = 508 ≤ 520 < 610.
    expect(passage?.text.length).toBeLessThanOrEqual(520);
    expect(passage?.truncated).toBe(true);
    expect(passage?.chunks.map((chunk) => chunk.chunk_index)).toEqual([9, 10, 11, 12, 13]);
    expect(passage?.hit_chunk_indexes).toEqual([10, 12]);
    expect(passage?.score).toBe(0.9);
  });

  it("cuts a single chunk longer than the cap (never inside a surrogate pair) and says so", async () => {
    const long: TestChunk = {
      document_key: "a.md",
      chunk_index: 0,
      start_line: 1,
      end_line: 400,
      heading_trail: [],
      text: `${"a".repeat(99)}🚀${"b".repeat(20_000)}`,
      label: "0",
    };
    const [passage] = await expandWindows([{ chunk: long, score: 1 }], {
      window: 3,
      fetch: () => [long],
      maxPassageCharacters: 100,
    });
    expect(passage?.text).toBe("a".repeat(99));
    expect(passage?.truncated).toBe(true);
    const [defaultCapped] = await expandWindows([{ chunk: long, score: 1 }], {
      window: 0,
      fetch: () => [],
    });
    expect(defaultCapped?.text.length).toBeLessThanOrEqual(DEFAULT_MAX_PASSAGE_CHARACTERS);
  });

  it("keeps a hit whose chunk index is not an integer as a passage of its own", async () => {
    const odd: TestChunk = { ...(document("a.md", 1)[0] as TestChunk), chunk_index: Number.NaN };
    const fetch = () => {
      throw new Error("must not be called for a loose hit");
    };
    const passages = await expandWindows([{ chunk: odd, score: 0.2 }], { window: 2, fetch });
    expect(passages).toHaveLength(1);
    expect(passages[0]?.text).toBe("a.md chunk 0");
  });

  it("refuses a bad window, cap or fetch, and passes on the fetch's failure and the signal", async () => {
    const chunks = document("a.md", 3);
    const hit = [{ chunk: chunks[1] as TestChunk, score: 1 }];
    await expect(expandWindows(hit, { window: -1, fetch: () => [] })).rejects.toThrow(
      /window must be an integer from 0 to 20/,
    );
    await expect(expandWindows(hit, { window: 21, fetch: () => [] })).rejects.toThrow(RangeError);
    await expect(expandWindows(hit, { window: 1.5, fetch: () => [] })).rejects.toThrow(RangeError);
    await expect(
      expandWindows(hit, { window: 1, fetch: () => [], maxPassageCharacters: 0 }),
    ).rejects.toThrow(/maxPassageCharacters/);
    await expect(
      expandWindows(hit, { window: 1, fetch: undefined as unknown as WindowFetch<TestChunk> }),
    ).rejects.toThrow(/fetch/);
    await expect(
      expandWindows(hit, {
        window: 1,
        fetch: async () => {
          throw new Error("connection lost");
        },
      }),
    ).rejects.toThrow("connection lost");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(
      expandWindows(hit, { window: 1, fetch: () => chunks, signal: controller.signal }),
    ).rejects.toThrow("stop");
  });

  it("fetches at most `concurrency` ranges at once and answers in a stable order", async () => {
    const chunks = Array.from({ length: 12 }, (_, documentIndex) =>
      document(`d${documentIndex}.md`, 5),
    ).flat();
    let inFlight = 0;
    let peak = 0;
    const fetch: WindowFetch<TestChunk> = async (key, from, to) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return chunks.filter(
        (chunk) =>
          chunk.document_key === key && chunk.chunk_index >= from && chunk.chunk_index <= to,
      );
    };
    const hits = chunks
      .filter((chunk) => chunk.chunk_index === 2)
      .map((chunk) => ({ chunk, score: 0.5 }));
    const first = await expandWindows(hits, { window: 1, fetch, concurrency: 3 });
    expect(peak).toBe(3);
    const second = await expandWindows([...hits].reverse(), { window: 1, fetch, concurrency: 3 });
    expect(second.map((passage) => passage.document_key)).toEqual(
      first.map((passage) => passage.document_key),
    );
    expect(first.map((passage) => passage.document_key)).toEqual([
      "d0.md",
      "d1.md",
      "d10.md",
      "d11.md",
      "d2.md",
      "d3.md",
      "d4.md",
      "d5.md",
      "d6.md",
      "d7.md",
      "d8.md",
      "d9.md",
    ]);
  });
});
