import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { WebFetchToolData, WebFetchToolOptions } from "@agentool/tools-web";
import { createNodeWebFetchTool } from "@agentool/tools-web/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RecordingServer, startRecordingServer } from "../test-support/recording-server.js";
import { CHROMIUM_PREVIEW_ARGS, DEFAULT_CHROMIUM_PATH } from "./chromium-backend.js";
import { createChromiumRenderer } from "./chromium-renderer.js";
import { launchedPreviewBrowsers } from "./shared-browser.js";

// No skipping: without Chromium these tests must fail, loudly.
if (!existsSync(DEFAULT_CHROMIUM_PATH)) {
  throw new Error(
    `Chromium is missing at ${DEFAULT_CHROMIUM_PATH}: install it (apt-get install -y chromium) to run the renderer tests.`,
  );
}

const SHELL = `<!doctype html><html><head><title>Tide app</title></head><body>
<main id="app">Loading…</main>
<script>
fetch("/data.json").then((r) => r.json()).then((d) => {
  const h = document.createElement("h1"); h.textContent = d.title;
  const p = document.createElement("p"); p.textContent = d.text;
  const app = document.getElementById("app"); app.replaceChildren(h, p);
});
</script></body></html>`;

function hostileShell(forbidden: string): string {
  return `<!doctype html><html><head><title>Hostile</title>
<link rel="stylesheet" href="${forbidden}/style.css">
<script src="${forbidden}/script.js"></script></head><body>
<main id="app">Loading…</main>
<img src="${forbidden}/image.png"><iframe src="${forbidden}/frame.html"></iframe>
<form id="form" action="${forbidden}/form" method="post"><input name="a" value="1"></form>
<script>
window.attempts = [];
const note = (what, how) => { window.attempts.push(what + ": " + how); document.getElementById("log").textContent = window.attempts.join(", "); };
fetch("${forbidden}/fetch").then(() => note("fetch", "answered"), () => note("fetch", "failed"));
fetch("http://169.254.169.254/latest/meta-data/").then(() => note("metadata", "answered"), () => note("metadata", "failed"));
fetch("/hop-to-forbidden").then(() => note("hop", "answered"), () => note("hop", "failed"));
try { const socket = new WebSocket("${forbidden.replace("http", "ws")}/socket"); socket.onerror = () => note("websocket", "failed"); } catch (e) { note("websocket", "threw"); }
try { navigator.sendBeacon("${forbidden}/beacon", "x"); } catch (e) {}
try { new EventSource("${forbidden}/events"); } catch (e) {}
try { navigator.serviceWorker && navigator.serviceWorker.register("/sw.js").catch(() => note("serviceworker", "failed")); } catch (e) { note("serviceworker", "threw"); }
try { window.open("${forbidden}/popup"); } catch (e) {}
const image = new Image(); image.src = "${forbidden}/dynamic.png";
fetch("/data.json").then((r) => r.json()).then((d) => { document.getElementById("app").textContent = d.text; });
setTimeout(() => { try { document.getElementById("form").submit(); } catch (e) {} }, 20);
</script><p id="log"></p></body></html>`;
}

let forbidden: RecordingServer;
let site: Server;
let origin: string;
let port: number;
const served: string[] = [];

beforeAll(async () => {
  forbidden = await startRecordingServer();
  site = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    served.push(`${request.method} ${path}`);
    if (path === "/app") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(SHELL);
    } else if (path === "/hostile") {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      response.end(hostileShell(forbidden.url));
    } else if (path === "/data.json") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ title: "Tide tables", text: "High water at 06:12, built by JavaScript." }),
      );
    } else if (path === "/hop-to-forbidden" || path === "/to-forbidden") {
      response.writeHead(302, { location: `${forbidden.url}/redirected` });
      response.end();
    } else if (path === "/to-metadata") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      response.end();
    } else if (path === "/loop") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><title>Loop</title><p>x</p><script>while (true) {}</script>");
    } else if (path === "/slow-page") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(
        '<!doctype html><title>Slow</title><main id="app">Waiting</main><script>fetch("/never")</script>',
      );
    } else if (path === "/never") {
      // never answers
    } else {
      response.writeHead(404, { "content-type": "text/plain" });
      response.end("not found");
    }
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  port = (site.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
  await forbidden.close();
});

const renderer = createChromiumRenderer();
afterAll(async () => {
  await renderer.dispose();
});

function webFetch(options: WebFetchToolOptions = {}) {
  // Only the site's own port is allowed: the recording server (another port) and metadata are not.
  return createNodeWebFetchTool({
    allowHosts: [`127.0.0.1:${port}`],
    cacheTtlMs: 0,
    readability: false,
    render: renderer.render,
    ...options,
  });
}

async function read(url: string, input: Record<string, unknown> = {}, options = {}) {
  const tool = webFetch(options);
  const result = await tool.run({ url, ...input });
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return { data: result.data as WebFetchToolData, text: tool.renderResult(result) as string };
}

