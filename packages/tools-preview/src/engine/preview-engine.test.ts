// The op engine over a fake backend: no browser, so every rule of the engine is checked directly
// (sessions per conversation, idle-out and the FIFO cap, deadlines, op sequencing, console
// batches, failure mapping, caps and input checks). The same rules in real Chromium are in
// src/node/create-chromium-preview-tool.int.test.ts.
import type { ToolResult } from "@agentool/contract";
import { afterEach, describe, expect, it } from "vitest";
import { createPreviewToolFromBackend, type PreviewTool } from "../preview.js";
import { PreviewError } from "../preview-backend.js";
import { delay, FakeBackend, never } from "../test-support/fake-backend.js";
import type { PreviewEngineOptions } from "./engine-options.js";
import type { PreviewToolData } from "./preview-data.js";

const GAME = "<!doctype html><title>Game</title><canvas id=game></canvas>";

const tools: PreviewTool[] = [];
afterEach(async () => {
  await Promise.all(tools.splice(0).map((tool) => tool.dispose()));
});

function setup(options: Partial<PreviewEngineOptions> = {}, backend = new FakeBackend()) {
  const files: Record<string, string | Uint8Array> = { "game.html": GAME, "b.html": "<p>b</p>" };
  const tool = createPreviewToolFromBackend(backend, {
    read: async (path) => {
      const content = files[path];
      if (content === undefined)
        throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
      return content;
    },
    ...options,
  });
  tools.push(tool);
  return { tool, backend, files };
}

function data(result: ToolResult<PreviewToolData>): PreviewToolData {
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data;
}

