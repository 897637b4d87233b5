import { describe, expect, it } from "vitest";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { createGuardedTransport } from "./node/guarded-transport.js";
import { createBraveProvider } from "./search-providers/brave.js";
import { createSerperProvider } from "./search-providers/serper.js";
import { createTavilyProvider } from "./search-providers/tavily.js";
import type { SearchProvider } from "./search-providers/types.js";
import { SERPER_RESPONSE } from "./test-support/fixtures.js";
import { json, type SeenRequest, startServer } from "./test-support/http-server.js";
import { createWebFetchTool } from "./web-fetch.js";
import { createWebSearchTool } from "./web-search.js";

// Two real servers on 127.0.0.1: different ports, so different origins. `elsewhere` records
// what it receives; nothing the host configured for `home` may reach it.
const elsewhere = await startServer({
  "/echo": json({ seen: true }),
  "/search": json(SERPER_RESPONSE),
  "/res/v1/web/search": json({ web: { results: [] } }),
});
const redirect =
  (status: number) => (request: { url?: string }, response: import("node:http").ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://x").searchParams.get("to") ?? "/echo";
    response.writeHead(status, { location: `${elsewhere.origin}${path}` });
    response.end();
  };
const home = await startServer({
  "/echo": json({ home: true }),
  "/r301": redirect(301),
  "/r302": redirect(302),
  "/r303": redirect(303),
  "/r307": redirect(307),
  "/r308": redirect(308),
  "/same-origin-hop": (_request, response) => {
    response.writeHead(302, { location: "/echo" });
    response.end();
  },
});

const SECRETS = {
  "x-api-key": "host-api-key",
  "private-token": "host-private-token",
  authorization: "Bearer host-secret",
  cookie: "session=host-cookie",
};
const SECRET_VALUES = Object.values(SECRETS);

function leaked(requests: readonly SeenRequest[]): string[] {
  const found: string[] = [];
  for (const request of requests) {
    const text = `${JSON.stringify(request.headers)} ${request.body} ${request.url}`;
    for (const secret of [...SECRET_VALUES, "serper-key", "brave-key", "tvly-key"]) {
      if (text.includes(secret)) found.push(secret);
    }
  }
  return found;
}

const fetchTools = {
  node: () =>
    createNodeWebFetchTool({
      allowHosts: ["127.0.0.1"],
      cacheTtlMs: 0,
      userAgent: "HostBot/1.0",
      headers: [{ origin: home.origin, headers: SECRETS }],
    }),
  root: () =>
    createWebFetchTool({
      allowHosts: ["127.0.0.1"],
      cacheTtlMs: 0,
      userAgent: "HostBot/1.0",
      headers: [{ origin: home.origin, headers: SECRETS }],
      onWarn: () => {},
    }),
};

describe.each(Object.entries(fetchTools))(
  "web_fetch (%s entry): host headers stay with their origin",
  (_entry, make) => {
    it("sends the origin's headers to that origin only", async () => {
      const tool = make();
      const before = home.requests.length;
      const atHome = await tool.run({ url: `${home.origin}/echo` });
      expect(atHome.success).toBe(true);
      const seen = home.requests.slice(before);
      expect(seen).toHaveLength(1);
      expect(seen[0]?.headers).toMatchObject({ ...SECRETS, "user-agent": "HostBot/1.0" });

      const start = elsewhere.requests.length;
      const away = await tool.run({ url: `${elsewhere.origin}/echo` });
      expect(away.success).toBe(true);
      const there = elsewhere.requests.slice(start);
      expect(there).toHaveLength(1);
      expect(leaked(there)).toEqual([]);
      expect(there[0]?.headers["user-agent"]).toBe("HostBot/1.0");
      expect(there[0]?.headers.accept).toMatch(/text\/html/);
    });

    for (const status of [301, 302, 303, 307, 308]) {
      it(`drops every host header but user-agent and accept on a cross-origin ${status}`, async () => {
        const start = elsewhere.requests.length;
        const result = await make().run({ url: `${home.origin}/r${status}` });
        expect(result.success).toBe(true);
        const there = elsewhere.requests.slice(start);
        expect(there).toHaveLength(1);
        expect(leaked(there)).toEqual([]);
        expect(there[0]?.headers["user-agent"]).toBe("HostBot/1.0");
        expect(there[0]?.headers.accept).toMatch(/text\/html/);
      });
    }

    it("keeps them on a same-origin redirect", async () => {
      const before = home.requests.length;
      const result = await make().run({ url: `${home.origin}/same-origin-hop` });
      expect(result.success).toBe(true);
      const seen = home.requests.slice(before);
      expect(seen.map((request) => request.url)).toEqual(["/same-origin-hop", "/echo"]);
      expect(seen[1]?.headers).toMatchObject(SECRETS);
    });
  },
);

describe("the old unscoped shape is refused with a clear message", () => {
  it("a record of headers throws, naming the new shape and userAgent", () => {
    for (const factory of [createWebFetchTool, createNodeWebFetchTool]) {
      expect(() => factory({ headers: { "x-api-key": "k" } } as never)).toThrow(
        /headers.*origin.*userAgent/s,
      );
    }
  });

  it("validates origins and header names strictly", () => {
    const bad = [
      [{ origin: "https://api.example/path", headers: {} }],
      [{ origin: "api.example", headers: {} }],
      [{ origin: "ftp://api.example", headers: {} }],
      [{ origin: "https://api.example", headers: { "bad name": "x" } }],
      [{ origin: "https://api.example", headers: { ok: "line\r\nbreak" } }],
      [{ origin: "https://api.example", headers: {}, extra: 1 }],
      [
        { origin: "https://api.example", headers: {} },
        { origin: "https://API.example/", headers: {} },
      ],
    ];
    for (const headers of bad) {
      expect(() => createWebFetchTool({ headers } as never), JSON.stringify(headers)).toThrow(
        /headers/,
      );
    }
    expect(() =>
      createWebFetchTool({
        headers: [{ origin: "https://API.example:443/", headers: { a: "b" } }],
      }),
    ).not.toThrow();
  });
});

const providers: Record<string, (endpoint: string) => SearchProvider> = {
  serper: (endpoint) => createSerperProvider({ apiKey: "serper-key", endpoint }),
  tavily: (endpoint) => createTavilyProvider({ apiKey: "tvly-key", endpoint }),
  brave: (endpoint) => createBraveProvider({ apiKey: "brave-key", endpoint }),
};
const transports = {
  "global fetch": undefined,
  guarded: () => createGuardedTransport({ allowHosts: ["127.0.0.1"] }),
};

describe.each(Object.entries(transports))(
  "search providers' keys stay at their endpoint (%s transport)",
  (_name, makeTransport) => {
    for (const [name, make] of Object.entries(providers)) {
      for (const status of [301, 302, 303, 307, 308]) {
        it(`${name}: a cross-origin ${status} from the endpoint never carries the key`, async () => {
          const path = name === "brave" ? "/res/v1/web/search" : "/search";
          const tool = createWebSearchTool({
            provider: make(`${home.origin}/r${status}?to=${encodeURIComponent(path)}`),
            ...(makeTransport === undefined ? {} : { transport: makeTransport() }),
          });
          const start = elsewhere.requests.length;
          await tool.run({ query: "tides" });
          expect(leaked(elsewhere.requests.slice(start))).toEqual([]);
        });
      }
    }
  },
);
