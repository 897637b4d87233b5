import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PreviewTool, PreviewToolData } from "../preview.js";
import {
  FORM_HTML,
  GAME_HTML,
  LOOP_AT_LOAD_HTML,
  LOOP_ON_KEY_HTML,
  PLAIN_HTML,
  WEBGL_HTML,
} from "../test-support/artifacts.js";
import { decodePng, differingPixels, pixelAt } from "../test-support/png.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";

const root = mkdtempSync(join(tmpdir(), "preview-node-"));
for (const [name, html] of Object.entries({
  "game.html": GAME_HTML,
  "form.html": FORM_HTML,
  "loop-key.html": LOOP_ON_KEY_HTML,
  "loop-load.html": LOOP_AT_LOAD_HTML,
  "plain.html": PLAIN_HTML,
  "webgl.html": WEBGL_HTML,
}))
  writeFileSync(join(root, name), html);
writeFileSync(join(root, ".env"), "SECRET=1");

let preview: PreviewTool;
beforeAll(() => {
  preview = createChromiumPreviewTool({ root });
});
afterAll(async () => {
  await preview.dispose();
});

async function call(input: unknown, threadId = "t1"): Promise<PreviewToolData> {
  const result = await preview.run(input, { threadId });
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("preview on Chromium", () => {
  it("plays a canvas game: two shots differ where the square moved", async () => {
    const opened = await call({ op: "open", path: "game.html" });
    expect(opened).toMatchObject({
      op: "open",
      title: "Square game",
      canvases: 1,
      width: 800,
      height: 600,
    });
    expect(opened.console).toEqual([{ level: "log", text: "game ready", count: 1 }]);
    const before = await call({ op: "shot" });
    expect(before).toMatchObject({
      source: "canvas",
      selector: "canvas#game",
      width: 200,
      height: 120,
      mime_type: "image/png",
    });
    const acted = await call({
      op: "act",
      actions: [
        { type: "key", key: "ArrowRight" },
        { type: "key", key: "ArrowRight" },
      ],
    });
    expect(acted).toMatchObject({ requested: 2, completed: 2 });
    expect(acted.console).toEqual([
      { level: "log", text: "moved to 30", count: 1 },
      { level: "log", text: "moved to 50", count: 1 },
    ]);
    const after = await call({ op: "shot" });
    const first = decodePng(before.image_base64 ?? "");
    const second = decodePng(after.image_base64 ?? "");
    expect(pixelAt(first, 15, 55)).toEqual([0, 255, 0, 255]);
    expect(pixelAt(second, 15, 55)).toEqual([0, 0, 0, 255]);
    expect(pixelAt(second, 55, 55)).toEqual([0, 255, 0, 255]);
    expect(differingPixels(first, second)).toBe(2 * 20 * 20);
    const content = preview.renderResult({ success: true, data: after });
    expect(Array.isArray(content)).toBe(true);
    expect((content as Array<{ type: string }>).map((block) => block.type)).toEqual([
      "text",
      "image",
    ]);
    expect(await call({ op: "read", queries: [{ css: "#score" }] })).toMatchObject({
      answers: [{ css: "#score", attr: "text", count: 1, values: ["2"], truncated: false }],
    });
  });

  it("reads the DOM: text, html, value, attributes, lists, caps; types and clicks", async () => {
    const opened = await call({ op: "open", path: "form.html" });
    expect(opened.console).toEqual([
      { level: "warn", text: "careful", count: 3 },
      { level: "error", text: 'bad {"a":1}', count: 1 },
    ]);
    expect(preview.renderResult({ success: true, data: opened })).toContain("[warn] careful ×3");
    const read = await call({
      op: "read",
      queries: [
        { css: "h1" },
        { css: "h1", attr: "html" },
        { css: "#name", attr: "value" },
        { css: "#name", attr: "data-kind" },
        { css: "#name", attr: "missing" },
        { css: "li" },
        { css: "#nothing" },
        { css: "#long" },
        { css: "[[bad" },
      ],
    });
    const answers = read.answers ?? [];
    expect(answers[0]).toMatchObject({ values: ["Hello world"], count: 1 });
    expect(answers[1]?.values[0]).toBe('<h1 class="title">Hello <b>world</b></h1>');
    expect(answers[2]?.values).toEqual(["start"]);
    expect(answers[3]?.values).toEqual(["text"]);
    expect(answers[4]?.values).toEqual([null]);
    expect(answers[5]).toMatchObject({ count: 3, values: ["one", "two", "three"] });
    expect(answers[6]).toMatchObject({ count: 0, values: [] });
    expect(answers[7]).toMatchObject({ truncated: true, omitted_characters: 3000 });
    expect(answers[7]?.values[0]).toHaveLength(2000);
    expect(answers[8]?.error).toMatch(/invalid CSS selector/);
    const text = preview.renderResult({ success: true, data: read }) as string;
    expect(text).toContain("#nothing: no element matches");
    expect(text).toMatch(/…\[truncated: 3,000 more characters — /);

    const acted = await call({
      op: "act",
      actions: [
        { type: "click", selector: "#name" },
        { type: "key", key: "End" },
        { type: "type", text: "-typed" },
        { type: "click", selector: "#go" },
      ],
    });
    expect(acted.completed).toBe(4);
    expect((await call({ op: "read", queries: [{ css: "#out" }] })).answers?.[0]?.values).toEqual([
      "clicked start-typed",
    ]);
    const missing = await call({
      op: "act",
      actions: [
        { type: "click", selector: "#absent" },
        { type: "key", key: "a" },
      ],
    });
    expect(missing).toMatchObject({
      completed: 0,
      failed: { index: 0, type: "click #absent", message: "no element matches #absent" },
    });
  });

  it("evaluates code: values, promises, caps, thrown errors", async () => {
    await call({ op: "open", path: "game.html" });
    expect(await call({ op: "eval", code: "return game" })).toMatchObject({
      value_json: '{"x":10,"y":50,"moves":0}',
      value_type: "object",
    });
    expect(
      await call({ op: "eval", code: "await new Promise(r => setTimeout(r, 20)); return 6 * 7" }),
    ).toMatchObject({ value_json: "42", value_type: "number" });
    // A statement answers undefined; an expression its value, as a developer console does.
    expect(await call({ op: "eval", code: "game.x = 1;" })).toMatchObject({
      value_json: null,
      value_type: "undefined",
    });
    expect(await call({ op: "eval", code: "game.x = 2" })).toMatchObject({
      value_json: "2",
      value_type: "number",
    });
    const big = await call({ op: "eval", code: "return 'y'.repeat(20000)" });
    expect(big).toMatchObject({ value_truncated: true, value_characters: 20002 });
    expect(big.value_json).toHaveLength(10_000);
    const thrown = await call({
      op: "eval",
      code: "console.log('inside'); throw new TypeError('nope')",
    });
    expect(thrown.thrown).toBe("TypeError: nope");
    expect(thrown.console).toEqual([{ level: "log", text: "inside", count: 1 }]);
    expect(await call({ op: "eval", code: "return (" })).toMatchObject({
      thrown: expect.stringMatching(/^SyntaxError/),
    });
  });

  it("surfaces uncaught errors at load and shoots the viewport when there is no canvas", async () => {
    const opened = await call({ op: "open", path: "plain.html" });
    expect(opened.console).toEqual([
      {
        level: "uncaught",
        // The artifact's own column: its \`throw\` (107) or its \`new Error\` (113), as Chromium
        // reports the one or the other — not shifted by the driver inserted on that line.
        text: expect.stringMatching(/^Error: boom at load \(plain\.html line 1:(107|113)\)$/),
        count: 1,
      },
    ]);
    const shot = await call({ op: "shot" });
    expect(shot).toMatchObject({ source: "viewport", width: 800, height: 600, canvases: 0 });
    expect(pixelAt(decodePng(shot.image_base64 ?? ""), 700, 500)).toEqual([0, 0, 255, 255]);
  });

  it("keeps the WebGL drawing buffer so a shot sees the frame", async () => {
    await call({ op: "open", path: "webgl.html" });
    const shot = await call({ op: "shot" });
    expect(pixelAt(decodePng(shot.image_base64 ?? ""), 32, 32)).toEqual([255, 0, 0, 255]);
  });

  it("refuses bad paths, secrets, missing files, missing sessions and wait budgets over the deadline", async () => {
    expect(await preview.run({ op: "open", path: "../x.html" }, { threadId: "e" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH" },
    });
    expect(await preview.run({ op: "open", path: ".env" }, { threadId: "e" })).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await preview.run({ op: "open", path: "nope.html" }, { threadId: "e" })).toMatchObject({
      success: false,
      error: { code: "FILE_NOT_FOUND" },
    });
    const none = await preview.run({ op: "read", queries: [{ css: "p" }] }, { threadId: "nobody" });
    expect(none).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT", message: "No preview session is open." },
    });
    if (!none.success) expect(none.error.hint).toContain('op "open"');
    const budget = await preview.run(
      {
        op: "act",
        actions: [
          { type: "wait", ms: 20_000 },
          { type: "wait", ms: 10_000 },
        ],
      },
      { threadId: "t1" },
    );
    expect(budget).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    if (!budget.success)
      expect(budget.error.message).toBe(
        "The waits of this act add up to 30,000 ms (plus 50 ms for each of the 2 actions: 30,100 ms), more than the 28,500 ms one call may take (timeout 30,000 ms, 1,500 ms kept to report back).",
      );
    const badAction = await preview.run(
      { op: "act", actions: [{ type: "click", x: 1 }] },
      { threadId: "t1" },
    );
    expect(badAction).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: expect.stringContaining("actions[0] (click) needs x and y, or selector"),
      },
    });
  });
});