describe("open", () => {
  it("reads the artifact, injects the CSP and the driver, loads it and answers with the summary", async () => {
    const { tool, backend } = setup();
    backend.driver = {
      loaded: (_args, session) => {
        session.print("log", "ready");
        return { title: "Game", canvases: 1, width: 800, height: 600 };
      },
    };
    const opened = data(
      await tool.run({ op: "open", path: "./x/../game.html" }, { threadId: "t" }),
    );
    expect(opened).toEqual({
      op: "open",
      session: {
        path: "game.html",
        state: "open",
        calls: 1,
        idle_timeout_ms: 120_000,
        backend: "fake",
      },
      title: "Game",
      characters: GAME.length,
      width: 800,
      height: 600,
      canvases: 1,
      console: [{ level: "log", text: "ready", count: 1 }],
      console_omitted: 0,
    });
    const request = backend.requests[0];
    expect(request?.path).toBe("game.html");
    expect(request?.viewport).toEqual({ width: 800, height: 600 });
    expect(request?.channel).toMatch(/^agentool-preview-[0-9a-f]{32}$/);
    expect(
      request?.document.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy"'),
    ).toBe(true);
    expect(request?.document).toContain(request?.channel);
    expect(request?.document.endsWith("<title>Game</title><canvas id=game></canvas>")).toBe(true);
    expect(request?.contentSecurityPolicy).toContain("default-src 'none'");
    expect(backend.last.log).toEqual(["load", "loaded"]);
    expect(backend.last.config).toEqual({
      channel: request?.channel,
      maxEntries: 200,
      maxEntryCharacters: 500,
      path: "game.html",
      inserted: { line: 1, column: 15, length: expect.stringMatching(/^\d{10}$/) },
    });
  });

  it("decodes bytes, and refuses bad paths, missing files, artifacts over the cap and an unavailable backend", async () => {
    const { tool, backend, files } = setup({ maxArtifactBytes: 1_000 });
    files["bytes.html"] = new TextEncoder().encode("<title>é</title>");
    expect(data(await tool.run({ op: "open", path: "bytes.html" })).characters).toBe(16);
    expect(await tool.run({ op: "open", path: "../up.html" })).toMatchObject({
      success: false,
      error: { code: "INVALID_PATH", hint: expect.stringContaining("relative to the workspace") },
    });
    expect(await tool.run({ op: "open", path: "nope.html" })).toEqual({
      success: false,
      error: {
        code: "FILE_NOT_FOUND",
        message: "nope.html does not exist.",
        hint: "Write the artifact first, or check the path (list the workspace to find it).",
      },
    });
    files["big.html"] = "x".repeat(1_001);
    expect(await tool.run({ op: "open", path: "big.html" })).toEqual({
      success: false,
      error: {
        code: "TOO_LARGE",
        message: "big.html is 1,001 bytes; preview opens artifacts up to 1,000 bytes.",
        hint: "Make the artifact smaller (move large data out, or generate it in code).",
      },
    });
    backend.unavailableAnswer = {
      code: "NOT_CONFIGURED",
      message: "no browser.",
      hint: "install one.",
    };
    expect(await tool.run({ op: "open", path: "game.html" })).toEqual({
      success: false,
      error: { code: "NOT_CONFIGURED", message: "no browser.", hint: "install one." },
    });
    expect(backend.requests).toHaveLength(1);
  });

  it("reads through a fileSystem seam, and maps the host's errors by their code", async () => {
    const backend = new FakeBackend();
    const tool = createPreviewToolFromBackend(backend, {
      fileSystem: {
        readFile: async (path) => {
          if (path === "game.html") return new TextEncoder().encode(GAME);
          if (path === "secret.html")
            throw Object.assign(new Error("refused by policy"), { code: "BLOCKED", hint: "Ask." });
          throw new Error("disk on fire");
        },
      },
    });
    tools.push(tool);
    expect(data(await tool.run({ op: "open", path: "game.html" })).characters).toBe(GAME.length);
    expect(await tool.run({ op: "open", path: "secret.html" })).toEqual({
      success: false,
      error: { code: "BLOCKED", message: "preview open: refused by policy", hint: "Ask." },
    });
    expect(await tool.run({ op: "open", path: "other.html" })).toEqual({
      success: false,
      error: {
        code: "INTERNAL",
        message: "preview open failed: disk on fire",
        hint: 'Call preview with op "open" to start over; if it keeps failing, report it.',
      },
    });
  });

  it("a backend's PreviewError keeps its code and hint, and the half-open session is closed", async () => {
    const { tool, backend } = setup({ name: "show" });
    backend.driver = {
      loaded: () => {
        throw new PreviewError("UNSUPPORTED", "The artifact's document is gone.", "Open it again.");
      },
    };
    expect(await tool.run({ op: "open", path: "game.html" }, { threadId: "t" })).toEqual({
      success: false,
      error: {
        code: "UNSUPPORTED",
        message: "The artifact's document is gone.",
        hint: "Open it again.",
      },
    });
    expect(backend.last.closed).toBe(true);
    expect(tool.sessionCount()).toBe(0);
    const next = await tool.run({ op: "eval", code: "return 1" }, { threadId: "t" });
    expect(next).toMatchObject({
      success: false,
      error: {
        message: "No preview session is open (opening game.html failed).",
        hint: expect.stringContaining('Call show with op "open"'),
      },
    });
  });

  it("opening again in a conversation replaces its session", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const first = backend.last;
    await tool.run({ op: "open", path: "b.html" }, { threadId: "t" });
    expect(first.closed).toBe(true);
    expect(backend.last.closed).toBe(false);
    expect(tool.sessionCount()).toBe(1);
    expect(data(await tool.run({ op: "shot" }, { threadId: "t" })).session.path).toBe("b.html");
  });
});

