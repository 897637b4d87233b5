// Driver answers are page-controlled: an artifact can replace or subvert the page driver and
// answer anything. The engine checks and caps every answer on the host side, so a forged answer
// can never make a response bigger than the documented caps (issue 27, finding 8).
import type { ToolResult } from "@agentool/contract";
import { afterEach, describe, expect, it } from "vitest";
import { createPreviewToolFromBackend, type PreviewTool } from "../preview.js";
import { FakeBackend } from "../test-support/fake-backend.js";
import {
  MAX_CONSOLE_ENTRIES,
  MAX_CONSOLE_ENTRY_CHARACTERS,
  MAX_DRIVER_TEXT_CHARACTERS,
  MAX_EVAL_VALUE_CHARACTERS,
  MAX_READ_ANSWER_CHARACTERS,
  MAX_READ_MATCHES,
} from "./limits.js";
import type { PreviewToolData } from "./preview-data.js";

const HUGE = "x".repeat(30 * 1024 * 1024);
/** The 8-byte PNG signature, base64. */
const PNG_START = "iVBORw0KGgo";

const tools: PreviewTool[] = [];
afterEach(async () => {
  await Promise.all(tools.splice(0).map((tool) => tool.dispose()));
});

function setup(backend = new FakeBackend()) {
  const tool = createPreviewToolFromBackend(backend, {
    read: async () => "<!doctype html><title>Forger</title>",
  });
  tools.push(tool);
  return { tool, backend };
}

function data(result: ToolResult<PreviewToolData>): PreviewToolData {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("forged driver answers", () => {
  it("eval: a 30 MiB value claiming to be whole comes back capped and marked truncated", async () => {
    const { tool, backend } = setup();
    backend.driver = { evaluate: () => ({ json: HUGE, total: 1, type: "number" }) };
    await tool.run({ op: "open", path: "a.html" }, { threadId: "t" });
    const answer = data(await tool.run({ op: "eval", code: "return 1" }, { threadId: "t" }));
    expect(answer.value_json?.length).toBe(MAX_EVAL_VALUE_CHARACTERS);
    expect(answer.value_truncated).toBe(true);
    expect(answer.value_characters).toBe(HUGE.length);
    expect(answer.value_type).toBe("number");
    expect(JSON.stringify(answer).length).toBeLessThan(20_000);
  });

  it("eval: values of the wrong type, a huge type name, a huge thrown message and stack are capped", async () => {
    const { tool, backend } = setup();
    let forged: unknown = { json: { not: "a string" }, total: "many", type: HUGE };
    backend.driver = { evaluate: () => forged };
    await tool.run({ op: "open", path: "a.html" }, { threadId: "t" });
    const odd = data(await tool.run({ op: "eval", code: "x" }, { threadId: "t" }));
    expect(odd.value_json).toBeNull();
    expect(odd.value_characters).toBe(0);
    expect(odd.value_type).toBe("unknown");
    forged = { error: HUGE, stack: HUGE };
    const thrown = data(await tool.run({ op: "eval", code: "x" }, { threadId: "t" }));
    expect(JSON.stringify(thrown).length).toBeLessThan(20_000);
    forged = "not an object";
    expect(await tool.run({ op: "eval", code: "x" }, { threadId: "t" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
  });

  it("shot: a 30 MiB image, a non-PNG image and absurd sizes are refused", async () => {
    const { tool, backend } = setup();
    let forged: unknown = {
      source: "canvas",
      canvases: 1,
      width: 10,
      height: 10,
      data: PNG_START + HUGE.slice(PNG_START.length),
    };
    backend.driver = { shot: () => forged };
    await tool.run({ op: "open", path: "a.html" }, { threadId: "t" });
    const big = await tool.run({ op: "shot" }, { threadId: "t" });
    expect(big.success).toBe(false);
    expect(JSON.stringify(big).length).toBeLessThan(5_000);
    forged = { source: "canvas", canvases: 1, width: 10, height: 10, data: "AAAAAAAAAAAAAAAA" };
    expect(await tool.run({ op: "shot" }, { threadId: "t" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
    forged = {
      source: "canvas",
      selector: HUGE,
      canvases: 1,
      width: 1e9,
      height: -4,
      data: `${PNG_START}=`,
    };
    const sized = await tool.run({ op: "shot" }, { threadId: "t" });
    expect(sized.success).toBe(false);
    forged = { source: "elsewhere", canvases: 0, width: 1, height: 1 };
    expect((await tool.run({ op: "shot" }, { threadId: "t" })).success).toBe(false);
  });

  it("read: answers are matched to the queries asked, values capped, extras dropped", async () => {
    const { tool, backend } = setup();
    backend.driver = {
      read: () => [
        {
          css: HUGE,
          attr: HUGE,
          count: 3,
          values: [{ text: HUGE, total: 1 }, ...Array.from({ length: 50 }, () => ({ text: HUGE }))],
          error: HUGE,
        },
        ...Array.from({ length: 100 }, () => ({ css: "extra", attr: "text", count: 1 })),
      ],
    };
    await tool.run({ op: "open", path: "a.html" }, { threadId: "t" });
    const answer = data(
      await tool.run({ op: "read", queries: [{ css: "#score" }] }, { threadId: "t" }),
    );
    expect(answer.answers).toHaveLength(1);
    const first = answer.answers?.[0];
    expect(first).toMatchObject({ css: "#score", attr: "text", count: 3, truncated: true });
    expect(first?.values.length).toBeLessThanOrEqual(MAX_READ_MATCHES);
    expect(JSON.stringify(answer).length).toBeLessThan(
      MAX_READ_ANSWER_CHARACTERS + MAX_DRIVER_TEXT_CHARACTERS + 1_000,
    );
  });

  it("open and console: a huge title, forged console entries and counts are capped", async () => {
    const { tool, backend } = setup();
    backend.driver = {
      loaded: () => ({ title: HUGE, canvases: "many", width: 1e12, height: null }),
      evaluate: () => ({ json: "1", total: 1, type: "number" }),
    };
    const opened = data(await tool.run({ op: "open", path: "a.html" }, { threadId: "t" }));
    expect(opened.title?.length).toBe(MAX_DRIVER_TEXT_CHARACTERS);
    expect(opened.canvases).toBe(0);
    const session = backend.last;
    const forgedEntries = [
      { level: HUGE, text: HUGE, count: "lots" },
      { level: "log", text: { object: true }, count: 1 },
      ...Array.from({ length: 100_000 }, (_, index) => ({
        level: "log",
        text: `${index}`,
        count: 1,
      })),
    ];
    session.call = async () => ({
      value: { json: "1", total: 1, type: "number" },
      console: { batch: "x", entries: forgedEntries, omitted: HUGE },
    });
    const answer = data(await tool.run({ op: "eval", code: "return 1" }, { threadId: "t" }));
    expect(answer.console?.length).toBeLessThanOrEqual(MAX_CONSOLE_ENTRIES);
    for (const entry of answer.console ?? []) {
      expect(typeof entry.text).toBe("string");
      expect(entry.text.length).toBeLessThanOrEqual(MAX_CONSOLE_ENTRY_CHARACTERS + 1);
      expect(entry.level.length).toBeLessThanOrEqual(32);
      expect(Number.isSafeInteger(entry.count)).toBe(true);
    }
    expect(typeof answer.console_omitted).toBe("number");
    expect(JSON.stringify(answer).length).toBeLessThan(40_000);
  });
});
