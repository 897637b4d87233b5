import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { rolldown } from "rolldown";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PreviewToolData } from "./preview.js";
import {
  egressHtml,
  FOLDER_APP,
  FOLDER_APP_STATE,
  FORM_HTML,
  GAME_HTML,
  LOOP_ON_KEY_HTML,
  PLAIN_HTML,
  webrtcHtml,
} from "./test-support/artifacts.js";
import { decodePng, differingPixels } from "./test-support/png.js";
import { type RecordingServer, startRecordingServer } from "./test-support/recording-server.js";
import { startUdpListener, type UdpListener } from "./test-support/udp-listener.js";

// The iframe backend as a browser host uses it: the root entry bundled into a page served from
// 127.0.0.1 and loaded in real Chromium.
let browser: Browser;
let page: Page;
let host: Server;
let target: RecordingServer;
let stun: UdpListener;

beforeAll(async () => {
  const bundle = await rolldown({
    input: fileURLToPath(new URL("./test-support/iframe-host.ts", import.meta.url)),
    platform: "browser",
    logLevel: "silent",
  });
  const { output } = await bundle.generate({ format: "esm" });
  const code = output[0].code;
  target = await startRecordingServer();
  stun = await startUdpListener();
  const artifacts = {
    "game.html": GAME_HTML,
    "form.html": FORM_HTML,
    "plain.html": PLAIN_HTML,
    "loop.html": LOOP_ON_KEY_HTML,
    "egress.html": egressHtml(target.url, { navigations: false }),
    "navigate.html": egressHtml(target.url),
    // The prelude's stubs are the iframe backend's only WebRTC wall: a child frame is out of reach.
    "webrtc.html": webrtcHtml(stun.port, { childFrame: false }),
    ...Object.fromEntries(
      Object.entries(FOLDER_APP).filter(
        (entry): entry is [string, string] => typeof entry[1] === "string",
      ),
    ),
  };
  const binaryArtifacts = Object.fromEntries(
    Object.entries(FOLDER_APP)
      .filter((entry): entry is [string, Uint8Array] => typeof entry[1] !== "string")
      .map(([path, bytes]) => [path, Buffer.from(bytes).toString("base64")]),
  );
  host = createServer((request, response) => {
    if (request.url === "/bundle.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(code);
      return;
    }
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      `<!doctype html><html><body><script>window.ARTIFACTS = ${JSON.stringify(artifacts).replace(/</g, "\\u003c")}; window.BINARY_ARTIFACTS = ${JSON.stringify(binaryArtifacts)};</script><script type="module" src="/bundle.js"></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
  browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${(host.address() as AddressInfo).port}/`);
  await page.waitForFunction(() => "previewHost" in window);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => host?.close(resolve));
  await target?.close();
  await stun?.close();
});

async function run(
  input: unknown,
  threadId = "t",
  host: Page = page,
): Promise<{
  success: boolean;
  data?: PreviewToolData;
  error?: { code: string; message: string; retryable?: boolean };
}> {
  return host.evaluate(([value, thread]) => window.previewHost.run(value, thread as string), [
    input,
    threadId,
  ] as const) as never;
}

/** Another tab with the host page: its own browsing instance, so its own preview process. */
async function freshHostPage(): Promise<Page> {
  const fresh = await browser.newPage();
  await fresh.goto(page.url());
  await fresh.waitForFunction(() => "previewHost" in window);
  return fresh;
}

