import { describe, expect, it } from "vitest";
import {
  createLexicalIndex,
  type LexicalDocument,
  type LexicalIndex,
  loadLexicalIndex,
} from "../../../engine/lexical-index.js";
import { startLexicalBuild } from "./lexical-build.js";

const WORDS = [
  "cache",
  "refresh",
  "sidecar",
  "embedding",
  "chunk",
  "heading",
  "worker",
  "thread",
  "postgres",
  "vector",
  "東京",
  "データ",
  "configuration",
  "retry",
  "batch",
];

/** Deterministic documents: enough for many batches of the build. */
function documents(count: number, prefix: string): LexicalDocument[] {
  let state = 7;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  return Array.from({ length: count }, (_, position) => ({
    id: `${prefix}${position}`,
    heading: WORDS[next() % WORDS.length] as string,
    text: Array.from({ length: 12 }, () => WORDS[next() % WORDS.length]).join(" "),
    front_matter: position % 5 === 0 ? "tags: release" : "",
  }));
}

const QUERIES = ["cache refresh", "worker", "東京 データ", "configur", "release", "vector batch"];

function expectSameIndex(built: LexicalIndex, expected: LexicalIndex): void {
  expect(built.size).toBe(expected.size);
  for (const query of QUERIES) {
    const ours = built.search(query);
    const theirs = expected.search(query);
    expect(
      ours.map((match) => match.id),
      query,
    ).toEqual(theirs.map((match) => match.id));
    for (const [position, match] of ours.entries())
      expect(match.score, query).toBeCloseTo((theirs[position] as { score: number }).score, 9);
  }
}

describe("startLexicalBuild", () => {
  it("on the worker: the same index as adding on this thread, removals included", async () => {
    const first = documents(1_500, "a");
    const second = documents(900, "b");
    const build = startLexicalBuild(true);
    const expected = createLexicalIndex();
    for (let start = 0; start < first.length; start += 100) {
      build.add(first.slice(start, start + 100));
      expected.add(first.slice(start, start + 100));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const removed = first.filter((_, position) => position % 17 === 0).map((item) => item.id);
    build.remove(removed);
    expected.remove(removed);
    build.add(second);
    expected.add(second);
    const { index, onWorker } = await build.finish();
    expect(onWorker).toBe(true);
    expectSameIndex(index, expected);
  });

  it("batches the worker has not taken when this thread finishes are indexed here and joined", async () => {
    const all = documents(6_000, "d");
    const build = startLexicalBuild(true);
    // Added without yielding: the worker takes the first batches, the rest wait here.
    for (let start = 0; start < all.length; start += 100) build.add(all.slice(start, start + 100));
    const { index, onWorker, indexedHere } = await build.finish();
    expect(onWorker).toBe(true);
    expect(indexedHere).toBeGreaterThan(0);
    expect(indexedHere).toBeLessThan(all.length);
    const expected = createLexicalIndex();
    expected.add(all);
    expectSameIndex(index, expected);
    // Its snapshot (the worker's, kept across the move and the join) is what a fresh encode of
    // the same index gives, and restores the same answers.
    const bytes = index.toBytes();
    const reloaded = loadLexicalIndex(bytes);
    expectSameIndex(reloaded, expected);
    expect(reloaded.toBytes()).toEqual(bytes);
    // The joined index goes on like any other.
    index.add([{ id: "late", heading: "", text: "zebra", front_matter: "" }]);
    expect(index.search("zebra").map((match) => match.id)).toEqual(["late"]);
  });

  it("a worker that keeps up finishes the last batches alone (no split, nothing indexed here)", async () => {
    const all = documents(3_584, "k");
    const build = startLexicalBuild(true);
    // Given time between the first batches, the worker takes each as it comes (its pace is
    // known); the last three come at once, so one waits here at the end — a backlog too small
    // to be worth splitting (the even split would index it here).
    for (let start = 0; start < 2_048; start += 512) {
      build.add(all.slice(start, start + 512));
      // The first wait covers the worker's start (its module loads first).
      await new Promise((resolve) => setTimeout(resolve, start === 0 ? 2_000 : 50));
    }
    for (let start = 2_048; start < all.length; start += 512)
      build.add(all.slice(start, start + 512));
    const { index, onWorker, indexedHere } = await build.finish();
    expect(onWorker).toBe(true);
    expect(indexedHere).toBe(0);
    const expected = createLexicalIndex();
    expected.add(all);
    expectSameIndex(index, expected);
  });

  it("without the worker: the same operations on this thread", async () => {
    const all = documents(700, "c");
    const build = startLexicalBuild(false);
    build.add(all.slice(0, 400));
    build.remove(["c3", "c5"]);
    build.add(all.slice(400));
    const { index, onWorker, indexedHere } = await build.finish();
    expect(onWorker).toBe(false);
    expect(indexedHere).toBe(0);
    const expected = createLexicalIndex();
    expected.add(all.slice(0, 400));
    expected.remove(["c3", "c5"]);
    expected.add(all.slice(400));
    expectSameIndex(index, expected);
  });

  it("a duplicate id the worker refuses: the build is replayed here and refuses the same way", async () => {
    const build = startLexicalBuild(true);
    build.add(documents(10, "e"));
    build.add([{ id: "", heading: "", text: "no id", front_matter: "" }]);
    await expect(build.finish()).rejects.toThrow(TypeError);
  });

  it("cancel stops the worker; a finish after it builds on this thread", async () => {
    const build = startLexicalBuild(true);
    build.add(documents(2_000, "f"));
    build.cancel();
    const { onWorker, index } = await build.finish();
    expect(onWorker).toBe(false);
    expect(index.size).toBe(2_000);
  });
});
