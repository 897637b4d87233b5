import { describe, expect, it } from "vitest";
import type { GuardedFetchResponse, PageRenderer } from "./internal/render.js";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { startServer } from "./test-support/http-server.js";
import type { WebFetchToolData, WebFetchToolOptions } from "./web-fetch.js";

const SHELL = `<!doctype html><html><head><title>Shell</title></head><body><div id="app">Loading…</div>
<script>fetch("/data.json").then((r) => r.json()).then((d) => { document.getElementById("app").textContent = d.text; });</script>
</body></html>`;

// A second local server the address policy of these tests does not allow: it must see nothing.
const forbidden = await startServer({
  "/secret": (_request, response) => {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("SECRET");
  },
});

const site = await startServer({
  "/app": (_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(SHELL);
  },
  "/moved": (_request, response) => {
    response.writeHead(302, { location: "/app" });
    response.end();
  },
  "/data.json": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "content-encoding": "identity" });
    response.end(JSON.stringify({ text: "Built by JavaScript: the tide tables." }));
  },
  "/to-forbidden": (_request, response) => {
    response.writeHead(302, { location: `${forbidden.origin}/secret` });
    response.end();
  },
  "/to-metadata": (_request, response) => {
    response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
    response.end();
  },
  "/api.json": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"a":1}');
  },
  "/echo": (request, response, body) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ method: request.method, headers: request.headers, body }));
  },
});

const allowSite = { allowHosts: [`127.0.0.1:${site.port}`], cacheTtlMs: 0 };

/** A renderer without a browser: it "runs" the shell's script by fetching its JSON through the guard. */
const scriptRunner: PageRenderer = async (_url, _signal, context) => {
  const html = new TextDecoder().decode(context.document.body);
  const data = await context.fetch({ url: new URL("/data.json", context.document.url).href });
  const text = (JSON.parse(new TextDecoder().decode(data.body)) as { text: string }).text;
  return html.replace("Loading…", text);
};

function tool(options: WebFetchToolOptions = {}) {
  return createNodeWebFetchTool({ ...allowSite, readability: false, ...options });
}

async function fetchOk(options: WebFetchToolOptions, input: Record<string, unknown>) {
  const webFetch = tool(options);
  const result = await webFetch.run(input);
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return { data: result.data as WebFetchToolData, text: webFetch.renderResult(result) as string };
}

async function fetchFailure(options: WebFetchToolOptions, input: Record<string, unknown>) {
  const result = await tool(options).run(input);
  if (result.success) throw new Error("expected a failure");
  return result.error;
}