describe("sessions", () => {
  it("each conversation has its own session; calls count on it", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "a" });
    await tool.run({ op: "open", path: "b.html" }, { threadId: "b" });
    const read = data(await tool.run({ op: "read", queries: [{ css: "p" }] }, { threadId: "a" }));
    expect(read.session).toMatchObject({ path: "game.html", calls: 2 });
    expect(backend.sessions[0]?.log).toEqual(["load", "loaded", "read"]);
    expect(backend.sessions[1]?.log).toEqual(["load", "loaded"]);
    expect(await tool.run({ op: "read", queries: [{ css: "p" }] }, { threadId: "c" })).toEqual({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: "No preview session is open.",
        hint: 'Call preview with op "open" and the artifact\'s path first, then read again.',
      },
    });
    expect(await tool.run({ op: "shot" })).toMatchObject({ success: false });
  });

  it("keeps at most maxSessions, closing the oldest and telling its conversation why", async () => {
    const { tool, backend } = setup({ maxSessions: 2 });
    for (const thread of ["a", "b", "c"])
      await tool.run({ op: "open", path: "game.html" }, { threadId: thread });
    expect(tool.sessionCount()).toBe(2);
    expect(backend.sessions.map((session) => session.closed)).toEqual([true, false, false]);
    expect(await tool.run({ op: "eval", code: "return 1" }, { threadId: "a" })).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message:
          "No preview session is open (it was closed to make room: at most 2 preview sessions stay open and it was the oldest).",
      },
    });
    expect(await tool.run({ op: "eval", code: "return 1" }, { threadId: "b" })).toMatchObject({
      success: true,
    });
  });

  it("idles out after idleMs without a call, but never while a call runs", async () => {
    const { tool, backend } = setup({ idleMs: 100 });
    backend.driver = {
      evaluate: async () => {
        await delay(250);
        return { json: "1", total: 1, type: "number" };
      },
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    expect(data(await tool.run({ op: "eval", code: "slow()" }, { threadId: "t" })).value_json).toBe(
      "1",
    );
    expect(tool.sessionCount()).toBe(1);
    await delay(220);
    expect(tool.sessionCount()).toBe(0);
    expect(backend.last.closed).toBe(true);
    expect(await tool.run({ op: "shot" }, { threadId: "t" })).toMatchObject({
      success: false,
      error: {
        message:
          "No preview session is open (the session on game.html closed after 100 ms without a call).",
      },
    });
  });

  it("runs the calls of one conversation one after the other", async () => {
    const { tool, backend } = setup();
    const order: string[] = [];
    backend.driver = {
      evaluate: async ([code]) => {
        order.push(`start ${code}`);
        await delay(code === "first" ? 60 : 1);
        order.push(`end ${code}`);
        return { json: JSON.stringify(code), total: 7, type: "string" };
      },
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const [first, second] = await Promise.all([
      tool.run({ op: "eval", code: "first" }, { threadId: "t" }),
      tool.run({ op: "eval", code: "second" }, { threadId: "t" }),
    ]);
    expect(order).toEqual(["start first", "end first", "start second", "end second"]);
    expect(data(first).session.calls).toBe(2);
    expect(data(second).session.calls).toBe(3);
  });

  it("close ends the session with its console; without one it says so", async () => {
    const { tool, backend } = setup();
    expect(data(await tool.run({ op: "close" }, { threadId: "t" }))).toEqual({
      op: "close",
      session: {
        path: "(none)",
        state: "closed",
        calls: 0,
        idle_timeout_ms: 120_000,
        backend: "fake",
      },
      closed: false,
      console: [],
      console_omitted: 0,
    });
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    backend.last.print("log", "bye");
    const closed = data(await tool.run({ op: "close" }, { threadId: "t" }));
    expect(closed).toMatchObject({
      closed: true,
      session: { state: "closed", calls: 2 },
      console: [{ level: "log", text: "bye", count: 1 }],
    });
    expect(backend.last.closed).toBe(true);
    expect(await tool.run({ op: "shot" }, { threadId: "t" })).toMatchObject({
      error: { message: "No preview session is open (it was closed by op close)." },
    });
  });

  it("dispose closes every session and the backend; later calls are refused", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "a" });
    await tool.run({ op: "open", path: "b.html" }, { threadId: "b" });
    const renamed = tool.withOverrides({ name: "look" }) as PreviewTool;
    expect(renamed.sessionCount()).toBe(2);
    await renamed.dispose();
    expect(backend.disposed).toBe(true);
    expect(backend.sessions.every((session) => session.closed)).toBe(true);
    expect(tool.sessionCount()).toBe(0);
    expect(await tool.run({ op: "open", path: "game.html" })).toEqual({
      success: false,
      error: {
        code: "NOT_CONFIGURED",
        message: "preview has been disposed by the host.",
        hint: "The host must create the preview tool again.",
      },
    });
  });

  it("an open in flight when the tool is disposed closes what it opened", async () => {
    const { tool, backend } = setup();
    let release: () => void = () => {};
    backend.beforeOpen = () => new Promise<void>((resolve) => (release = resolve));
    const opening = tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    await delay(20);
    const disposing = tool.dispose();
    release();
    expect(await opening).toEqual({
      success: false,
      error: { code: "ABORTED", message: "preview was disposed while opening game.html." },
    });
    await disposing;
    expect(backend.last.closed).toBe(true);
    expect(tool.sessionCount()).toBe(0);
  });
});

