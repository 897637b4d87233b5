// The browser tool in real Chromium against local sites (issue 31 B): a login flow with cookies
// kept per conversation, and a hostile-site battery — every request passes the guarded transport
// of @agentool/tools-web/node, so private addresses, redirect hops to them and metadata addresses
// never reach a server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserToolData } from "./browser-data.js";
import { type BrowserTool, createBrowserTool } from "./create-browser-tool.js";

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

async function serve(
  routes: Record<string, Handler>,
): Promise<{ server: Server; origin: string; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = (request.url ?? "/").split("?")[0] ?? "/";
      hits.push(`${request.method} ${request.url}`);
      const handler = routes[path];
      if (handler === undefined) {
        response.writeHead(404, { "content-type": "text/plain" });
        response.end("not found");
        return;
      }
      handler(request, response, Buffer.concat(chunks).toString("utf8"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}

const html = (
  response: ServerResponse,
  body: string,
  headers: Record<string, string | string[]> = {},
) => {
  response.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
  response.end(
    `<!doctype html><html><head><title>${/<h1>(.*?)<\/h1>/.exec(body)?.[1] ?? "Page"}</title></head><body>${body}</body></html>`,
  );
};

let site: Awaited<ReturnType<typeof serve>>;
let forbidden: Awaited<ReturnType<typeof serve>>;
/** Another origin the transport allows: it records the host header it is sent, if any. */
let echo: Awaited<ReturnType<typeof serve>>;
const echoed: string[] = [];
let tool: BrowserTool;
const transport = () => createGuardedTransport({ allowHosts: [new URL(site.origin).host] });

beforeAll(async () => {
  echo = await serve({
    "/pixel": (request, response) => {
      echoed.push(`pixel ${request.headers["x-api-key"] ?? "-"}`);
      response.writeHead(204);
      response.end();
    },
    "/redirected": (request, response) => {
      echoed.push(`redirected ${request.headers["x-api-key"] ?? "-"}`);
      response.writeHead(204);
      response.end();
    },
  });
  forbidden = await serve({
    "/": (_request, response) => html(response, "<h1>Internal admin</h1>"),
  });
  site = await serve({
    "/login": (request, response, body) => {
      if (request.method === "POST") {
        const form = new URLSearchParams(body);
        if (form.get("user") === "alice" && form.get("password") === "s3cret") {
          response.writeHead(302, {
            location: "/home",
            "set-cookie": ["sid=alice-session; Path=/; HttpOnly", "theme=dark; Path=/"],
          });
          response.end();
          return;
        }
        html(response, "<h1>Login</h1><p role=alert>Wrong password</p>");
        return;
      }
      html(
        response,
        `<h1>Login</h1><form method=post action=/login><label>User <input name=user></label><label>Password <input type=password name=password></label><button>Sign in</button></form>`,
      );
    },
    "/home": (request, response) => {
      if (!(request.headers.cookie ?? "").includes("sid=alice-session")) {
        response.writeHead(302, { location: "/login" });
        response.end();
        return;
      }
      html(
        response,
        "<h1>Home</h1><p>Welcome alice. Quarterly report: 42 widgets.</p><a href=/home#more>More</a>",
      );
    },
    "/to-private": (_request, response) => {
      response.writeHead(302, { location: `${forbidden.origin}/` });
      response.end();
    },
    "/fetch-private": (_request, response) =>
      html(
        response,
        // Every way out: preconnect, prefetch, speculation rules, an iframe redirected there,
        // fetch and a WebSocket.
        `<h1>Fetcher</h1><link rel=preconnect href="${forbidden.origin}"><link rel=prefetch href="${forbidden.origin}/prefetch"><script type=speculationrules>${JSON.stringify({ prefetch: [{ source: "list", urls: [`${forbidden.origin}/speculation`] }] })}</script><iframe src=/to-private></iframe><p id=out>waiting</p><script>fetch(${JSON.stringify(`${forbidden.origin}/`)}).then(() => out.textContent = "reached", () => out.textContent = "refused"); new WebSocket(${JSON.stringify(`ws://${new URL(forbidden.origin).host}/`)});</script>`,
      ),
    "/popup": (_request, response) =>
      html(
        response,
        `<h1>Popups</h1><button onclick="for (let i = 0; i < 20; i++) window.open('/home?' + i)">Open many</button>`,
      ),
    "/dialogs": (_request, response) =>
      html(
        response,
        `<h1>Dialogs</h1><button onclick="for (let i = 0; i < 50; i++) alert('storm ' + i); document.title = 'after storm'">Storm</button>`,
      ),
    "/huge": (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      const chunk = `<p>${"x".repeat(1_000_000)}</p>`;
      let sent = 0;
      const pump = () => {
        while (sent < 100) {
          sent += 1;
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end();
      };
      pump();
    },
    "/loop": (request, response) => {
      const n = Number(new URL(request.url ?? "/", "http://x").searchParams.get("n") ?? 0);
      response.writeHead(302, { location: `/loop?n=${n + 1}` });
      response.end();
    },
    "/spin": (_request, response) => html(response, "<h1>Spin</h1><script>for (;;) {}</script>"),
    "/scroll": (_request, response) =>
      html(
        response,
        `<h1>Feed</h1><ul id=feed></ul><script>let n = 0; const more = () => { for (let i = 0; i < 50; i++) { const li = document.createElement("li"); li.textContent = "post " + (++n); feed.append(li); } }; more(); addEventListener("scroll", more);</script>`,
      ),
    "/headers": (request, response) =>
      html(
        response,
        `<h1>Headers</h1><p id=token>${request.headers["x-api-key"] ?? "none"}</p><img src="${echo.origin}/pixel"><img src="/to-echo">`,
      ),
    "/to-echo": (_request, response) => {
      response.writeHead(302, { location: `${echo.origin}/redirected` });
      response.end();
    },
    "/late": (_request, response) =>
      html(
        response,
        `<h1>Late</h1><p id=note>idle</p><button onclick="fetch('/slow').then((r) => r.text()).then((t) => document.getElementById('note').textContent = t)">Load</button>`,
      ),
    "/slow": (_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.end("loaded late");
      }, 300);
    },
    "/list": (_request, response) =>
      html(
        response,
        `<h1>List</h1><ul>${Array.from({ length: 400 }, (_, index) => `<li>item ${index + 1}</li>`).join("")}</ul>`,
      ),
  });
  tool = createBrowserTool({
    transport: transport(),
    maxResponseBytes: 2 * 1_048_576,
    timeoutMs: 45_000,
  });
});

afterAll(async () => {
  await tool?.dispose();
  await new Promise((resolve) => site?.server.close(resolve));
  await new Promise((resolve) => forbidden?.server.close(resolve));
  await new Promise((resolve) => echo?.server.close(resolve));
});

async function call(
  input: unknown,
  threadId = "t1",
): Promise<{
  success: boolean;
  data?: BrowserToolData;
  error?: { code: string; message: string };
}> {
  return (await tool.run(input as never, { threadId })) as never;
}

const refOf = (data: BrowserToolData | undefined, pattern: RegExp) =>
  /\[ref=([a-z0-9]+)\]/.exec(data?.lines?.find((line) => pattern.test(line)) ?? "")?.[1];

describe("browser on local sites", () => {
  it("logs in with a form, keeps the session cookie across redirects, reads the protected page", async () => {
    const login = await call({ op: "navigate", url: `${site.origin}/home` });
    // Not logged in: /home redirects to /login (a hop the browser followed itself).
    expect(login).toMatchObject({
      success: true,
      data: { url: `${site.origin}/login`, title: "Login" },
    });
    const user = refOf(login.data, /textbox "User"/);
    const password = refOf(login.data, /textbox "Password"/);
    const signIn = refOf(login.data, /button "Sign in"/);
    expect(
      [user, password, signIn].every((ref) => ref !== undefined),
      JSON.stringify(login.data?.lines),
    ).toBe(true);
    const acted = await call({
      op: "act",
      actions: [
        { type: "fill", ref: user, value: "alice" },
        { type: "fill", ref: password, value: "s3cret" },
        { type: "click", ref: signIn },
      ],
    });
    expect(acted).toMatchObject({
      success: true,
      data: { completed: 3, url: `${site.origin}/home`, title: "Home" },
    });
    expect(acted.data?.lines?.join("\n")).toContain("Quarterly report: 42 widgets");
    const again = await call({ op: "navigate", url: `${site.origin}/home` });
    expect(again.data?.title).toBe("Home");
    // Another conversation has its own cookies: not logged in there.
    const other = await call({ op: "navigate", url: `${site.origin}/home` }, "t2");
    expect(other.data?.title).toBe("Login");
    const read = await call({ op: "read", queries: [{ css: "h1" }, { css: "a", attr: "href" }] });
    expect(read.data?.answers).toEqual([
      { css: "h1", attr: "text", count: 1, values: ["Home"], truncated: false },
      { css: "a", attr: "href", count: 1, values: ["/home#more"], truncated: false },
    ]);

    const shot = await tool.run({ op: "shot" }, { threadId: "t1" });
    const content = tool.renderResult(shot);
    expect(Array.isArray(content) && content.map((block) => block.type)).toEqual(["text", "image"]);
  });

  it("pages a long snapshot and answers only what changed after an action", async () => {
    const list = await call({ op: "navigate", url: `${site.origin}/list` }, "t3");
    expect(list.data).toMatchObject({ truncated: true, next_offset: 151, offset: 1 });
    expect(String(tool.renderResult(list as never))).toContain(
      'call browser again with op="snapshot", offset=151',
    );
    const second = await call({ op: "snapshot", offset: 151, limit: 300 }, "t3");
    expect(second.data?.lines?.some((line) => line.includes("item 400"))).toBe(true);
    // A value past the read cap (2,000 characters) is cut, and the answer says how much is left.
    const whole = await call({ op: "read", queries: [{ css: "ul" }] }, "t3");
    expect(whole.data?.answers?.[0]).toMatchObject({ count: 1, truncated: true });
    expect(whole.data?.answers?.[0]?.values[0]).toHaveLength(2_000);
    expect(whole.data?.answers?.[0]?.omitted_characters).toBeGreaterThan(1_000);
    expect(String(tool.renderResult(whole as never))).toMatch(/truncated: [\d,]+ more characters/);
    const item = await call({ op: "snapshot", find: "ITEM 337" }, "t3");
    expect(item.data).toMatchObject({ find: "ITEM 337", total_lines: 1, truncated: false });
    expect(item.data?.lines?.[0]).toMatch(/^\s*- listitem \[ref=\w+\]: item 337$/);
    const direct = await call(
      { op: "navigate", url: `${site.origin}/list`, find: "item 39" },
      "t3",
    );
    expect(direct.data?.lines?.map((line) => line.trim().replace(/ \[ref=\w+\]/, ""))).toEqual([
      "- listitem: item 39",
      ...Array.from({ length: 10 }, (_, index) => `- listitem: item ${390 + index}`),
    ]);
    await call({ op: "navigate", url: `${site.origin}/late` }, "t3");
    const late = await call({ op: "act", actions: [{ type: "click", selector: "button" }] }, "t3");
    // The answer waits for the request the click started: the change is in it.
    expect(late.data?.lines?.join("\n")).toContain("loaded late");
    const unchanged = await call({ op: "snapshot", changes: true }, "t3");
    expect(unchanged.data).toMatchObject({ changes: { added: 0, removed: 0 }, lines: [] });
  });
});

describe("browser: the hostile-site battery", () => {
  it("never reaches a private address: not directly, not by a redirect hop, not from the page's fetch or WebSocket", async () => {
    const direct = await call({ op: "navigate", url: `${forbidden.origin}/` }, "h1");
    expect(direct).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const metadata = await call(
      { op: "navigate", url: "http://169.254.169.254/latest/meta-data/" },
      "h1",
    );
    expect(metadata).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const hop = await call({ op: "navigate", url: `${site.origin}/to-private` }, "h1");
    expect(hop).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    const page = await call({ op: "navigate", url: `${site.origin}/fetch-private` }, "h1");
    expect(page.success).toBe(true);
    const out = await call({ op: "act", actions: [{ type: "wait", ms: 300 }] }, "h1");
    const read = await call({ op: "read", queries: [{ css: "#out" }] }, "h1");
    expect(read.data?.answers?.[0]?.values).toEqual(["refused"]);
    const events = JSON.stringify([page.data?.events, out.data?.events, read.data?.events]);
    expect(events).toContain("WebSocket");
    expect(events).toMatch(/blocked/);
    expect(forbidden.hits).toEqual([]);
  });

  it("refuses file:, chrome: and others; stops redirect loops; cuts a 100 MB page", async () => {
    expect(await call({ op: "navigate", url: "file:///etc/passwd" }, "h2")).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    expect(await call({ op: "navigate", url: "chrome://settings" }, "h2")).toMatchObject({
      success: false,
      error: { code: "BLOCKED" },
    });
    const loop = await call({ op: "navigate", url: `${site.origin}/loop` }, "h2");
    expect(loop).toMatchObject({
      success: false,
      error: { code: "BLOCKED", message: expect.stringContaining("redirects") },
    });
    const huge = await call({ op: "navigate", url: `${site.origin}/huge` }, "h2");
    expect(huge).toMatchObject({
      success: false,
      error: { code: "TOO_LARGE", message: expect.stringContaining("budget") },
    });
  });

  it("turns popups into tabs (at most 8) and dismisses a storm of dialogs, saying so", async () => {
    await call({ op: "navigate", url: `${site.origin}/popup` }, "h3");
    const popped = await call(
      {
        op: "act",
        actions: [
          { type: "click", selector: "button" },
          { type: "wait", ms: 500 },
        ],
      },
      "h3",
    );
    expect(popped.data?.tabs).toBe(8);
    const tabs = await call({ op: "tabs" }, "h3");
    expect(tabs.data?.tab_list).toHaveLength(8);
    const switched = await call({ op: "tabs", tab_action: "switch", tab: 2 }, "h3");
    expect(switched.data?.tab).toBe(2);
    await call({ op: "navigate", url: `${site.origin}/dialogs` }, "h4");
    const storm = await call({ op: "act", actions: [{ type: "click", selector: "button" }] }, "h4");
    expect(storm.data?.title).toBe("after storm");
    const text = JSON.stringify(storm.data?.events);
    expect(text).toContain("alert dismissed: storm 0");
    expect(text).toContain("more dialogs dismissed");
  });

  it("stops a page whose script never yields: the call times out, the session stays usable, other conversations never wait", async () => {
    const started = Date.now();
    const spin = call({ op: "navigate", url: `${site.origin}/spin` }, "h5");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const other = await call({ op: "navigate", url: `${site.origin}/list` }, "h6");
    expect(other).toMatchObject({ success: true, data: { title: "List" } });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await spin).toMatchObject({
      success: false,
      error: {
        code: "TIMEOUT",
        message: expect.stringContaining("was stopped"),
      },
    });
    expect(await call({ op: "navigate", url: `${site.origin}/list` }, "h5")).toMatchObject({
      success: true,
      data: { title: "List" },
    });
  });

  it("refuses a name that resolves to a private address, and keeps an endless feed's answers bounded", async () => {
    const rebinding = createBrowserTool({
      transport: createGuardedTransport({
        allowHosts: [new URL(site.origin).host],
        // A public-looking name whose DNS answer is the forbidden server's address.
        resolver: async () => [{ address: "127.0.0.1", family: 4 }],
      }),
    });
    try {
      const named = await rebinding.run(
        { op: "navigate", url: `http://internal.example:${new URL(forbidden.origin).port}/` },
        { threadId: "dns" },
      );
      expect(named).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    } finally {
      await rebinding.dispose();
    }
    expect(forbidden.hits).toEqual([]);
    await call({ op: "navigate", url: `${site.origin}/scroll` }, "h7");
    const scrolled = await call(
      { op: "act", actions: Array.from({ length: 5 }, () => ({ type: "scroll", dy: 20_000 })) },
      "h7",
    );
    expect(scrolled.success).toBe(true);
    expect(scrolled.data?.lines?.length ?? 0).toBeLessThanOrEqual(150);
    expect(String(tool.renderResult(scrolled as never)).length).toBeLessThan(20_000);
  });

  it("sends the host's headers to their origin only", async () => {
    const withHeaders = createBrowserTool({
      transport: createGuardedTransport({
        allowHosts: [new URL(site.origin).host, new URL(echo.origin).host],
      }),
      headers: [{ origin: site.origin, headers: { "X-Api-Key": "host-secret" } }],
    });
    try {
      const page = await withHeaders.run(
        { op: "navigate", url: `${site.origin}/headers` },
        { threadId: "headers" },
      );
      expect(JSON.stringify(page)).toContain("host-secret");
      await withHeaders.run(
        { op: "act", actions: [{ type: "wait", ms: 500 }] },
        { threadId: "headers" },
      );
      // The page's image on another origin, and a redirect there, arrive without the header.
      expect(echoed.sort()).toEqual(["pixel -", "redirected -"]);
    } finally {
      await withHeaders.dispose();
    }
  });

  it("refuses a tool without a transport, and calls before a navigation", async () => {
    expect(() => createBrowserTool({} as never)).toThrow(/transport/);
    expect(await call({ op: "snapshot" }, "nobody")).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
    expect(await call({ op: "close" }, "h4")).toMatchObject({ success: true });
    expect(await call({ op: "read", queries: [{ css: "h1" }] }, "h4")).toMatchObject({
      success: false,
    });
  });
});
