import { toOutputJsonSchema } from "@agentool/contract";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { createBraveProvider } from "./search-providers/brave.js";
import { createSearxngProvider } from "./search-providers/searxng.js";
import { createSerperProvider } from "./search-providers/serper.js";
import { createTavilyProvider } from "./search-providers/tavily.js";
import {
  BRAVE_RESPONSE,
  SEARXNG_FALLBACK_RESPONSE,
  SEARXNG_RESPONSE,
  SERPER_RESPONSE,
  TAVILY_RESPONSE,
} from "./test-support/fixtures.js";
import { json, respond, startServer } from "./test-support/http-server.js";
import {
  createWebSearchTool,
  type WebSearchToolData,
  webSearchOutputSchema,
} from "./web-search.js";

const searxng = await startServer({
  "/search": (request, response) => {
    const query = new URL(request.url ?? "/", "http://x").searchParams.get("q");
    if (query === "fallback") return json(SEARXNG_FALLBACK_RESPONSE)(request, response, "");
    if (query === "nothing")
      return json({ ...SEARXNG_FALLBACK_RESPONSE, answers: [], infoboxes: [], suggestions: [] })(
        request,
        response,
        "",
      );
    return json(SEARXNG_RESPONSE)(request, response, "");
  },
});
const searxngNoJson = await startServer({
  "/search": respond("text/html", "<h1>403 Forbidden</h1>", 403),
});

const keyed = await startServer({
  "/search": (request, response, body) => {
    // Serper (x-api-key) and Tavily (Bearer / api_key) share the path, as the real APIs do.
    if (request.headers["x-api-key"] !== undefined) {
      if (request.headers["x-api-key"] !== "serper-key")
        return json({ message: "Unauthorized." }, 403)(request, response, body);
      return json(SERPER_RESPONSE)(request, response, body);
    }
    const parsed = JSON.parse(body) as { api_key?: string };
    if (request.headers.authorization !== "Bearer tvly-key" || parsed.api_key !== "tvly-key") {
      return json({ detail: { error: "Unauthorized: missing or invalid API key." } }, 401)(
        request,
        response,
        body,
      );
    }
    return json(TAVILY_RESPONSE)(request, response, body);
  },
  "/api/serper": json(SERPER_RESPONSE),
  "/res/v1/web/search": (request, response) => {
    if (request.headers["x-subscription-token"] !== "brave-key")
      return json({ type: "ErrorResponse" }, 401)(request, response, "");
    return json(BRAVE_RESPONSE)(request, response, "");
  },
  "/rate-limited": json({ message: "Too many requests" }, 429),
  "/broken": json({ message: "boom" }, 502),
  "/not-json": respond("text/html", "<html>gateway login</html>"),
});

describe("web_search over SearXNG", () => {
  it("queries /search?format=json and drops malformed results one by one", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: searxng.origin }),
    });
    const result = await tool.run({ query: "  tides  " });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.results).toEqual([
      {
        title: "Tide - Wikipedia",
        url: "https://en.wikipedia.org/wiki/Tide",
        snippet: expect.stringContaining("rise and fall"),
      },
      {
        title: "What are tides?",
        url: "https://oceanservice.noaa.gov/facts/tides.html",
        snippet: expect.any(String),
      },
    ]);
    expect(result.data.dropped).toBe(2);
    expect(result.data.suggestions).toEqual(["tides today", "tide tables"]);
    const seen = new URL(searxng.requests.at(-1)?.url ?? "", "http://x");
    expect(seen.pathname).toBe("/search");
    expect(seen.searchParams.get("format")).toBe("json");
    expect(seen.searchParams.get("q")).toBe("tides");
    expect(searxng.requests.at(-1)?.headers["user-agent"]).toMatch(/agentool/);
    const text = tool.renderResult(result) as string;
    expect(text).toContain("1. Tide - Wikipedia\n   https://en.wikipedia.org/wiki/Tide");
    expect(text).toContain("Suggestions: tides today · tide tables");
  });

  it("falls back to answers, infoboxes and suggestions when there are no results", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: `${searxng.origin}/` }),
    });
    const result = await tool.run({ query: "fallback" });
    expect(result.success && result.data).toMatchObject({
      answers: ["1 USD = 0.92 EUR", "plain string answer"],
      results: [{ title: "Euro", url: "https://en.wikipedia.org/wiki/Euro" }],
      suggestions: ["usd eur exchange rate"],
    });
    const empty = await tool.run({ query: "nothing" });
    expect(empty.success).toBe(true);
    expect(tool.renderResult(empty)).toMatch(
      /No results for "nothing" \(searxng\): the engine found no pages/,
    );
  });

  it("explains how to enable JSON when the instance refuses it", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: searxngNoJson.origin }),
    });
    const result = await tool.run({ query: "tides" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("NOT_CONFIGURED");
    expect(result.error.hint).toContain("formats: [html, json]");
  });

  it("honours the limit", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: searxng.origin }),
    });
    const result = await tool.run({ query: "tides", limit: 1 });
    expect(result.success && result.data.results.length).toBe(1);
    expect((await tool.run({ query: "tides", limit: 11 })).success).toBe(false);
  });
});

