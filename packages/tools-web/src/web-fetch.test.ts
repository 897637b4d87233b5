import { ToolFailureError } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { createReadabilityExtractor } from "./internal/content-extractor.js";
import { type HttpTransport, WebRequestError } from "./internal/http-transport.js";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { startServer } from "./test-support/http-server.js";
import { GZIP_BOMB_BYTES, startPagesServer } from "./test-support/pages-server.js";
import {
  createWebFetchTool,
  type WebFetchToolData,
  type WebFetchToolOptions,
} from "./web-fetch.js";

const pages = await startPagesServer();
const at = (path: string) => `${pages.origin}${path}`;
const localTool = (options: WebFetchToolOptions = {}) =>
  createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], ...options });

async function fetchData(
  path: string,
  options: WebFetchToolOptions = {},
  input: Record<string, unknown> = {},
) {
  const tool = localTool(options);
  const result = await tool.run({ url: at(path), ...input });
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return { data: result.data as WebFetchToolData, text: tool.renderResult(result) as string };
}

describe("web_fetch: the response decides the treatment", () => {
  it("HTML → Markdown: headings, table, list, code fence with language, absolute links, no scripts", async () => {
    const { data, text } = await fetchData("/article", { readability: false });
    expect(data.kind).toBe("html");
    expect(data.title).toBe("Tides & Moons — Ocean Notes");
    expect(data.content).toContain("# How the Moon drives the tides");
    expect(data.content).toContain("## Tidal ranges");
    expect(data.content).toMatch(/\| Place +\| Range \(m\) \|\n\| -+ \| -+ \|/);
    expect(data.content).toContain("```python\ndef tide(hours):");
    expect(data.content).toContain(`[spring tides](${pages.origin}/guides/spring-tides.html)`);
    expect(data.content).toContain("[neap tides](https://other.example/neap)");
    expect(data.content).toMatch(/^- Diurnal tides/m);
    expect(data.content).not.toContain("tracking");
    expect(data.content).not.toContain("color: red");
    // the full page keeps navigation and sidebar
    expect(data.content).toContain("NAVIGATION-SHOP-LINK");
    expect(text.split("\n")[0]).toBe("# Tides & Moons — Ocean Notes");
    expect(text).toContain(`URL: ${at("/article")}`);
  });

  it("Readability is the default: the article only, the full page where there is none", async () => {
    const { data, text } = await fetchData("/article");
    expect(data.main_content).toBe(true);
    expect(data.content).toContain("spring tides");
    expect(data.content).not.toContain("NAVIGATION-SHOP-LINK");
    expect(text).toContain("HTML → Markdown (main content)");
    const home = await fetchData("/home");
    expect(home.data.main_content).toBe(false);
    const root = createWebFetchTool({ allowHosts: ["127.0.0.1"] });
    const fromRoot = await root.run({ url: at("/article") });
    expect(fromRoot.success && fromRoot.data.main_content).toBe(true);
    const whole = createWebFetchTool({ readability: false, allowHosts: ["127.0.0.1"] });
    const wholePage = await whole.run({ url: at("/article") });
    expect(wholePage.success && wholePage.data.main_content).toBe(false);
  });

  it("the Readability extractor keeps the article only, and falls back on pages without one", async () => {
    const extractor = createReadabilityExtractor();
    const { data } = await fetchData("/article", { extractor });
    expect(data.main_content).toBe(true);
    expect(data.content).toContain("spring tides");
    expect(data.content).not.toContain("NAVIGATION-SHOP-LINK");
    expect(data.content).not.toContain("SIDEBAR-ADVERT");
    // the code block keeps its language through the extractor
    expect(data.content).toContain("```python");
    const home = await fetchData("/home", { extractor });
    expect(home.data.main_content).toBe(false);
    expect(home.data.content).toContain(`[One](${pages.origin}/1)`);
    const throwing = await fetchData("/article", {
      extractor: () => {
        throw new Error("extractor bug");
      },
    });
    expect(throwing.data.main_content).toBe(false);
    expect(throwing.data.content).toContain("NAVIGATION-SHOP-LINK");
  });

  it("JSON is pretty-printed, also when served as text/plain", async () => {
    const { data } = await fetchData("/data.json");
    expect(data.kind).toBe("json");
    expect(data.content).toBe(
      JSON.stringify({ name: "tides", values: [1, 2, 3], nested: { ok: true } }, null, 2),
    );
    expect((await fetchData("/json-as-text")).data.kind).toBe("json");
  });

  it("RSS 2.0 and Atom become entries", async () => {
    const rss = await fetchData("/feed.rss");
    expect(rss.data.kind).toBe("feed");
    expect(rss.data.title).toBe("Ocean Notes");
    expect(rss.data.entries).toEqual([
      {
        title: "Spring tides explained",
        url: "https://ocean.example/spring",
        date: "2025-06-10T09:00:00.000Z",
        summary: "When the Sun and Moon align.",
      },
      {
        title: "Neap & tidal range",
        url: `${pages.origin}/neap`,
        date: "2025-06-02T09:00:00.000Z",
        summary: "Right angles make small tides.",
      },
    ]);
    const atom = await fetchData("/atom.xml");
    expect(atom.data.kind).toBe("feed");
    expect(atom.data.entries?.map((entry) => [entry.title, entry.url, entry.summary])).toEqual([
      ["First entry", "https://log.example/1", "The first log entry."],
      ["Second entry", "https://log.example/2", "Second content"],
    ]);
    expect(atom.text).toContain("feed, 2 entries");
  });

  it("a real PDF becomes text via unpdf, by content type or by %PDF- magic", async () => {
    const { data, text } = await fetchData("/doc.pdf");
    expect(data.kind).toBe("pdf");
    expect(data.pages).toBe(2);
    expect(data.title).toBe("Tide Tables");
    expect(data.content).toContain("Tide tables for 2025");
    expect(data.content).toContain("Page two mentions spring tides");
    expect(text).toContain("PDF → text, 2 pages");
    expect((await fetchData("/pdf-without-type")).data.kind).toBe("pdf");
  });

  it("a missing PDF library is DEPENDENCY_MISSING with an install hint, never a crash", async () => {
    const { importOptionalPeer } = await import("./internal/optional-import.js");
    const tool = localTool({
      pdfExtractor: () =>
        importOptionalPeer("agentool-package-that-is-not-installed", "Reading PDF files"),
    });
    const result = await tool.run({ url: at("/doc.pdf") });
    expect(!result.success && result.error).toMatchObject({
      code: "DEPENDENCY_MISSING",
      hint: expect.stringContaining("pnpm add agentool-package-that-is-not-installed"),
    });
    // A PDF extractor's coded failure reports no `retryable` (as it always has).
    expect(!result.success && "retryable" in result.error).toBe(false);
  });

  it("a transport's WebRequestError is a ToolFailureError, reported with its code, hint and retryable", async () => {
    const refused = new WebRequestError("BLOCKED", "The proxy refused example.com.", {
      hint: "Use another source.",
      retryable: false,
    });
    expect(ToolFailureError.isInstance(refused)).toBe(true);
    expect(WebRequestError.isInstance(refused)).toBe(true);
    expect(WebRequestError.isInstance(new ToolFailureError("BLOCKED", "no"))).toBe(false);
    expect(refused).toMatchObject({ name: "WebRequestError", code: "BLOCKED" });
    expect(WebRequestError.find(new Error("wrapped", { cause: refused }))).toBe(refused);
    const tool = createWebFetchTool({
      transport: async () => {
        throw new Error("fetch failed", { cause: refused });
      },
    });
    expect(await tool.run({ url: "https://example.com/" })).toStrictEqual({
      success: false,
      error: {
        code: "BLOCKED",
        message: "The proxy refused example.com.",
        hint: "Use another source.",
        retryable: false,
      },
    });
  });

  it("text comes raw; mislabelled HTML is still HTML; binary is refused", async () => {
    expect((await fetchData("/notes.txt")).data).toMatchObject({
      kind: "text",
      content: "plain notes\nsecond line",
    });
    expect((await fetchData("/html-as-octet-stream")).data).toMatchObject({
      kind: "html",
      title: "Mislabelled",
    });
    for (const path of ["/image.png", "/binary"]) {
      const result = await localTool().run({ url: at(path) });
      expect(!result.success && result.error.code).toBe("UNSUPPORTED");
    }
  });

  it("raw returns the body as received", async () => {
    const { data } = await fetchData("/article", {}, { raw: true });
    expect(data.kind).toBe("text");
    expect(data.content).toContain('<nav class="site-nav">');
  });

  it("an empty page says why it is empty", async () => {
    const { data, text } = await fetchData("/empty");
    expect(data.total).toBe(0);
    expect(text).toMatch(/The document is empty: .* returned no readable text/);
  });

  it("HTTP error statuses are NETWORK_ERROR naming the status and the next step", async () => {
    const gone = await localTool().run({ url: at("/gone") });
    expect(!gone.success && gone.error).toMatchObject({ code: "NETWORK_ERROR", retryable: false });
    expect(!gone.success && gone.error.message).toContain("404");
    const failing = await localTool().run({ url: at("/server-error") });
    expect(!failing.success && failing.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
    const forbidden = await localTool().run({ url: at("/forbidden") });
    expect(!forbidden.success && forbidden.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: false,
      message: expect.stringContaining("403"),
    });
  });
});