describe("deadlines", () => {
  // timeoutMs 2,000 leaves a 500 ms deadline (1,500 ms are kept to report back).
  it("a call that never finishes is cut off at the deadline; a recovered session stays usable", async () => {
    const { tool, backend } = setup({ timeoutMs: 2_000 });
    backend.driver = {
      evaluate: ([code]) => (code === "loop" ? never() : { json: "2", total: 1, type: "number" }),
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const started = Date.now();
    const stuck = await tool.run({ op: "eval", code: "loop" }, { threadId: "t" });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(stuck).toEqual({
      success: false,
      error: {
        code: "TIMEOUT",
        message:
          "preview eval did not finish within 500 ms (a long or infinite loop in the artifact or the code?); its running script was stopped and the session is still open — read or eval to inspect it.",
        hint: "Look for loops that never yield (while(true), a missing exit condition), and keep waits short.",
        retryable: true,
      },
    });
    expect(backend.last.log).toContain("recover");
    expect(data(await tool.run({ op: "eval", code: "two" }, { threadId: "t" })).value_json).toBe(
      "2",
    );
  });

  it("a session that does not recover is closed, and the next call says why", async () => {
    const { tool, backend } = setup({ timeoutMs: 2_000 });
    backend.driver = { evaluate: () => never() };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    backend.last.recoverAnswer = "closed";
    const stuck = await tool.run({ op: "eval", code: "loop" }, { threadId: "t" });
    expect(stuck).toMatchObject({
      error: {
        code: "TIMEOUT",
        message: expect.stringContaining(
          'the session had to be closed — fix the artifact and call preview with op "open" again.',
        ),
      },
    });
    await delay(10);
    expect(backend.last.closed).toBe(true);
    expect(
      await tool.run({ op: "read", queries: [{ css: "p" }] }, { threadId: "t" }),
    ).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message:
          "No preview session is open (the session on game.html was closed after eval was cut off).",
      },
    });
  });

  it("an open whose load never ends is cut off as 'open of <path>'; one whose read hangs says it could not start", async () => {
    const { tool, backend } = setup({
      timeoutMs: 2_000,
      // A read that honours its signal (one that ignores it runs into the tool's own timeout).
      read: (_path, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
        ),
    });
    expect(await tool.run({ op: "open", path: "game.html" })).toEqual({
      success: false,
      error: {
        code: "TIMEOUT",
        message: "preview could not read or start game.html within 500 ms.",
        retryable: true,
      },
    });
    expect(backend.requests).toHaveLength(0);
    const loading = setup({ timeoutMs: 2_000 });
    loading.backend.driver = { loaded: () => never() };
    const stuck = await loading.tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    expect(stuck).toMatchObject({
      error: {
        code: "TIMEOUT",
        message: expect.stringMatching(/^preview open of game\.html did not finish within 500 ms/),
      },
    });
    expect(loading.tool.sessionCount()).toBe(1);
  });

  it("an abort stops the call, never the session", async () => {
    const { tool, backend } = setup();
    let calls = 0;
    backend.driver = {
      evaluate: () => (++calls === 1 ? never() : { json: "0", total: 1, type: "number" }),
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const aborted = await tool.run(
      { op: "eval", code: "wait" },
      { threadId: "t", signal: controller.signal },
    );
    expect(aborted).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(data(await tool.run({ op: "eval", code: "again" }, { threadId: "t" })).value_json).toBe(
      "0",
    );
    expect(backend.last.log).toContain("recover");
  });

  it("the console of a cut-off call is handed out with the next one (acknowledged batches only once)", async () => {
    const { tool, backend } = setup({ timeoutMs: 2_000 });
    backend.driver = {
      evaluate: async ([code], session) => {
        session.print("log", `inside ${code}`);
        if (code === "slow") await delay(700);
        return { json: "1", total: 1, type: "number" };
      },
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    expect(await tool.run({ op: "eval", code: "slow" }, { threadId: "t" })).toMatchObject({
      error: { code: "TIMEOUT" },
    });
    await delay(300);
    const next = data(await tool.run({ op: "eval", code: "quick" }, { threadId: "t" }));
    expect(next.console).toEqual([
      { level: "log", text: "inside slow", count: 1 },
      { level: "log", text: "inside quick", count: 1 },
    ]);
    const third = data(await tool.run({ op: "eval", code: "third" }, { threadId: "t" }));
    expect(third.console).toEqual([{ level: "log", text: "inside third", count: 1 }]);
  });
});