describe("web_fetch with a renderer", () => {
  it("renders when the model asks: the JS-built text, rendered: true, the next call repeats render", async () => {
    const { data, text } = await fetchOk(
      { render: scriptRunner, defaultMaxChars: 500 },
      { url: `${site.origin}/app`, render: true },
    );
    expect(data.rendered).toBe(true);
    expect(data.kind).toBe("html");
    expect(data.content).toContain("Built by JavaScript: the tide tables.");
    expect(data.content).not.toContain("Loading…");
    expect(text).toContain("HTML → Markdown (rendered)");
    const plain = await fetchOk({ render: scriptRunner }, { url: `${site.origin}/app` });
    expect(plain.data.rendered).toBe(false);
    expect(plain.data.content).toContain("Loading…");
  });

  it("a long rendered page's marker names render=true", async () => {
    const long: PageRenderer = async () =>
      `<html><body>${"<p>tide tables and moon phases</p>".repeat(60)}</body></html>`;
    const { text } = await fetchOk(
      { render: long, defaultMaxChars: 500 },
      { url: `${site.origin}/app`, render: true },
    );
    expect(text).toMatch(/call web_fetch again with url="[^"]+", render=true, offset=\d+/);
  });

  it("the render field exists only with a renderer; the description teaches when to use it", async () => {
    const without = tool();
    expect(Object.keys(without.input.shape)).not.toContain("render");
    expect(without.description).toContain("use another source");
    const refused = await without.run({ url: `${site.origin}/app`, render: true });
    expect(refused).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    const withRenderer = tool({ render: scriptRunner });
    expect(Object.keys(withRenderer.input.shape)).toContain("render");
    expect(withRenderer.description).toContain("render=true");
    const always = tool({ render: scriptRunner, renderByDefault: true });
    expect(always.description).toContain("render=false");
    const result = await always.run({ url: `${site.origin}/app` });
    expect(result.success && result.data.rendered).toBe(true);
  });

  it("the renderer gets the page after redirects (checked as always) and web_fetch's guarded fetch", async () => {
    let seen: { url: string; document: GuardedFetchResponse } | undefined;
    const spy: PageRenderer = async (url, signal, context) => {
      seen = { url, document: context.document };
      expect(signal.aborted).toBe(false);
      return scriptRunner(url, signal, context);
    };
    const { data } = await fetchOk({ render: spy }, { url: `${site.origin}/moved`, render: true });
    expect(seen?.url).toBe(`${site.origin}/app`);
    expect(seen?.document.status).toBe(200);
    expect(new TextDecoder().decode(seen?.document.body)).toBe(SHELL);
    expect(data.final_url).toBe(`${site.origin}/app`);
  });

  it("a page redirecting to a forbidden host is refused before any rendering", async () => {
    let called = false;
    const spy: PageRenderer = async () => {
      called = true;
      return "<p>never</p>";
    };
    const before = forbidden.requests.length;
    const error = await fetchFailure(
      { render: spy },
      { url: `${site.origin}/to-forbidden`, render: true },
    );
    expect(error.code).toBe("BLOCKED");
    expect(called).toBe(false);
    expect(forbidden.requests.length).toBe(before);
  });

  it("sub-requests go through the address policy: forbidden hosts, metadata and redirects to them are refused", async () => {
    const outcomes: string[] = [];
    const prober: PageRenderer = async (_url, _signal, context) => {
      for (const target of [
        `${forbidden.origin}/secret`,
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://metadata.google.internal/",
        `http://localhost:${forbidden.port}/secret`,
        `${site.origin}/to-forbidden`,
        `${site.origin}/to-metadata`,
        "file:///etc/passwd",
        `${site.origin}/api.json`,
      ]) {
        try {
          const response = await context.fetch({ url: target });
          outcomes.push(`${response.status} ${new TextDecoder().decode(response.body)}`);
        } catch (error) {
          outcomes.push((error as { code?: string }).code ?? "thrown");
        }
      }
      return "<html><body><p>probed</p></body></html>";
    };
    const before = forbidden.requests.length;
    const { data } = await fetchOk({ render: prober }, { url: `${site.origin}/app`, render: true });
    expect(data.content).toContain("probed");
    expect(outcomes).toEqual([
      "BLOCKED",
      "BLOCKED",
      "BLOCKED",
      "BLOCKED",
      "BLOCKED",
      "BLOCKED",
      "BLOCKED",
      "BLOCKED",
      '200 {"a":1}',
    ]);
    expect(forbidden.requests.length).toBe(before);
  });

  it("sub-requests: only GET and POST, the tool's User-Agent, no host headers, no hop-by-hop headers", async () => {
    let echoed: { method: string; headers: Record<string, string>; body: string } | undefined;
    let refused: string | undefined;
    const poster: PageRenderer = async (_url, _signal, context) => {
      const response = await context.fetch({
        url: `${site.origin}/echo`,
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "HeadlessChrome",
          Host: "evil.example",
          "X-App": "1",
        },
        body: '{"q":1}',
      });
      echoed = JSON.parse(new TextDecoder().decode(response.body));
      expect(response.headers["content-length"]).toBeUndefined();
      try {
        await context.fetch({ url: `${site.origin}/echo`, method: "DELETE" });
      } catch (error) {
        refused = (error as { code?: string }).code;
      }
      return "<p>posted</p>";
    };
    await fetchOk(
      {
        render: poster,
        headers: [{ origin: site.origin, headers: { "private-token": "SECRET-TOKEN" } }],
      },
      { url: `${site.origin}/app`, render: true },
    );
    expect(echoed?.method).toBe("POST");
    expect(echoed?.body).toBe('{"q":1}');
    expect(echoed?.headers["x-app"]).toBe("1");
    expect(echoed?.headers["content-type"]).toBe("application/json");
    expect(echoed?.headers["user-agent"]).toContain("agentool-tools-web");
    expect(echoed?.headers.host).toBe(`127.0.0.1:${site.port}`);
    expect(echoed?.headers["private-token"]).toBeUndefined();
    expect(refused).toBe("BLOCKED");
    // the page itself still got the host's header
    const page = site.requests.filter((request) => request.url === "/app").at(-1);
    expect(page?.headers["private-token"]).toBe("SECRET-TOKEN");
  });

  it("caps the number of sub-requests", async () => {
    const codes: string[] = [];
    const greedy: PageRenderer = async (_url, _signal, context) => {
      for (let index = 0; index < 3; index += 1) {
        try {
          await context.fetch({ url: `${site.origin}/api.json` });
          codes.push("ok");
        } catch (error) {
          codes.push((error as { code?: string }).code ?? "thrown");
        }
      }
      return "<p>done</p>";
    };
    await fetchOk(
      { render: greedy, renderMaxRequests: 2 },
      { url: `${site.origin}/app`, render: true },
    );
    expect(codes).toEqual(["ok", "ok", "TOO_LARGE"]);
  });

  it("only HTML is rendered", async () => {
    let called = false;
    const spy: PageRenderer = async () => {
      called = true;
      return "<p>x</p>";
    };
    const { data } = await fetchOk(
      { render: spy },
      { url: `${site.origin}/api.json`, render: true },
    );
    expect(called).toBe(false);
    expect(data.kind).toBe("json");
    expect(data.rendered).toBe(false);
  });

  it("a renderer's coded failure keeps its code; the hint names render=false", async () => {
    const missing: PageRenderer = async () => {
      throw Object.assign(new Error("Chromium could not be started."), {
        code: "DEPENDENCY_MISSING",
        hint: "The host must install Chromium.",
      });
    };
    const error = await fetchFailure(
      { render: missing },
      { url: `${site.origin}/app`, render: true },
    );
    expect(error.code).toBe("DEPENDENCY_MISSING");
    expect(error.message).toBe("Chromium could not be started.");
    expect(error.hint).toContain("The host must install Chromium.");
    expect(error.hint).toContain("render=false");
  });

  it("a renderer that throws anything else → UNSUPPORTED naming render=false", async () => {
    const broken: PageRenderer = async () => {
      throw new Error("the browser crashed");
    };
    const error = await fetchFailure(
      { render: broken },
      { url: `${site.origin}/app`, render: true },
    );
    expect(error.code).toBe("UNSUPPORTED");
    expect(error.message).toContain("the browser crashed");
    expect(error.hint).toContain("render=false");
    const empty = await fetchFailure(
      { render: (async () => ({})) as unknown as PageRenderer },
      { url: `${site.origin}/app`, render: true },
    );
    expect(empty.code).toBe("NOT_CONFIGURED");
  });

  it("a renderer that never finishes → TIMEOUT inside the tool's own limit, its signal aborted", async () => {
    let aborted = false;
    const stuck: PageRenderer = (_url, signal) =>
      new Promise(() => {
        signal.addEventListener("abort", () => {
          aborted = true;
        });
      });
    const started = Date.now();
    const error = await fetchFailure(
      { render: stuck, renderTimeoutMs: 1_000 },
      { url: `${site.origin}/app`, render: true },
    );
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("Rendering");
    expect(error.hint).toContain("render=false");
    expect(aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    // the tool's timeout is shorter than the render limit: the render still stops first
    const short = await fetchFailure(
      { render: stuck, timeoutMs: 4_000 },
      { url: `${site.origin}/app`, render: true },
    );
    expect(short.code).toBe("TIMEOUT");
    expect(short.message).toContain("Rendering");
  });

  it("aborting the call aborts the render", async () => {
    let renderSignal: AbortSignal | undefined;
    const stuck: PageRenderer = (_url, signal) => {
      renderSignal = signal;
      return new Promise(() => {});
    };
    const controller = new AbortController();
    const pending = tool({ render: stuck }).run(
      { url: `${site.origin}/app`, render: true },
      { signal: controller.signal },
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ success: false, error: { code: "ABORTED" } });
    expect(renderSignal?.aborted).toBe(true);
  });

  it("rendered HTML larger than the byte cap is cut and says so", async () => {
    const huge: PageRenderer = async () =>
      `<html><body><p>${"tide ".repeat(2_000)}</p></body></html>`;
    const { data } = await fetchOk(
      { render: huge, maxResponseBytes: 2_048 },
      { url: `${site.origin}/app`, render: true },
    );
    expect(data.body_truncated).toBe(true);
    expect(data.total).toBeLessThan(2_100);
  });

  it("raw=true with render returns the rendered HTML", async () => {
    const { data, text } = await fetchOk(
      { render: scriptRunner },
      { url: `${site.origin}/app`, render: true, raw: true },
    );
    expect(data.content).toContain('<div id="app">Built by JavaScript: the tide tables.</div>');
    expect(text).toContain("rendered HTML as received");
  });
});
