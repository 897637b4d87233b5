// The no-loss half of the design side-by-side (issue 34), as a test: on every top-level frame of
// the recorded Figma files, every text, size, position, colour, auto-layout value and font that
// Framelink's get_figma_data (figma-developer-mcp, its real MCP server over stdio) gives must be
// recoverable from the text design_read renders — and ours must be the shorter text. It lives in
// bench/ because figma-developer-mcp is a devDependency here only; `pnpm test` runs it through
// bench's `test` script (an int test: it spawns their server).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareFacts, ourFacts, theirFacts } from "../lib/design-facts.mjs";
import { createOurReader, startTheirReader } from "../lib/design-readers.mjs";
import {
  loadRecordedFiles,
  startRecordedFigmaServer,
  topLevelFrames,
} from "../lib/figma-recorded-server.mjs";

type Reader = { read(fileKey: string, nodeId: string): Promise<string>; close(): Promise<void> };

const recorded = loadRecordedFiles() as Array<{
  key: string;
  file: { name: string; document: unknown };
}>;
let server: { origin: string; close(): Promise<void> };
let ours: Reader;
let theirJson: Reader;
let theirTree: Reader;

beforeAll(async () => {
  server = await startRecordedFigmaServer();
  ours = createOurReader(server.origin);
  theirJson = await startTheirReader(server.origin, "json");
  theirTree = await startTheirReader(server.origin, "tree");
}, 60_000);
afterAll(async () => {
  await theirJson?.close();
  await theirTree?.close();
  await ours?.close();
  await server?.close();
});

describe("design_read beside figma-developer-mcp on the recorded files", () => {
  it("holds two files, the larger with 30+ top-level frames", () => {
    const counts = recorded.map(({ file }) => topLevelFrames(file).length);
    expect(counts.length).toBe(2);
    expect(Math.max(...counts)).toBeGreaterThanOrEqual(30);
  });

  for (const { key, file } of recorded) {
    it(`${file.name}: nothing theirs gives is missing from ours, and ours is shorter`, async () => {
      let compared = 0;
      const losses: string[] = [];
      for (const frame of topLevelFrames(file) as Array<{ id: string; name: string }>) {
        const ourText = await ours.read(key, frame.id);
        const theirs = theirFacts(JSON.parse(await theirJson.read(key, frame.id)));
        const result = compareFacts(theirs, ourFacts(ourText));
        compared += result.compared;
        losses.push(...result.losses.map((loss: string) => `${frame.name}: ${loss}`));
        const tree = await theirTree.read(key, frame.id);
        expect(ourText.length, `${frame.name}: ours vs their tree`).toBeLessThan(tree.length);
      }
      expect(losses).toEqual([]);
      // The check looked at many values (a parser that matched nothing would compare none).
      expect(compared).toBeGreaterThan(200);
    }, 120_000);
  }

  it("notices a loss: ours with a text and a colour removed fails the comparison", async () => {
    const [{ key, file }] = recorded.filter(({ file }) => file.name === "Shop — Checkout");
    const frame = (topLevelFrames(file) as Array<{ id: string }>)[0];
    const ourText = await ours.read(key, frame.id);
    const theirs = theirFacts(JSON.parse(await theirJson.read(key, frame.id)));
    const damaged = ourText.replace(': "Order summary"', "").replace(/#ffffff/g, "#fffffe");
    const { losses } = compareFacts(theirs, ourFacts(damaged));
    expect(losses.some((loss: string) => loss.includes("text"))).toBe(true);
    expect(losses.some((loss: string) => loss.includes("colour"))).toBe(true);
  }, 60_000);
});