describe("ops", () => {
  it("act: checks the actions and the wait budget, runs them, settles a frame, names the failed one", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    expect(
      await tool.run(
        { op: "act", actions: [{ type: "click", x: 1 }, { type: "key" }] },
        { threadId: "t" },
      ),
    ).toEqual({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message:
          "Invalid input for preview: actions[0] (click) needs x and y, or selector; actions[1] (key) needs key.",
        hint: "Fix the actions named above and call again.",
      },
    });
    const budget = await tool.run(
      {
        op: "act",
        actions: [
          { type: "wait", ms: 28_000 },
          { type: "wait", ms: 500 },
        ],
      },
      { threadId: "t" },
    );
    expect(budget).toMatchObject({
      error: {
        code: "INVALID_INPUT",
        message:
          "The waits of this act add up to 28,500 ms (plus 50 ms for each of the 2 actions: 28,600 ms), more than the 28,500 ms one call may take (timeout 30,000 ms, 1,500 ms kept to report back).",
      },
    });
    backend.last.actHandler = (actions) => ({ completed: actions.length });
    const done = data(
      await tool.run(
        {
          op: "act",
          actions: [
            { type: "key", key: "a" },
            { type: "wait", ms: 5 },
          ],
        },
        { threadId: "t" },
      ),
    );
    expect(done).toMatchObject({ op: "act", requested: 2, completed: 2 });
    expect(done.failed).toBeUndefined();
    expect(backend.last.log.slice(-2)).toEqual(["act", "settle"]);
    backend.last.actHandler = () => ({
      completed: 1,
      failed: { index: 1, message: "no element matches #go" },
    });
    const failed = data(
      await tool.run(
        {
          op: "act",
          actions: [
            { type: "type", text: "hi" },
            { type: "click", selector: "#go" },
            { type: "scroll", dy: 3 },
          ],
        },
        { threadId: "t" },
      ),
    );
    expect(failed).toMatchObject({
      requested: 3,
      completed: 1,
      failed: { index: 1, type: "click #go", message: "no element matches #go" },
    });
  });

  it("read: values share the answer cap; absent attributes, errors and counts pass through", async () => {
    const { tool, backend } = setup();
    backend.driver = {
      read: () => [
        {
          css: "li",
          attr: "text",
          count: 7,
          values: [
            { text: "a".repeat(1_500), total: 1_500 },
            { text: "b".repeat(1_000), total: 1_200 },
            null,
          ],
        },
        { css: "[[x", attr: "text", error: "invalid CSS selector: bad" },
        { css: "#n", attr: "value", count: 1, values: [{ text: "v", total: 1 }] },
      ],
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const read = data(
      await tool.run(
        { op: "read", queries: [{ css: "li" }, { css: "[[x" }, { css: "#n", attr: "value" }] },
        { threadId: "t" },
      ),
    );
    expect(read.answers?.[0]).toEqual({
      css: "li",
      attr: "text",
      count: 7,
      values: ["a".repeat(1_500), "b".repeat(500), null],
      truncated: true,
      omitted_characters: 700,
    });
    expect(read.answers?.[1]).toEqual({
      css: "[[x",
      attr: "text",
      count: 0,
      values: [],
      truncated: false,
      error: "invalid CSS selector: bad",
    });
    expect(read.answers?.[2]).toEqual({
      css: "#n",
      attr: "value",
      count: 1,
      values: ["v"],
      truncated: false,
    });
  });

  it("eval: value, undefined, a cut value and a throw", async () => {
    const { tool, backend } = setup();
    const answers: Record<string, unknown> = {
      value: { json: '{"a":1}', total: 7, type: "object" },
      nothing: { type: "undefined", total: 0 },
      big: { json: "x".repeat(10), total: 25, type: "string" },
      throws: { error: "TypeError: nope", stack: "at x" },
    };
    backend.driver = { evaluate: ([code]) => answers[code as string] };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const run = async (code: string) =>
      data(await tool.run({ op: "eval", code }, { threadId: "t" }));
    expect(await run("value")).toMatchObject({
      value_json: '{"a":1}',
      value_type: "object",
      value_characters: 7,
      value_truncated: false,
    });
    expect(await run("nothing")).toMatchObject({
      value_json: null,
      value_type: "undefined",
      value_characters: 0,
      value_truncated: false,
    });
    expect(await run("big")).toMatchObject({ value_characters: 25, value_truncated: true });
    const thrown = await run("throws");
    expect(thrown.thrown).toBe("TypeError: nope");
    expect(thrown.value_json).toBeUndefined();
  });

  it("shot: the canvas from the driver, the viewport from the backend, or UNSUPPORTED", async () => {
    const { tool, backend } = setup({}, new FakeBackend({ kind: "paper" }));
    let canvas = true;
    backend.driver = {
      shot: () =>
        canvas
          ? {
              source: "canvas",
              selector: "canvas#game",
              canvases: 2,
              width: 10,
              height: 5,
              data: "iVBORw0KGgo=",
            }
          : { source: "viewport", canvases: 0, width: 800, height: 600 },
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    expect(data(await tool.run({ op: "shot" }, { threadId: "t" }))).toMatchObject({
      source: "canvas",
      selector: "canvas#game",
      canvases: 2,
      width: 10,
      height: 5,
      bytes: 8,
      mime_type: "image/png",
      image_base64: "iVBORw0KGgo=",
    });
    canvas = false;
    backend.last.viewportImage = { data: "AAA=", width: 640, height: 480 };
    const viewport = data(await tool.run({ op: "shot" }, { threadId: "t" }));
    expect(viewport).toMatchObject({
      source: "viewport",
      width: 640,
      height: 480,
      bytes: 2,
      image_base64: "AAA=",
    });
    expect(viewport.selector).toBeUndefined();
    backend.last.viewportImage = undefined;
    expect(await tool.run({ op: "shot" }, { threadId: "t" })).toEqual({
      success: false,
      error: {
        code: "UNSUPPORTED",
        message: "The artifact has no <canvas>, and the paper backend can only shoot canvases.",
        hint: "Use read or eval to check the page, or draw what you want to see into a canvas.",
      },
    });
    backend.driver = {
      shot: () => ({ source: "canvas", error: "the canvas cannot be read: tainted" }),
    };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "u" });
    expect(await tool.run({ op: "shot" }, { threadId: "u" })).toMatchObject({
      error: { code: "UNSUPPORTED", message: "the canvas cannot be read: tainted" },
    });
  });

  it("an unexpected driver failure is INTERNAL and names the op; the session stays", async () => {
    const { tool, backend } = setup();
    backend.driver = { read: () => Promise.reject(new Error("frame detached")) };
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    expect(await tool.run({ op: "read", queries: [{ css: "p" }] }, { threadId: "t" })).toEqual({
      success: false,
      error: {
        code: "INTERNAL",
        message: "preview read failed: frame detached",
        hint: 'Call preview with op "open" to start over; if it keeps failing, report it.',
      },
    });
    expect(tool.sessionCount()).toBe(1);
  });

  it("every op needs its own fields", async () => {
    const { tool } = setup();
    const refusal = async (input: unknown) => {
      const result = await tool.run(input);
      return result.success ? undefined : result.error;
    };
    expect(await refusal({ op: "open" })).toEqual({
      code: "INVALID_INPUT",
      message: 'Invalid input for preview: op "open" needs path.',
      hint: 'Send {op:"open", path:"your-artifact.html"}.',
    });
    expect((await refusal({ op: "read" }))?.message).toBe(
      'Invalid input for preview: op "read" needs queries (1 to 20).',
    );
    expect((await refusal({ op: "eval" }))?.message).toBe(
      'Invalid input for preview: op "eval" needs code.',
    );
    expect((await refusal({ op: "act" }))?.message).toBe(
      'Invalid input for preview: op "act" needs actions (1 to 32).',
    );
    expect(
      (
        await refusal({
          op: "act",
          actions: Array.from({ length: 33 }, () => ({ type: "wait", ms: 1 })),
        })
      )?.code,
    ).toBe("INVALID_INPUT");
    expect((await refusal({ op: "jump" }))?.code).toBe("INVALID_INPUT");
  });
});

