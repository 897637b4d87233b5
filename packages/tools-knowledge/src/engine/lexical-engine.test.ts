import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { LexicalEngine, type LexicalScoring } from "./lexical-engine.js";
import { decodeSnapshot } from "./lexical-snapshot.js";
import { tokenize } from "./tokenize.js";

/** Six real documents from Debian's /usr/share/doc (copied: see test-support/system-docs). */
const folder = new URL("./test-support/system-docs/", import.meta.url);
const documents = readdirSync(folder)
  .sort()
  .map((name) => {
    const text = readFileSync(new URL(name, folder), "utf8");
    const [title = "", ...body] = text.split("\n");
    return { id: name, fields: [`${name} ${title}`, body.join("\n")] };
  });

const scoring: LexicalScoring = {
  fieldBoosts: [2, 1],
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  prefixWeight: 0.375,
  prefix: (term) => term.length >= 3,
  tokenize: (query) => tokenize(query, { mode: "query" }),
};
const HEADER = [1, 2];

function build(): LexicalEngine {
  const engine = new LexicalEngine(2, scoring);
  for (const document of documents) engine.add(document.id, document.fields);
  return engine;
}

const QUERIES: Array<[string, string]> = [
  ["short medium long tests on every commit", "zstd-TESTING.md.txt"],
  ["reporting bugs in ps and top", "procps-bugs.md.txt"],
  ["sodium cryptography library", "libsodium23-README.markdown.txt"],
  ["http client caching", "python3-httplib2-README.md.txt"],
  ["magic file type detection", "file-README.Debian.txt"],
];

describe("lexical engine on real documents", () => {
  test("each query ranks the document about it first, scores best first", () => {
    const engine = build();
    expect(engine.size).toBe(documents.length);
    for (const [query, expected] of QUERIES) {
      const results = engine.search(query, undefined, undefined);
      expect(results[0]?.id, query).toBe(expected);
      const scores = results.map((result) => result.score);
      expect(scores).toEqual([...scores].sort((left, right) => right - left));
    }
  });

  test("limit and filter cut the same list (heap and full sort agree)", () => {
    const engine = build();
    const all = engine.search("file package version bug", undefined, undefined);
    expect(all.length).toBeGreaterThan(3);
    expect(engine.search("file package version bug", 1, undefined)).toEqual(all.slice(0, 1));
    const kept = (id: string) => !id.startsWith("zstd");
    expect(engine.search("file package version bug", 2, kept)).toEqual(
      all.filter((hit) => kept(hit.id)).slice(0, 2),
    );
  });

  test("a discarded document is gone before and after compaction, the others score the same", () => {
    const engine = build();
    const fresh = new LexicalEngine(2, scoring);
    for (const document of documents)
      if (document.id !== "procps-bugs.md.txt") fresh.add(document.id, document.fields);
    expect(engine.discard("procps-bugs.md.txt")).toBe(true);
    const query = "bugs report tests library";
    const expected = fresh.search(query, undefined, undefined);
    const close = (results: ReturnType<LexicalEngine["search"]>) =>
      results.map((result) => [result.id, Number(result.score.toFixed(9))]);
    expect(close(engine.search(query, undefined, undefined))).toEqual(close(expected));
    engine.compact();
    expect(engine.dirtCount).toBe(0);
    expect(close(engine.search(query, undefined, undefined))).toEqual(close(expected));
  });

  test("a snapshot decodes to the same documents and terms, and the engine it restores scores the same", () => {
    const engine = build();
    const bytes = engine.toBytes(HEADER);
    const decoded = decodeSnapshot(bytes, HEADER, 2);
    expect(decoded.ids).toEqual(documents.map((document) => document.id));
    expect(decoded.documentTotal).toBe(documents.length);
    expect(decoded.terms.length).toBe(engine.termCount);
    expect([...decoded.terms].sort()).toEqual(decoded.terms);
    const restored = LexicalEngine.fromBytes(bytes, HEADER, 2, scoring);
    for (const [query] of QUERIES)
      expect(restored.search(query, undefined, undefined)).toEqual(
        engine.search(query, undefined, undefined),
      );
    // Encoding the restored engine gives the same bytes; a small change re-encodes to what a
    // fresh encode of the same state gives.
    expect([...restored.toBytes(HEADER)]).toEqual([...bytes]);
    const kept = LexicalEngine.fromBytes(bytes, HEADER, 2, scoring, true);
    kept.add("extra", ["extra notes", "zstd compression levels"]);
    const again = new LexicalEngine(2, scoring);
    for (const document of documents) again.add(document.id, document.fields);
    again.add("extra", ["extra notes", "zstd compression levels"]);
    const incremental = LexicalEngine.fromBytes(kept.toBytes(HEADER), HEADER, 2, scoring);
    const scratch = LexicalEngine.fromBytes(again.toBytes(HEADER), HEADER, 2, scoring);
    expect(incremental.search("zstd compression", undefined, undefined)).toEqual(
      scratch.search("zstd compression", undefined, undefined),
    );
  });

  test("another header, field count or damaged bytes are refused", () => {
    const bytes = build().toBytes(HEADER);
    expect(() => decodeSnapshot(bytes, [1, 3], 2)).toThrow("header value 1");
    expect(() => decodeSnapshot(bytes, HEADER, 3)).toThrow("number of fields");
    expect(() => decodeSnapshot(bytes.subarray(0, bytes.length - 3), HEADER, 2)).toThrow();
    const extra = new Uint8Array(bytes.length + 1);
    extra.set(bytes);
    expect(() => decodeSnapshot(extra, HEADER, 2)).toThrow("bytes after its end");
  });
});
