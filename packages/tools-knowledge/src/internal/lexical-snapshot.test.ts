import type MiniSearch from "minisearch";
import { describe, expect, test, vi } from "vitest";
import {
  createLexicalIndex,
  type LexicalDocument,
  type LexicalIndex,
  loadLexicalIndex,
} from "../lexical-index.js";
import { type PackedIndex, packPublicEngine } from "./lexical-snapshot.js";
import { PackedIntegerReader } from "./packed-integers.js";

const FIELD_COUNT = 3;

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 4_294_967_296;
  };
}

const VOCABULARY = Array.from({ length: 120 }, (_, position) => `term${position}word`);

function randomDocument(id: string, next: () => number): LexicalDocument {
  const words = (count: number) =>
    Array.from(
      { length: count },
      () => VOCABULARY[Math.floor(next() ** 2 * VOCABULARY.length)] as string,
    ).join(" ");
  return {
    id,
    heading: words(1 + Math.floor(next() * 3)),
    text: words(5 + Math.floor(next() * 30)),
    front_matter: next() < 0.2 ? words(3) : "",
  };
}

function engineOf(index: LexicalIndex): MiniSearch<LexicalDocument> {
  return (index as unknown as { engine: MiniSearch<LexicalDocument> }).engine;
}

/** A snapshot in a form that does not depend on term order: term → per-field (number, frequency) lists. */
function canonical(packed: PackedIndex) {
  const reader = new PackedIntegerReader(packed.postings);
  const postings: Record<string, number[][]> = {};
  for (const term of packed.terms) {
    const fields: number[][] = [];
    for (let field = 0; field < FIELD_COUNT; field += 1) {
      const count = reader.read();
      const list: number[] = [];
      let previous = -1;
      for (let position = 0; position < count; position += 1) {
        previous += 1 + reader.read();
        list.push(previous, reader.read());
      }
      fields.push(list);
    }
    postings[term] = fields;
  }
  expect(reader.done).toBe(true);
  return {
    ids: packed.ids,
    numbers: packed.numbers,
    average_field_lengths: packed.average_field_lengths,
    field_lengths: packed.field_lengths,
    postings,
  };
}

/** The snapshot of `index` equals the one packed from MiniSearch's public JSON (everything encoded anew). */
function expectSnapshotMatchesReference(index: LexicalIndex) {
  const ours = index.toJSON() as PackedIndex;
  const reference = packPublicEngine(engineOf(index), FIELD_COUNT);
  expect(canonical(ours)).toEqual(canonical(reference));
  return ours;
}

describe("incremental snapshots", () => {
  test("after every add, replace and remove, the snapshot is the one packed from scratch", () => {
    const next = random(7);
    const index = createLexicalIndex();
    const live: string[] = [];
    let counter = 0;
    for (let step = 0; step < 40; step += 1) {
      const action = next();
      if (action < 0.5 || live.length < 5) {
        const batch = Array.from({ length: 1 + Math.floor(next() * 6) }, () =>
          randomDocument(`d${counter++}`, next),
        );
        index.add(batch);
        live.push(...batch.map((document) => document.id));
      } else if (action < 0.75) {
        const id = live[Math.floor(next() * live.length)] as string;
        index.add([randomDocument(id, next)]);
      } else {
        const removed = live.splice(Math.floor(next() * live.length), 1 + Math.floor(next() * 3));
        index.remove(removed);
      }
      expectSnapshotMatchesReference(index);
    }
    expect(index.size).toBe(live.length);
  });

  test("a restored index's snapshots stay right through later changes, and round-trip", () => {
    const next = random(11);
    const original = createLexicalIndex();
    original.add(Array.from({ length: 60 }, (_, position) => randomDocument(`d${position}`, next)));
    original.remove(["d3", "d10", "d11"]);
    const restored = loadLexicalIndex(JSON.parse(JSON.stringify(original.toJSON())));
    expectSnapshotMatchesReference(restored);
    restored.add([randomDocument("d5", next), randomDocument("new", next)]);
    restored.remove(["d20"]);
    const snapshot = expectSnapshotMatchesReference(restored);
    restored.remove(["d21"]);
    expectSnapshotMatchesReference(restored);
    const again = loadLexicalIndex(JSON.parse(JSON.stringify(snapshot)));
    for (const query of ["term1word term7word", "term40word", "term2word term90word"]) {
      expect(again.search(query)).toEqual(
        loadLexicalIndex(JSON.parse(JSON.stringify(snapshot))).search(query),
      );
    }
    expect(again.has("d20")).toBe(false);
    expect(again.has("new")).toBe(true);
  });

  test("snapshots taken while a vacuum runs and after it are right, and new terms after it are indexed", async () => {
    const index = createLexicalIndex();
    const count = 1_000;
    index.add(
      Array.from({ length: count }, (_, position) => ({
        id: `d${position}`,
        heading: "",
        text: `common only${position}x`,
        front_matter: "",
      })),
    );
    expectSnapshotMatchesReference(index);
    index.remove(Array.from({ length: count / 2 }, (_, position) => `d${position}`));
    expect(engineOf(index).isVacuuming).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
    index.add([{ id: "late", heading: "", text: "common only3x newcomer", front_matter: "" }]);
    expectSnapshotMatchesReference(index);
    await vi.waitFor(() => expect(engineOf(index).isVacuuming).toBe(false), { timeout: 10_000 });
    // Terms the vacuum deleted come back when a document uses them again.
    index.add([{ id: "again", heading: "", text: "only1x only2x", front_matter: "" }]);
    const snapshot = expectSnapshotMatchesReference(index);
    expect(snapshot.terms).toContain("only1x");
    expect(index.search("only2x").map((match) => match.id)).toEqual(["again"]);
    expect(
      loadLexicalIndex(snapshot)
        .search("only1x")
        .map((match) => match.id),
    ).toEqual(["again"]);
    // That snapshot forgot the deleted terms: one used again now gets a new entry.
    index.add([{ id: "later", heading: "", text: "only4x", front_matter: "" }]);
    const later = expectSnapshotMatchesReference(index);
    expect(later.terms).toContain("only4x");
    expect(index.search("only4x").map((match) => match.id)).toEqual(["later"]);
  });

  test("a snapshot after one change re-encodes only the terms of the changed documents", () => {
    const index = createLexicalIndex();
    index.add(
      Array.from({ length: 200 }, (_, position) => ({
        id: `d${position}`,
        heading: "",
        text: `shared unique${position}x`,
        front_matter: "",
      })),
    );
    index.toJSON();
    const tracker = (index as unknown as { tracker: object }).tracker;
    const encode = vi.spyOn(tracker as { encode: () => Uint8Array }, "encode");
    const unchanged = index.toJSON();
    expect(encode).not.toHaveBeenCalled();
    expect(index.toJSON()).toEqual(unchanged);
    index.add([{ id: "d7", heading: "", text: "shared replaced", front_matter: "" }]);
    expectSnapshotMatchesReference(index);
    // "shared", "unique7x" (d7 discarded) and "replac" (new); the reference pack does not use the tracker.
    expect(encode).toHaveBeenCalledTimes(3);
  });
});