describe("web_fetch: paging, cache, redirects, caps, time", () => {
  it("pages long output: 1-based offset, limit, total, next_offset, truncated and the exact next call", async () => {
    const tool = localTool();
    const first = await tool.run({ url: at("/long.txt"), limit: 1_000 });
    expect(first.success).toBe(true);
    if (!first.success) return;
    const { next_offset: next, total } = first.data;
    expect(first.data).toMatchObject({ offset: 1, limit: 1_000, truncated: true, raw: false });
    expect(next).toBeGreaterThan(800);
    expect(next).toBeLessThanOrEqual(1_001);
    expect(first.data.content.length).toBe((next ?? 0) - 1);
    expect(first.data.content.endsWith("\n")).toBe(true);
    const text = tool.renderResult(first) as string;
    expect(text).toContain(`characters 1–${(next ?? 0) - 1} of ${total.toLocaleString("en-US")}`);
    expect(text.split("\n").at(-1)).toBe(
      `…[truncated: ${(total - (next ?? 0) + 1).toLocaleString("en-US")} more characters — call web_fetch again with url="${at("/long.txt")}", limit=1000, offset=${next}]`,
    );
    const second = await tool.run({ url: at("/long.txt"), limit: 1_000, offset: next });
    expect(second.success && second.data.content.startsWith("Line ")).toBe(true);
    expect(second.success && second.data.cached).toBe(true);
    expect(second.success && second.data.offset).toBe(next);
    // the pages join up to the whole text, and the last page has no next_offset
    let offset: number | undefined = 1;
    let joined = "";
    let pages = 0;
    while (offset !== undefined) {
      const page = await tool.run({ url: at("/long.txt"), limit: 20_000, offset });
      if (!page.success) throw new Error(page.error.message);
      joined += page.data.content;
      offset = page.data.next_offset;
      pages += 1;
      if (offset === undefined) {
        expect(page.data.truncated).toBe(false);
        expect(tool.renderResult(page)).not.toContain("[truncated");
      }
    }
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(total / 20_000));
    expect(pages).toBeLessThanOrEqual(Math.ceil(total / 16_000));
    expect(joined.length).toBe(total);
    expect(joined.startsWith("Line 1: ")).toBe(true);
    expect(joined.endsWith("Line 2000: the tide rises and falls.")).toBe(true);
  });

  it("the default page size is not repeated in the marker; raw is", async () => {
    const tool = localTool({ defaultMaxChars: 1_000, readability: false });
    const plain = await tool.run({ url: at("/long.txt") });
    expect(tool.renderResult(plain)).toMatch(
      /call web_fetch again with url="[^"]+\/long\.txt", offset=\d+\]$/,
    );
    const raw = await tool.run({ url: at("/article"), raw: true, limit: 500 });
    expect(tool.renderResult(raw)).toMatch(
      /call web_fetch again with url="[^"]+\/article", raw=true, limit=500, offset=\d+\]$/,
    );
  });

  it("an offset past the end is the contract's INVALID_INPUT naming the total; offset 1 of an empty page is fine", async () => {
    const tool = localTool();
    const past = await tool.run({ url: at("/notes.txt"), offset: 100 });
    expect(past).toMatchObject({
      success: false,
      error: {
        code: "INVALID_INPUT",
        message: "offset=100 is past the end: there are 23 characters in all.",
        hint: "Call web_fetch again with an offset between 1 and 23.",
      },
    });
    const zero = await tool.run({ url: at("/notes.txt"), offset: 0 });
    expect(!zero.success && zero.error.message).toContain("offset");
    const empty = await tool.run({ url: at("/empty"), offset: 1 });
    expect(empty.success && empty.data).toMatchObject({ total: 0, truncated: false });
  });

  it("max_chars / uri / link are silent aliases (limit, url)", async () => {
    const tool = localTool();
    const result = await tool.run({ uri: at("/long.txt"), max_chars: 500 });
    expect(result.success && result.data).toMatchObject({ limit: 500, url: at("/long.txt") });
    expect((await tool.run({ link: at("/notes.txt") })).success).toBe(true);
    expect(Object.keys(tool.input.shape)).toEqual(["url", "offset", "limit", "raw", "max_entries"]);
  });

  it("a repeated call returns the same data (same call, same output); a later page differs only in cached", async () => {
    const tool = localTool({ now: () => new Date("2025-06-01T10:00:00Z") });
    const first = await tool.run({ url: at("/article") });
    const second = await tool.run({ url: at("/article") });
    expect(first.success && second.success).toBe(true);
    if (!first.success || !second.success) return;
    expect(first.data.cached).toBe(false);
    expect(second.data).toEqual(first.data);
    const later = await tool.run({ url: at("/long.txt"), offset: 101 });
    const again = await tool.run({ url: at("/long.txt"), offset: 101 });
    expect(later.success && again.success).toBe(true);
    if (!later.success || !again.success) return;
    expect(again.data).toEqual({ ...later.data, cached: true });
  });

  it("every data key is snake_case, nested ones too", async () => {
    const { data } = await fetchData("/feed.rss");
    const keys = JSON.stringify(data).match(/"([A-Za-z_]+)":/g) ?? [];
    for (const key of keys) expect(key).toMatch(/^"[a-z_]+":$/);
    expect(Object.keys(data)).toEqual(
      expect.arrayContaining([
        "final_url",
        "content_type",
        "main_content",
        "body_truncated",
        "next_offset" in data ? "next_offset" : "total",
      ]),
    );
  });

  it("a feed over the entry default says how many it kept and how to list all, with no marker baked into the content", async () => {
    const { data, text } = await fetchData("/feed.rss", { maxFeedEntries: 1 });
    expect(data.entries).toHaveLength(1);
    expect(data.entries_total).toBe(2);
    expect(data.max_entries).toBe(1);
    expect(data.content).not.toContain("truncated");
    expect(text).toContain("feed, the first 1 of 2 entries (max_entries=2 lists all)");
  });

  it("caches per URL for the later pages of a walk; the first page fetches afresh; 0 disables", async () => {
    const count = () => pages.requests.filter((request) => request.url === "/notes.txt").length;
    const before = count();
    const cached = localTool();
    await cached.run({ url: at("/notes.txt") });
    await cached.run({ url: at("/notes.txt"), offset: 5 });
    await cached.run({ url: at("/notes.txt"), offset: 9 });
    expect(count() - before).toBe(1);
    await cached.run({ url: at("/notes.txt") });
    expect(count() - before).toBe(2);
    const uncached = localTool({ cacheTtlMs: 0 });
    await uncached.run({ url: at("/notes.txt") });
    await uncached.run({ url: at("/notes.txt"), offset: 5 });
    expect(count() - before).toBe(4);
  });

  it("follows a redirect chain and reports the final URL", async () => {
    const { data, text } = await fetchData("/redirect/1");
    expect(data.final_url).toBe(at("/article"));
    expect(data.url).toBe(at("/redirect/1"));
    expect(text).toContain(`(redirected from ${at("/redirect/1")})`);
  });

  it("stops a redirect loop after 5 hops", async () => {
    const before = pages.requests.filter((request) => request.url === "/loop").length;
    const result = await localTool().run({ url: at("/loop") });
    expect(!result.success && result.error.message).toMatch(/Stopped after 5 redirects/);
    expect(pages.requests.filter((request) => request.url === "/loop").length - before).toBe(6);
  });

  it("an endless body stops at the byte cap and the connection is closed", async () => {
    const { data } = await fetchData("/endless", { maxResponseBytes: 256 * 1024 });
    expect(data.body_truncated).toBe(true);
    expect(data.total).toBe(256 * 1024);
    await expect.poll(() => pages.endlessWritten.length).toBeGreaterThan(0);
    expect(pages.endlessWritten[0]).toBeLessThan(64 * 1_048_576);
  });

  it("a gzip bomb stops at the cap on decoded bytes", async () => {
    const started = performance.now();
    const { data, text } = await fetchData("/gzip-bomb", { maxResponseBytes: 1_048_576 });
    expect(data.body_truncated).toBe(true);
    expect(data.total).toBe(1_048_576);
    expect(GZIP_BOMB_BYTES).toBeGreaterThan(data.total * 60);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(text).toContain("larger than the size cap");
  });

  it("the same caps hold on the plain fetch transport (runtime-neutral entry)", async () => {
    const tool = createWebFetchTool({ maxResponseBytes: 1_048_576, allowHosts: ["127.0.0.1"] });
    const result = await tool.run({ url: at("/gzip-bomb") });
    expect(result.success && result.data.total).toBe(1_048_576);
  });

  it("a slow server hits the timeout; the caller's abort cancels", async () => {
    const slow = localTool({ timeoutMs: 300 });
    const timedOut = await slow.run({ url: at("/slow") });
    expect(!timedOut.success && timedOut.error.code).toBe("TIMEOUT");
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const aborted = await localTool().run({ url: at("/slow") }, { signal: controller.signal });
    expect(!aborted.success && aborted.error.code).toBe("ABORTED");
  });

  it("refuses non-http schemes, credentials and non-URLs", async () => {
    const tool = localTool();
    for (const url of [
      "file:///etc/passwd",
      "ftp://files.example/x",
      "javascript:alert(1)",
      "data:text/plain,hi",
    ]) {
      const result = await tool.run({ url });
      expect(!result.success && result.error.code).toBe("BLOCKED");
    }
    const credentials = await tool.run({ url: "http://user:secret@127.0.0.1/" });
    expect(!credentials.success && credentials.error.code).toBe("BLOCKED");
    const bare = await tool.run({ url: "example.com/page" });
    expect(!bare.success && bare.error.hint).toContain("https://example.com/page");
  });

  it("sends the honest User-Agent unless the host sets userAgent, and the origin's headers", async () => {
    const plain = await fetchData("/echo-headers");
    expect(JSON.parse(plain.data.content).ua).toMatch(/^agentool-tools-web\//);
    const custom = await fetchData("/echo-headers", {
      userAgent: "MyBot/1.0",
      headers: [{ origin: pages.origin, headers: { Authorization: "Bearer host" } }],
    });
    expect(JSON.parse(custom.data.content)).toEqual({
      ua: "MyBot/1.0",
      authorization: "Bearer host",
    });
  });
});

