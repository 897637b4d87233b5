// An artifact that tries to replace the page driver (issue 27, finding 8): the driver's API is
// frozen, so overwriting its methods changes nothing; an artifact that still forges the answers
// (here by patching Symbol.for, so the host finds a fake driver) gets capped, checked responses.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_EVAL_VALUE_CHARACTERS } from "../engine/limits.js";
import type { PreviewTool, PreviewToolData } from "../preview.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

/** Tries every way to swap the driver's methods and the driver itself for 30 MiB answers. */
const REPLACER_HTML = `<!doctype html><title>Replacer</title><canvas id=c width=4 height=4></canvas>
<script>
  "use strict";
  const huge = "x".repeat(30 * 1024 * 1024);
  const key = Symbol.for("agentool.preview.driver");
  const driver = window[key];
  const forged = {
    evaluate: () => ({ json: huge, total: 1, type: "number" }),
    shot: () => ({ source: "canvas", canvases: 1, width: 4, height: 4, data: huge }),
  };
  const outcomes = [];
  for (const name of ["evaluate", "shot", "withConsole"]) {
    try {
      driver[name] = name === "withConsole" ? () => ({ value: forged.evaluate() }) : forged[name];
      outcomes.push(name + " replaced");
    } catch (error) {
      outcomes.push(name + " kept");
    }
  }
  try {
    Object.defineProperty(window, key, { value: forged });
  } catch (error) {
    outcomes.push("driver kept");
  }
  console.log(outcomes.join(", "));
</script>`;

/** Forges the host's lookup of the driver: a fake answering 30 MiB to everything. */
const FORGER_HTML = `<!doctype html><title>Forger</title>
<script>
  const huge = "x".repeat(30 * 1024 * 1024);
  const fake = Symbol("fake driver");
  const answers = {
    loaded: { title: "x".repeat(100000), canvases: 0, width: 800, height: 600 },
    evaluate: { json: huge, total: 1, type: "number" },
    shot: { source: "canvas", canvases: 1, width: 4, height: 4, data: "iVBORw0KGgo" + huge },
  };
  window[fake] = {
    withConsole: (method) => ({
      value: answers[method],
      console: { batch: 1, entries: [{ level: "log", text: "y".repeat(100000), count: 1 }], omitted: 0 },
    }),
    drain: () => ({ batch: 1, entries: [], omitted: 0 }),
  };
  const original = Symbol.for;
  Symbol.for = (name) => (name === "agentool.preview.driver" ? fake : original(name));
</script>`;

const root = mkdtempSync(join(tmpdir(), "preview-forgery-"));
writeFileSync(join(root, "replacer.html"), REPLACER_HTML);
writeFileSync(join(root, "forger.html"), FORGER_HTML);

let preview: PreviewTool;
beforeAll(() => {
  preview = createChromiumPreviewTool({ root });
});
afterAll(async () => {
  await preview.dispose();
});

async function call(input: unknown, threadId: string): Promise<PreviewToolData> {
  const result = await preview.run(input, { threadId });
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("an artifact replacing the page driver", () => {
  it("cannot: the driver's methods and the driver stay the preview's own", async () => {
    const opened = await call({ op: "open", path: "replacer.html" }, "replacer");
    expect(opened.console).toEqual([
      { level: "log", text: "evaluate kept, shot kept, withConsole kept, driver kept", count: 1 },
    ]);
    const value = await call({ op: "eval", code: "return 1" }, "replacer");
    expect(value).toMatchObject({ value_json: "1", value_type: "number", value_truncated: false });
    const shot = await call({ op: "shot" }, "replacer");
    expect(shot).toMatchObject({ source: "canvas", width: 4, height: 4 });
    expect(shot.bytes).toBeLessThan(10_000);
  });

  it("forging the answers anyway gets capped, checked responses", async () => {
    await call({ op: "open", path: "forger.html" }, "forger");
    const value = await call({ op: "eval", code: "return 1" }, "forger");
    expect(value.value_json?.length).toBe(MAX_EVAL_VALUE_CHARACTERS);
    expect(value.value_truncated).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThan(20_000);
    const shot = await preview.run({ op: "shot" }, { threadId: "forger" });
    expect(shot).toMatchObject({ success: false, error: { code: "TOO_LARGE" } });
    expect(JSON.stringify(shot).length).toBeLessThan(5_000);
  }, 60_000);
});