describe("web_search over keyed providers", () => {
  it("Serper: POST {q, num} with x-api-key; answer box as an answer", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({ apiKey: "serper-key", endpoint: `${keyed.origin}/search` }),
    });
    const result = await tool.run({ query: "tides", limit: 3 });
    expect(result.success && result.data).toMatchObject({
      provider: "serper",
      results: [
        { url: "https://en.wikipedia.org/wiki/Tide" },
        { url: "https://oceanservice.noaa.gov/education/tides/" },
      ],
      answers: ["Tides are caused by the Moon's gravity."],
      suggestions: ["tide times"],
      dropped: 1,
    });
    const seen = keyed.requests.at(-1);
    expect(seen?.method).toBe("POST");
    expect(seen?.headers["x-api-key"]).toBe("serper-key");
    expect(JSON.parse(seen?.body ?? "")).toEqual({ q: "tides", num: 3 });
  });

  it("Serper: a custom endpoint (gateway) still gets the protocol and the token", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({
        apiKey: "gateway-token",
        endpoint: `${keyed.origin}/api/serper`,
      }),
    });
    const result = await tool.run({ query: "tides" });
    expect(result.success).toBe(true);
    const seen = keyed.requests.at(-1);
    expect(seen?.url).toBe("/api/serper");
    expect(seen?.headers["x-api-key"]).toBe("gateway-token");
    expect(JSON.parse(seen?.body ?? "")).toEqual({ q: "tides", num: 5 });
  });

  it("Serper: a refused key is NOT_CONFIGURED and the key never reaches the model", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({
        apiKey: "wrong-secret-key",
        endpoint: `${keyed.origin}/search`,
      }),
    });
    const result = await tool.run({ query: "tides" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("NOT_CONFIGURED");
    expect(JSON.stringify(result)).not.toContain("wrong-secret-key");
    expect(Object.keys(tool.input.shape)).toEqual([
      "query",
      "limit",
      "allowed_domains",
      "blocked_domains",
    ]);
  });

  it("Brave: GET /res/v1/web/search with X-Subscription-Token and count; tags stripped", async () => {
    const tool = createWebSearchTool({
      provider: createBraveProvider({
        apiKey: "brave-key",
        endpoint: `${keyed.origin}/res/v1/web/search`,
      }),
    });
    const result = await tool.run({ query: "tides", limit: 4 });
    expect(result.success && result.data).toMatchObject({
      results: [
        { title: "Tide - Wikipedia", snippet: "Tides are the rise and fall of sea levels." },
      ],
      suggestions: ["tides ocean"],
      dropped: 1,
    });
    const seen = new URL(keyed.requests.at(-1)?.url ?? "", "http://x");
    expect(seen.searchParams.get("q")).toBe("tides");
    expect(seen.searchParams.get("count")).toBe("4");
    expect(keyed.requests.at(-1)?.headers["x-subscription-token"]).toBe("brave-key");
  });

  it("Tavily: POST /search with Bearer and api_key; answer kept", async () => {
    const tool = createWebSearchTool({
      provider: createTavilyProvider({ apiKey: "tvly-key", endpoint: `${keyed.origin}/search` }),
    });
    const result = await tool.run({ query: "tides", limit: 2 });
    expect(result.success && result.data).toMatchObject({
      answers: ["Tides are driven mostly by the Moon."],
      results: [{ title: "Tide" }, { title: "Tides" }],
      dropped: 1,
    });
    expect(JSON.parse(keyed.requests.at(-1)?.body ?? "")).toMatchObject({
      query: "tides",
      max_results: 2,
    });
    const refused = await createWebSearchTool({
      provider: createTavilyProvider({ apiKey: "nope", endpoint: `${keyed.origin}/search` }),
    }).run({ query: "tides" });
    expect(!refused.success && refused.error.code).toBe("NOT_CONFIGURED");
  });

  it("maps 429, 5xx and non-JSON answers to retryable or explained failures", async () => {
    const at = (path: string) =>
      createWebSearchTool({
        provider: createSerperProvider({ apiKey: "k", endpoint: `${keyed.origin}${path}` }),
      });
    const limited = await at("/rate-limited").run({ query: "x" });
    expect(!limited.success && limited.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
    const broken = await at("/broken").run({ query: "x" });
    expect(!broken.success && broken.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
    const html = await at("/not-json").run({ query: "x" });
    expect(!html.success && html.error).toMatchObject({ code: "NOT_CONFIGURED", retryable: false });
    expect(!html.success && html.error.message).toContain("did not answer with JSON");
  });

  it("refuses bad set-up: no key, unknown option, no provider", () => {
    expect(() => createSerperProvider({ apiKey: "" })).toThrow(/apiKey/);
    expect(() => createBraveProvider({ apiKey: "k", endpoint: "not a url" })).toThrow(/endpoint/);
    expect(() => createSearxngProvider({ baseUrl: "file:///etc" })).toThrow(/baseUrl/);
    expect(() =>
      createWebSearchTool({
        provider: createSerperProvider({ apiKey: "k" }),
        apiKey: "x",
      } as never),
    ).toThrow(/apiKey/);
    expect(() => createWebSearchTool({} as never)).toThrow(/provider/);
  });

  it("refuses an empty query", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: searxng.origin }),
    });
    const result = await tool.run({ query: "   " });
    expect(!result.success && result.error.code).toBe("INVALID_INPUT");
  });
});

