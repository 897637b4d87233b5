import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { RECORDED_FIGMA_FILES, readRecordedFigmaFile } from "../testing/recorded-figma-files.js";
import { RECORDED_FIXTURES } from "./recorded-files.js";

// The gzipped JSON under recordings/ ships with the package (its ./testing server answers from
// it) and is what bench/design.mjs serves to both design readers. It is written from the typed
// fixtures (AGENTOOL_RECORD_FIGMA=1 npx vitest run --config ../../vitest.shared.mjs
// src/test-support/recorded-files.test.ts); this test keeps it equal to them.
const folder = join(import.meta.dirname, "../../recordings");

function findNode(node: { id: string; children?: unknown[] }, id: string): boolean {
  if (node.id === id) return true;
  return (node.children ?? []).some((child) => findNode(child as typeof node, id));
}

describe("recorded Figma files", () => {
  for (const { name, recorded } of RECORDED_FIXTURES) {
    it(`${name} holds the typed fixture`, () => {
      const path = join(folder, name);
      if (process.env.AGENTOOL_RECORD_FIGMA === "1") {
        writeFileSync(path, gzipSync(JSON.stringify(recorded), { level: 9 }));
      }
      const stored = JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as unknown;
      expect(stored).toEqual(JSON.parse(JSON.stringify(recorded)));
    });
  }

  it("the testing entry names every recording by its key, name and node ids that are in it", () => {
    expect(Object.values(RECORDED_FIGMA_FILES).map((entry) => entry.recording)).toEqual(
      RECORDED_FIXTURES.map((fixture) => fixture.name),
    );
    for (const entry of Object.values(RECORDED_FIGMA_FILES)) {
      const recorded = readRecordedFigmaFile(entry.recording);
      expect(recorded.key).toBe(entry.fileKey);
      expect(recorded.file.name).toBe(entry.name);
      for (const id of Object.values(entry.nodes)) {
        expect(findNode(recorded.file.document, id), `${entry.name} ${id}`).toBe(true);
      }
    }
  });
});
