import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { RECORDED_FIGMA_FILES } from "./recorded-files.js";

// The gzipped JSON under recorded/ is what bench/design.mjs serves to both design readers (plain
// Node there cannot load these TypeScript fixtures). It is written from the typed fixtures
// (AGENTOOL_RECORD_FIGMA=1 npx vitest run --config ../../vitest.shared.mjs
// src/test-support/recorded-files.test.ts); this test keeps it equal to them.
const folder = join(import.meta.dirname, "recorded");

describe("recorded Figma files", () => {
  for (const { name, recorded } of RECORDED_FIGMA_FILES) {
    it(`${name} holds the typed fixture`, () => {
      const path = join(folder, name);
      if (process.env.AGENTOOL_RECORD_FIGMA === "1") {
        writeFileSync(path, gzipSync(JSON.stringify(recorded), { level: 9 }));
      }
      const stored = JSON.parse(gunzipSync(readFileSync(path)).toString("utf8")) as unknown;
      expect(stored).toEqual(JSON.parse(JSON.stringify(recorded)));
    });
  }
});