describe("createChromiumRenderer with web_fetch", () => {
  it("render=true returns the JS-built text; without it only the shell", async () => {
    const rendered = await read(`${origin}/app`, { render: true });
    expect(rendered.data.rendered).toBe(true);
    expect(rendered.data.content).toContain("# Tide tables");
    expect(rendered.data.content).toContain("High water at 06:12, built by JavaScript.");
    expect(rendered.data.content).not.toContain("Loading…");
    expect(rendered.text).toContain("HTML → Markdown (rendered)");
    const plain = await read(`${origin}/app`);
    expect(plain.data.rendered).toBe(false);
    expect(plain.data.content).toContain("Loading…");
    expect(plain.data.content).not.toContain("High water");
  });

  it("the page is fetched once by web_fetch; its script's request goes through the guarded fetch", async () => {
    served.length = 0;
    await read(`${origin}/app`, { render: true });
    expect(served).toEqual(["GET /app", "GET /data.json"]);
  });

  it("a page that reaches for forbidden addresses: the forbidden server sees zero requests, the render succeeds", async () => {
    await fetch(`${forbidden.url}/from-the-test`);
    expect(forbidden.requests).toEqual(["(connection)", "GET /from-the-test"]);
    forbidden.requests.length = 0;
    const { data } = await read(`${origin}/hostile`, { render: true });
    expect(data.rendered).toBe(true);
    expect(data.content).toContain("High water at 06:12, built by JavaScript.");
    expect(data.content).toContain("fetch: failed");
    expect(data.content).toContain("metadata: failed");
    expect(data.content).toContain("hop: failed");
    expect(data.final_url).toBe(`${origin}/hostile`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(forbidden.requests).toEqual([]);
  });

  it("a page redirecting to a forbidden host or metadata is refused (BLOCKED), nothing reaches it", async () => {
    forbidden.requests.length = 0;
    for (const path of ["/to-forbidden", "/to-metadata"]) {
      const result = await webFetch().run({ url: `${origin}${path}`, render: true });
      expect(result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    }
    expect(forbidden.requests).toEqual([]);
  });

  it("a page whose script never yields → TIMEOUT naming render=false; the renderer still works after", async () => {
    const quick = createChromiumRenderer({ timeoutMs: 2_000 });
    try {
      const started = Date.now();
      const result = await webFetch({ render: quick.render }).run({
        url: `${origin}/loop`,
        render: true,
      });
      expect(result.success).toBe(false);
      if (result.success) return;
      expect(result.error.code).toBe("TIMEOUT");
      expect(result.error.hint).toContain("render=false");
      expect(Date.now() - started).toBeLessThan(10_000);
      const again = await webFetch({ render: quick.render }).run({
        url: `${origin}/app`,
        render: true,
      });
      expect(again.success && again.data.content).toContain("High water");
    } finally {
      await quick.dispose();
    }
  });

  it("a request that never answers does not hold the render past its settle window", async () => {
    const started = Date.now();
    const { data } = await read(`${origin}/slow-page`, { render: true });
    expect(data.content).toContain("Waiting");
    expect(Date.now() - started).toBeLessThan(12_000);
  });

  it("aborting the call aborts the render (ABORTED)", async () => {
    const controller = new AbortController();
    const pending = webFetch().run(
      { url: `${origin}/loop`, render: true },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 500);
    const result = await pending;
    expect(result).toMatchObject({ success: false, error: { code: "ABORTED" } });
  });

  it("fails closed without web_fetch's guarded fetch; a missing Chromium is DEPENDENCY_MISSING", async () => {
    await expect(
      renderer.render(`${origin}/app`, new AbortController().signal, undefined as never),
    ).rejects.toMatchObject({ code: "NOT_CONFIGURED" });
    const missing = createChromiumRenderer({ executablePath: "/nonexistent/chromium" });
    try {
      const result = await webFetch({ render: missing.render }).run({
        url: `${origin}/app`,
        render: true,
      });
      expect(result).toMatchObject({ success: false, error: { code: "DEPENDENCY_MISSING" } });
      if (!result.success) expect(result.error.hint).toContain("render=false");
    } finally {
      await missing.dispose();
    }
  });

  it("the renderer's browser keeps site isolation (only the preview's browser turns it off)", async () => {
    const marker = `--agentool-render-isolation=${process.pid}`;
    const renderer = createChromiumRenderer({ launchOptions: { args: [marker] } });
    try {
      await read(`${origin}/app`, { render: true }, { render: renderer.render });
      const browsers = spawnSync("ps", ["-eo", "args"], { encoding: "utf8" })
        .stdout.split("\n")
        .filter((line) => line.includes(marker) && !line.includes("--type="));
      expect(browsers).toHaveLength(1);
      expect(browsers[0]).not.toContain("--disable-site-isolation-trials");
      expect(CHROMIUM_PREVIEW_ARGS).toContain("--disable-site-isolation-trials");
    } finally {
      await renderer.dispose();
    }
  });

  it("one browser shared by renderers with the same settings, closed with the last one", async () => {
    const first = createChromiumRenderer({ launchOptions: { args: ["--agentool-render-pool"] } });
    const second = createChromiumRenderer({ launchOptions: { args: ["--agentool-render-pool"] } });
    const before = launchedPreviewBrowsers();
    await read(`${origin}/app`, { render: true }, { render: first.render });
    await read(`${origin}/app`, { render: true }, { render: second.render });
    expect(launchedPreviewBrowsers()).toBe(before + 1);
    await first.dispose();
    expect(launchedPreviewBrowsers()).toBe(before + 1);
    await second.dispose();
    expect(launchedPreviewBrowsers()).toBe(before);
    const disposed = await webFetch({ render: first.render }).run({
      url: `${origin}/app`,
      render: true,
    });
    expect(disposed).toMatchObject({ success: false, error: { code: "NOT_CONFIGURED" } });
  });
});