describe("preview on Chromium: loops, idle-out, eviction, abort", () => {
  let quick: PreviewTool;
  let idle: PreviewTool;
  beforeAll(() => {
    quick = createChromiumPreviewTool({ root, timeoutMs: 4_000, maxSessions: 2 });
    idle = createChromiumPreviewTool({ root, idleMs: 1_000 });
  });
  afterAll(async () => {
    await Promise.all([quick.dispose(), idle.dispose()]);
  });

  /**
   * After a loop is cut off the session is either usable (the script was stopped) or closed —
   * and the error says which. Stopping works whenever the machine is not starved; a loaded CI
   * machine may take longer than the recovery budget, and then the session says to reopen.
   */
  async function expectConsistent(
    stuck: Awaited<ReturnType<PreviewTool["run"]>>,
    next: () => ReturnType<PreviewTool["run"]>,
    usable: (result: Awaited<ReturnType<PreviewTool["run"]>>) => void,
  ) {
    expect(stuck).toMatchObject({
      success: false,
      error: {
        code: "TIMEOUT",
        message: expect.stringContaining("did not finish within 2,500 ms"),
      },
    });
    const message = stuck.success ? "" : stuck.error.message;
    const after = await next();
    if (message.includes("the session is still open")) usable(after);
    else {
      expect(message).toContain("the session had to be closed");
      expect(after).toMatchObject({
        success: false,
        error: { code: "INVALID_INPUT", message: expect.stringContaining("was closed after") },
      });
    }
    return message.includes("the session is still open");
  }

  it("an infinite loop in eval times out with the tool's own error; the session stays usable", async () => {
    await quick.run({ op: "open", path: "game.html" }, { threadId: "loop" });
    const started = Date.now();
    const stuck = await quick.run({ op: "eval", code: "for (;;) {}" }, { threadId: "loop" });
    expect(Date.now() - started).toBeLessThan(4_000);
    await expectConsistent(
      stuck,
      () => quick.run({ op: "eval", code: "return game.x" }, { threadId: "loop" }),
      (after) => expect(after).toMatchObject({ success: true, data: { value_json: "10" } }),
    );
  });

  it("an infinite loop in the artifact's key handler times out and the session survives", async () => {
    await quick.run({ op: "open", path: "loop-key.html" }, { threadId: "loop" });
    const stuck = await quick.run(
      { op: "act", actions: [{ type: "key", key: "a" }] },
      { threadId: "loop" },
    );
    await expectConsistent(
      stuck,
      () => quick.run({ op: "read", queries: [{ css: "#p" }] }, { threadId: "loop" }),
      (after) =>
        expect(after).toMatchObject({
          success: true,
          data: { answers: [{ values: ["looping"] }] },
        }),
    );
  });

  it("an infinite loop at load times out; the script is stopped and the page readable", async () => {
    const stuck = await quick.run({ op: "open", path: "loop-load.html" }, { threadId: "loop" });
    if (!stuck.success) expect(stuck.error.message).toContain("open of loop-load.html");
    await expectConsistent(
      stuck,
      () => quick.run({ op: "read", queries: [{ css: "#after" }] }, { threadId: "loop" }),
      (after) =>
        expect(after).toMatchObject({
          success: true,
          data: {
            answers: [{ values: ["after"] }],
            console: [{ level: "log", text: "before", count: 1 }],
          },
        }),
    );
  });

  it("idles out and tells the model to open again", async () => {
    await idle.run({ op: "open", path: "game.html" }, { threadId: "idle" });
    await new Promise((resolve) => setTimeout(resolve, 1_600));
    const late = await idle.run({ op: "shot" }, { threadId: "idle" });
    expect(late).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: expect.stringContaining("closed after 1,000 ms without a call"),
      },
    });
    if (!late.success) expect(late.error.hint).toContain('op "open"');
    expect(idle.sessionCount()).toBe(0);
  });

  it("keeps at most maxSessions sessions, closing the oldest first", async () => {
    for (const thread of ["a", "b", "c"])
      await quick.run({ op: "open", path: "game.html" }, { threadId: thread });
    expect(quick.sessionCount()).toBe(2);
    expect(await quick.run({ op: "eval", code: "return 1" }, { threadId: "a" })).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: expect.stringContaining("at most 2 preview sessions"),
      },
    });
    expect(await quick.run({ op: "eval", code: "return 1" }, { threadId: "c" })).toMatchObject({
      success: true,
    });
  });

  it("an abort ends the call, never the session", async () => {
    await quick.run({ op: "open", path: "game.html" }, { threadId: "abort" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const aborted = await quick.run(
      { op: "act", actions: [{ type: "wait", ms: 2_000 }] },
      { threadId: "abort", signal: controller.signal },
    );
    expect(aborted).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(
      await quick.run({ op: "eval", code: "return game.moves" }, { threadId: "abort" }),
    ).toMatchObject({ success: true, data: { value_json: "0" } });
    const close = await quick.run({ op: "close" }, { threadId: "abort" });
    expect(close).toMatchObject({
      success: true,
      data: { closed: true, session: { state: "closed" } },
    });
  });
});