describe("preview in a sandboxed iframe (bundled page in Chromium)", () => {
  it("opens in an allow-scripts iframe, plays the game and shoots the canvas", async () => {
    const opened = await run({ op: "open", path: "game.html" });
    expect(opened).toMatchObject({
      success: true,
      data: {
        title: "Square game",
        canvases: 1,
        session: { backend: "iframe" },
        console: [{ level: "log", text: "game ready", count: 1 }],
      },
    });
    expect(await page.evaluate(() => window.previewHost.frames())).toEqual(["allow-scripts"]);
    const before = await run({ op: "shot" });
    const acted = await run({
      op: "act",
      actions: [
        { type: "key", key: "ArrowRight" },
        { type: "key", key: "ArrowRight" },
        { type: "key", key: "ArrowLeft" },
      ],
    });
    expect(acted).toMatchObject({
      success: true,
      data: {
        completed: 3,
        console: [{ text: "moved to 30" }, { text: "moved to 50" }, { text: "moved to 30" }],
      },
    });
    const after = await run({ op: "shot" });
    const first = decodePng(before.data?.image_base64 ?? "");
    const second = decodePng(after.data?.image_base64 ?? "");
    expect(differingPixels(first, second)).toBe(2 * 20 * 20);
    expect(await run({ op: "eval", code: "return game" })).toMatchObject({
      data: { value_json: '{"x":30,"y":50,"moves":3}' },
    });
  });

  it("reads the DOM, types and clicks, reports console and uncaught errors", async () => {
    const opened = await run({ op: "open", path: "form.html" });
    expect(opened.data?.console).toEqual([
      { level: "warn", text: "careful", count: 3 },
      { level: "error", text: 'bad {"a":1}', count: 1 },
    ]);
    await run({
      op: "act",
      actions: [
        { type: "click", selector: "#name" },
        { type: "type", text: "!" },
        { type: "click", selector: "#go" },
      ],
    });
    expect(
      await run({
        op: "read",
        queries: [{ css: "#out" }, { css: "li" }, { css: "#name", attr: "data-kind" }],
      }),
    ).toMatchObject({
      data: {
        answers: [
          { values: ["clicked start!"] },
          { count: 3, values: ["one", "two", "three"] },
          { values: ["text"] },
        ],
      },
    });
    const plain = await run({ op: "open", path: "plain.html" });
    expect(plain.data?.console).toEqual([
      {
        level: "uncaught",
        // The artifact's own column: its \`throw\` (107) or its \`new Error\` (113), as Chromium
        // reports the one or the other — not shifted by the driver inserted on that line.
        text: expect.stringMatching(/^Error: boom at load \(plain\.html line 1:(107|113)\)$/),
        count: 1,
      },
    ]);
    expect(await run({ op: "shot" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
  });

  it("the egress artifact reaches nothing: the local server sees zero requests; no host storage or cookies", async () => {
    await run({ op: "open", path: "egress.html" }, "egress");
    await run(
      {
        op: "act",
        actions: [
          { type: "click", selector: "#link" },
          { type: "wait", ms: 600 },
        ],
      },
      "egress",
    );
    const attempts = await run(
      {
        op: "eval",
        code: "let cookie; try { cookie = document.cookie; } catch (error) { cookie = error.name; } return { attempts: window.attempts, origin: self.origin, cookie, host: localStorage.getItem('host-secret') }",
      },
      "egress",
    );
    expect(attempts.success).toBe(true);
    const value = JSON.parse(attempts.data?.value_json ?? "{}") as {
      attempts: string[];
      origin: string;
      cookie: string;
      host: unknown;
    };
    expect(value).toMatchObject({ origin: "null", cookie: "SecurityError", host: null });
    expect(value.attempts).toEqual(
      expect.arrayContaining([
        "fetch: failed",
        "xhr: failed",
        "data-fetch: inline",
        "blob-fetch: blobbed",
        "localStorage: v",
      ]),
    );
    expect(await run({ op: "read", queries: [{ css: "title" }] }, "egress")).toMatchObject({
      data: { answers: [{ values: ["Egress"] }] },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.requests.filter((line) => line !== "(connection)")).toEqual([]);
  });

  it("navigations (location, meta refresh) never reach the server; the session then says to reopen", async () => {
    target.requests.length = 0;
    await run({ op: "open", path: "navigate.html" }, "navigate");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await run({ op: "read", queries: [{ css: "title" }] }, "navigate");
    if (!after.success) expect(after.error?.message).toMatch(/open|closed|gone/);
    expect(target.requests.filter((line) => line !== "(connection)")).toEqual([]);
  });

  it("WebRTC (STUN / TURN over UDP) sends zero packets: the prelude's stubs throw and cannot be replaced", async () => {
    await run({ op: "open", path: "webrtc.html" }, "webrtc");
    await run({ op: "act", actions: [{ type: "wait", ms: 2_000 }] }, "webrtc");
    const seen = await run({ op: "eval", code: "return window.webrtc" }, "webrtc");
    const notes = JSON.parse(seen.data?.value_json ?? "[]") as string[];
    expect(stun.packets).toEqual([]);
    expect(notes.sort()).toEqual([
      "blank frame: SecurityError",
      "sender: NotSupportedError",
      "tampering: kept",
      "webkit: NotSupportedError",
      "window: NotSupportedError",
    ]);
  });

  it("runs a folder app: inlined scripts (classic, module graph), stylesheet, images, and fetched JSON over the bridge", async () => {
    const requestsBefore = target.requests.length;
    const opened = await run({ op: "open", path: "app/index.html" }, "folder");
    expect(opened, JSON.stringify(opened.error)).toMatchObject({
      success: true,
      data: { title: "Folder app" },
    });
    const state = await run({ op: "eval", code: FOLDER_APP_STATE }, "folder");
    expect(JSON.parse(state.data?.value_json ?? "null")).toMatchObject({
      out: "alpha + beta",
      classic: true,
      color: "rgb(0, 128, 0)",
      logo: 1,
    });
    expect(JSON.parse(state.data?.value_json ?? "null").background).toMatch(
      /^url\("data:image\/png/,
    );
    await run({ op: "act", actions: [{ type: "click", selector: "#go" }] }, "folder");
    const clicked = await run({ op: "read", queries: [{ css: "#out" }] }, "folder");
    expect(clicked.data?.answers?.[0]?.values).toEqual(["clicked"]);
    const consoleText = JSON.stringify(
      [opened, state, clicked].map((result) => result.data?.console),
    );
    expect(consoleText).not.toContain("blocked");
    expect(consoleText).not.toContain("could not");
    const probe = await run(
      {
        op: "eval",
        code: `(async () => {
          const status = async (url, init) => { try { return (await fetch(url, init)).status; } catch { return 'refused'; } };
          return { env: await status('.env'), missing: await status('nope.json'), post: await status('data.json', { method: 'POST', body: 'x' }), other: await status('${target.url}') };
        })()`,
      },
      "folder",
    );
    expect(JSON.parse(probe.data?.value_json ?? "null")).toEqual({
      env: 403,
      missing: 404,
      post: 403,
      other: "refused",
    });
    const texts = JSON.stringify(probe.data?.console);
    expect(texts).toContain("preview could not serve app/.env");
    expect(texts).toContain("preview could not serve app/nope.json");
    expect(texts).not.toContain("hunter2");
    expect(target.requests.length).toBe(requestsBefore);
  });

  it("reports errors at the artifact's own line and by the inlined script's file", async () => {
    const opened = await run({ op: "open", path: "app/errors.html" }, "errors");
    const texts = JSON.stringify(opened.data?.console);
    expect(texts).toContain("missingFunction is not defined (app/errors.html line 5:3)");
    expect(texts).toContain("notDefinedAnywhere is not defined (app/broken.js line 2:1)");
  });

  it("an infinite loop ends in a timeout; the session then says whether it must be reopened", async () => {
    await run({ op: "open", path: "loop.html" }, "loop");
    const stuck = await run({ op: "act", actions: [{ type: "key", key: "a" }] }, "loop");
    expect(stuck).toMatchObject({ success: false, error: { code: "TIMEOUT" } });
    const next = await run({ op: "read", queries: [{ css: "#p" }] }, "loop");
    if (stuck.error?.message.includes("still open")) expect(next.success).toBe(true);
    else
      expect(next).toMatchObject({
        success: false,
        error: { message: expect.stringContaining("was closed") },
      });
    // A frame spinning in a loop cannot be stopped from the page: the session is closed and says so.
    expect(stuck.error?.message).toContain("the session had to be closed");
  });

  it("one conversation's runaway artifact does not hang the others: they are refused at once, saying why", async () => {
    // A tab of its own: after a runaway the browser may keep the page's preview process held.
    const tab = await freshHostPage();
    const timed = async (input: unknown, thread: string) => {
      const started = Date.now();
      const result = await run(input, thread, tab);
      return { result, ms: Date.now() - started };
    };
    try {
      expect(await run({ op: "open", path: "game.html" }, "calm", tab)).toMatchObject({
        success: true,
      });
      await run({ op: "open", path: "loop.html" }, "runaway", tab);
      const stuck = run({ op: "act", actions: [{ type: "key", key: "a" }] }, "runaway", tab);
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      // Held up by the other frame's loop (one renderer process): refused in a ping's time.
      const calm = await timed({ op: "eval", code: "game.x" }, "calm");
      expect(calm.ms).toBeLessThan(1_000);
      expect(calm.result).toMatchObject({
        success: false,
        error: {
          code: "TIMEOUT",
          message: expect.stringContaining("Another conversation's artifact (loop.html)"),
          retryable: true,
        },
      });
      const opened = await timed({ op: "open", path: "plain.html" }, "third");
      expect(opened.ms).toBeLessThan(2_000);
      expect(opened.result).toMatchObject({
        success: false,
        error: {
          code: "TIMEOUT",
          message: expect.stringContaining("(loop.html)"),
          retryable: true,
        },
      });
      expect(await stuck).toMatchObject({
        success: false,
        error: {
          code: "TIMEOUT",
          message: expect.stringContaining("the session had to be closed"),
        },
      });
      // Afterwards: the calm conversation answers, or says at once that the browser ended it too;
      // a new open loads, or is refused at once while the browser still holds the process.
      const after = await timed({ op: "eval", code: "game.x" }, "calm");
      expect(after.ms).toBeLessThan(1_500);
      if (!after.result.success)
        expect(after.result.error?.message).toMatch(
          /the browser ended it together with loop\.html|\(loop\.html\) stopped answering .* no preview can load here until it ends/,
        );
      const reopened = await timed({ op: "open", path: "game.html" }, "calm");
      expect(reopened.ms).toBeLessThan(2_000);
      if (!reopened.result.success)
        expect(reopened.result.error).toMatchObject({
          code: "TIMEOUT",
          message: expect.stringContaining("no preview can load here until it ends"),
          retryable: true,
        });
    } finally {
      await tab.close();
    }
  });
});