describe("console", () => {
  it("merges the driver's entries with refused requests, collapses repeats, caps count and length", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const page = backend.last;
    page.print("warn", "careful");
    page.print("warn", "careful");
    page.print("log", "y".repeat(600));
    page.block("no network in preview: GET http://x refused");
    const shot = data(await tool.run({ op: "shot" }, { threadId: "t" }));
    expect(shot.console).toEqual([
      { level: "warn", text: "careful", count: 2 },
      { level: "log", text: `${"y".repeat(500)}…`, count: 1 },
      { level: "blocked", text: "no network in preview: GET http://x refused", count: 1 },
    ]);
    for (let index = 0; index < 45; index += 1) page.print("log", `line ${index}`);
    const capped = data(await tool.run({ op: "shot" }, { threadId: "t" }));
    expect(capped.console).toHaveLength(40);
    expect(capped.console_omitted).toBe(5);
    expect(capped.console[39]?.text).toBe("line 39");
    expect(data(await tool.run({ op: "shot" }, { threadId: "t" })).console).toEqual([]);
  });

  it("a refused request the driver saw too collapses into one entry across the two batches", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    backend.last.print("blocked", "no network in preview: img-src refused");
    backend.last.block("no network in preview: img-src refused");
    expect(data(await tool.run({ op: "shot" }, { threadId: "t" })).console).toEqual([
      { level: "blocked", text: "no network in preview: img-src refused", count: 2 },
    ]);
  });

  it("a drain that fails leaves the response without the driver's console", async () => {
    const { tool, backend } = setup();
    await tool.run({ op: "open", path: "game.html" }, { threadId: "t" });
    const page = backend.last;
    page.block("refused");
    page.print("log", "lost");
    page.closed = true;
    const closed = data(await tool.run({ op: "close" }, { threadId: "t" }));
    expect(closed.console).toEqual([{ level: "blocked", text: "refused", count: 1 }]);
  });
});