describe("web_fetch on the runtime-neutral entry: forward and transport", () => {
  it("forward routes reads through a proxy while the model only sees the target URL", async () => {
    const proxy = await startServer({
      "/proxy": async (request, response) => {
        const target = new URL(request.url ?? "", "http://x").searchParams.get("url") ?? "";
        const upstream = await fetch(target);
        response.writeHead(upstream.status, {
          "content-type": upstream.headers.get("content-type") ?? "",
        });
        response.end(Buffer.from(await upstream.arrayBuffer()));
      },
    });
    const target = "https://tides.example/guide/article";
    const tool = createWebFetchTool({
      forward: (url) =>
        `${proxy.origin}/proxy?url=${encodeURIComponent(url.replace("https://tides.example/guide", pages.origin))}`,
    });
    const result = await tool.run({ url: target });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.final_url).toBe(target);
    expect(result.data.content).toContain(
      "[spring tides](https://tides.example/guides/spring-tides.html)",
    );
    expect(JSON.stringify(tool.renderResult(result))).not.toContain(proxy.origin);
    const template = createWebFetchTool({ forward: `${pages.origin}/notes.txt?for={urlEncoded}` });
    const templated = await template.run({ url: "https://x.example/a?b=1" });
    expect(templated.success && templated.data.content).toBe("plain notes\nsecond line");
    expect(pages.requests.at(-1)?.url).toBe(
      `/notes.txt?for=${encodeURIComponent("https://x.example/a?b=1")}`,
    );
  });

  it("an injected transport replaces fetch (runtimes without it)", async () => {
    const seen: string[] = [];
    const transport: HttpTransport = async (request) => {
      seen.push(request.url);
      return {
        status: 200,
        url: request.url,
        headers: { "content-type": "text/html" },
        body: new TextEncoder().encode("<h1>From the transport</h1>"),
        truncated: false,
      };
    };
    const tool = createWebFetchTool({ transport });
    const result = await tool.run({ url: "https://mini.example/page" });
    expect(result.success && result.data.content).toBe("# From the transport");
    expect(seen).toEqual(["https://mini.example/page"]);
    const throwing = createWebFetchTool({
      transport: async () => {
        throw new Error("socket hang up");
      },
    });
    const failed = await throwing.run({ url: "https://mini.example/page" });
    expect(!failed.success && failed.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
  });

  it("validates options strictly", () => {
    expect(() => createWebFetchTool({ cacheTtl: 5 } as never)).toThrow(/cacheTtl/);
    expect(() => createWebFetchTool({ maxResponseBytes: -1 })).toThrow(/maxResponseBytes/);
  });
});