describe("Serper behind a same-origin route (relative endpoint)", () => {
  it("resolves /api/serper against the origin option", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({
        apiKey: "gateway-token",
        endpoint: "/api/serper",
        origin: `${keyed.origin}/app/page`,
      }),
    });
    const result = await tool.run({ query: "tides" });
    expect(result.success).toBe(true);
    expect(keyed.requests.at(-1)).toMatchObject({ method: "POST", url: "/api/serper" });
    expect(keyed.requests.at(-1)?.headers["x-api-key"]).toBe("gateway-token");
  });

  it("resolves it against globalThis.location in a browser-like host (the README's gateway example)", async () => {
    const provider = createSerperProvider({ apiKey: "gateway-token", endpoint: "/api/serper" });
    const tool = createWebSearchTool({ provider });
    const global = globalThis as { location?: unknown };
    global.location = { href: `${keyed.origin}/deep/page.html?x=1` };
    try {
      const result = await tool.run({ query: "tides" });
      expect(result.success && result.data.results.length).toBeGreaterThan(0);
      expect(keyed.requests.at(-1)?.url).toBe("/api/serper");
      const relative = createWebSearchTool({
        provider: createSerperProvider({ apiKey: "k", endpoint: "../api/serper" }),
      });
      expect((await relative.run({ query: "tides" })).success).toBe(true);
      expect(keyed.requests.at(-1)?.url).toBe("/api/serper");
    } finally {
      delete global.location;
    }
  });

  it("without an origin or a location, the search says the host must configure it", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({ apiKey: "k", endpoint: "/api/serper" }),
    });
    const result = await tool.run({ query: "tides" });
    expect(result).toMatchObject({
      success: false,
      error: { code: "NOT_CONFIGURED", retryable: false },
    });
    expect(!result.success && result.error.message).toContain('"/api/serper" is relative');
    expect(!result.success && result.error.hint).toContain("origin");
  });

  it("refuses endpoints that are neither absolute http(s) nor a relative path", () => {
    for (const endpoint of ["ftp://x.example/search", "//other.example/api", "api serper"]) {
      expect(() => createSerperProvider({ apiKey: "k", endpoint })).toThrow(/endpoint/);
    }
    expect(() =>
      createSerperProvider({ apiKey: "k", endpoint: "/api/serper", origin: "nope" }),
    ).toThrow(/origin/);
    expect(() => createBraveProvider({ apiKey: "k", endpoint: "/api/brave" })).not.toThrow();
    expect(() => createTavilyProvider({ apiKey: "k", endpoint: "./api/tavily" })).not.toThrow();
  });
});

describe("the provider contract", () => {
  const run = (search: () => unknown) =>
    createWebSearchTool({
      provider: { name: "custom", search: search as never },
    }).run({ query: "tides" });

  it("a provider returning a plain object instead of an envelope gets INTERNAL blaming the provider", async () => {
    const result = await run(async () => ({
      results: [{ title: "T", url: "https://t.example/" }],
    }));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INTERNAL");
    expect(result.error.message).toContain('The search provider "custom" broke its contract');
    expect(result.error.message).toContain("an object with results");
    expect(result.error.message).toContain("bug in the host's provider, not in the query");
    expect(result.error.retryable).toBe(false);
  });

  it("a success whose data has no results list is INTERNAL too", async () => {
    const result = await run(async () => ({ success: true, data: { items: [] } }));
    expect(!result.success && result.error).toMatchObject({ code: "INTERNAL" });
    expect(!result.success && result.error.message).toContain("data.results must be an array");
    const nothing = await run(async () => undefined);
    expect(!nothing.success && nothing.error.message).toContain(
      "returned undefined instead of a result envelope",
    );
  });

  it("a minimal envelope is accepted: missing lists default, malformed items are dropped and counted", async () => {
    const result = await run(async () => ({
      success: true,
      data: {
        results: [{ title: "<b>T</b>", url: "https://t.example/", snippet: "s" }, { url: 3 }],
      },
    }));
    expect(result).toEqual({
      success: true,
      data: {
        query: "tides",
        provider: "custom",
        results: [{ title: "T", url: "https://t.example/", snippet: "s" }],
        answers: [],
        suggestions: [],
        dropped: 1,
        allowed_domains: [],
        blocked_domains: [],
        filtered_out: 0,
      },
    });
  });

  it("a failure envelope passes through unchanged", async () => {
    const result = await run(async () => ({
      success: false,
      error: { code: "NOT_CONFIGURED", message: "no key" },
    }));
    expect(result).toEqual({
      success: false,
      error: { code: "NOT_CONFIGURED", message: "no key" },
    });
  });
});

describe("web_search descriptions, hints and aliases", () => {
  it("names web_fetch and wiki_search only when they are mounted", () => {
    const provider = createSearxngProvider({ baseUrl: searxng.origin });
    const alone = createWebSearchTool({ provider });
    expect(alone.description).not.toMatch(/web_fetch|wiki_search/);
    const beside = createWebSearchTool({ provider, mountedTools: ["web_fetch", "wiki_search"] });
    expect(beside.description).toContain("call web_fetch on a result's URL");
    expect(beside.description).toContain("prefer wiki_search");
  });

  it("a thrown provider error suggests wiki_search only when it is mounted", async () => {
    const provider = {
      name: "flaky",
      search: async () => {
        throw new Error("socket hang up");
      },
    };
    const alone = await createWebSearchTool({ provider }).run({ query: "x" });
    expect(!alone.success && alone.error).toMatchObject({
      code: "NETWORK_ERROR",
      hint: "Try again in a moment.",
    });
    const beside = await createWebSearchTool({ provider, mountedTools: ["wiki_search"] }).run({
      query: "x",
    });
    expect(!beside.success && beside.error.hint).toContain("wiki_search");
  });

  it("q / search_query → query and max_results / num_results → limit, silently", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: searxng.origin }),
    });
    const result = await tool.run({ q: "tides", max_results: 1 });
    expect(result.success && result.data).toMatchObject({ query: "tides" });
    expect(result.success && result.data.results).toHaveLength(1);
    expect((await tool.run({ search_query: "tides", num_results: 2 })).success).toBe(true);
  });

  it("an unreachable provider's hint does not tell the model to check a URL it never gave", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({ apiKey: "k", endpoint: "http://127.0.0.1:9/search" }),
    });
    const result = await tool.run({ query: "x" });
    expect(!result.success && result.error.code).toBe("NETWORK_ERROR");
    expect(!result.success && result.error.hint).not.toMatch(/URL/);
  });
});

describe("web_search's declared output schema", () => {
  it("is the data type exactly, and the tool declares it", () => {
    expectTypeOf<z.output<typeof webSearchOutputSchema>>().toEqualTypeOf<WebSearchToolData>();
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: searxng.origin }),
    });
    expect(tool.output).toBe(webSearchOutputSchema);
    const schema = toOutputJsonSchema(tool);
    expect(schema?.required).toEqual(Object.keys(webSearchOutputSchema.shape));
    expect(schema?.properties).toHaveProperty("results.maxItems", 10);
  });

  it("matches every provider's data (results, fallbacks, answers, suggestions), dropping nothing", async () => {
    const calls = [
      [createSearxngProvider({ baseUrl: searxng.origin }), "tides"],
      [createSearxngProvider({ baseUrl: searxng.origin }), "fallback"],
      [createSearxngProvider({ baseUrl: searxng.origin }), "nothing"],
      [createSerperProvider({ apiKey: "serper-key", endpoint: `${keyed.origin}/search` }), "tides"],
      [
        createBraveProvider({ apiKey: "brave-key", endpoint: `${keyed.origin}/res/v1/web/search` }),
        "tides",
      ],
      [createTavilyProvider({ apiKey: "tvly-key", endpoint: `${keyed.origin}/search` }), "tides"],
    ] as const;
    for (const [provider, query] of calls) {
      const result = await createWebSearchTool({ provider }).run({ query, limit: 10 });
      if (!result.success) throw new Error(`${provider.name}: ${JSON.stringify(result.error)}`);
      expect(JSON.stringify(webSearchOutputSchema.parse(result.data)), provider.name).toBe(
        JSON.stringify(result.data),
      );
    }
  });
});
