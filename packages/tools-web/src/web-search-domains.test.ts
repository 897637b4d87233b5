// web_search's allowed_domains / blocked_domains: each provider gets them in its own syntax
// (site: operators for SearXNG, Serper and Brave; include_domains / exclude_domains for Tavily),
// asserted on the request a local server speaking the provider's protocol received, and the
// results are filtered afterwards either way (subdomains count).
import { ok } from "@agentool/contract";
import { describe, expect, it } from "vitest";
import { createBraveProvider } from "./search-providers/brave.js";
import { createSearxngProvider } from "./search-providers/searxng.js";
import { createSerperProvider } from "./search-providers/serper.js";
import { createTavilyProvider } from "./search-providers/tavily.js";
import type { SearchProvider, SearchRequest } from "./search-providers/types.js";
import {
  BRAVE_RESPONSE,
  SEARXNG_RESPONSE,
  SERPER_RESPONSE,
  TAVILY_RESPONSE,
} from "./test-support/fixtures.js";
import { json, startServer } from "./test-support/http-server.js";
import { createWebSearchTool } from "./web-search.js";

const server = await startServer({
  "/search": json(SEARXNG_RESPONSE),
  "/serper": json(SERPER_RESPONSE),
  "/res/v1/web/search": json(BRAVE_RESPONSE),
  "/tavily": json(TAVILY_RESPONSE),
});
const last = () => server.requests.at(-1);
const lastQuery = () => new URL(last()?.url ?? "/", "http://x").searchParams.get("q");
const lastBody = () => JSON.parse(last()?.body ?? "{}") as Record<string, unknown>;

const WIKIPEDIA = "https://en.wikipedia.org/wiki/Tide";
const NOAA = "https://oceanservice.noaa.gov/facts/tides.html";

describe("web_search domain limits per provider", () => {
  it("SearXNG: site: operators in q; a subdomain of an allowed domain is kept", async () => {
    const tool = createWebSearchTool({
      provider: createSearxngProvider({ baseUrl: server.origin }),
    });
    const result = await tool.run({ query: "tides", allowed_domains: ["Wikipedia.org."] });
    expect(lastQuery()).toBe("tides site:wikipedia.org");
    expect(result.success && result.data).toMatchObject({
      results: [{ url: WIKIPEDIA }],
      allowed_domains: ["wikipedia.org"],
      filtered_out: 1,
    });
    expect(tool.renderResult(result)).toContain(
      'Results for "tides" (searxng, only wikipedia.org; 1 from other sites left out):',
    );
  });

  it("Serper: Google's site: OR site: and -site: in the POSTed q", async () => {
    const tool = createWebSearchTool({
      provider: createSerperProvider({ apiKey: "k", endpoint: `${server.origin}/serper` }),
    });
    const result = await tool.run({
      query: "tides",
      allowed_domains: ["noaa.gov", "wikipedia.org"],
      blocked_domains: ["fr.wikipedia.org"],
    });
    expect(lastBody().q).toBe("tides site:noaa.gov OR site:wikipedia.org -site:fr.wikipedia.org");
    expect(result.success && result.data.results.map((item) => item.url)).toEqual([
      WIKIPEDIA,
      "https://oceanservice.noaa.gov/education/tides/",
    ]);
    expect(result.success && result.data.filtered_out).toBe(0);
  });

  it("Brave: -site: in q, results filtered, an empty list says why; operators stay within 400 characters", async () => {
    const tool = createWebSearchTool({
      provider: createBraveProvider({
        apiKey: "k",
        endpoint: `${server.origin}/res/v1/web/search`,
      }),
    });
    const result = await tool.run({ query: "tides", blocked_domains: ["wikipedia.org"] });
    expect(lastQuery()).toBe("tides -site:wikipedia.org");
    expect(result.success && result.data).toMatchObject({ results: [], filtered_out: 1 });
    expect(tool.renderResult(result)).toContain(
      'No results for "tides" (brave, not wikipedia.org; 1 from other sites left out). Try other keywords or fewer domain limits.',
    );
    const many = Array.from({ length: 20 }, (_, index) => `site-number-${index}.example.org`);
    await tool.run({
      query: "tides",
      allowed_domains: many.slice(0, 10),
      blocked_domains: many.slice(10),
    });
    const sent = lastQuery() ?? "";
    expect(sent.length).toBeLessThanOrEqual(400);
    expect(sent).toMatch(/^tides site:site-number-0\.example\.org OR site:site-number-1\./);
    expect(sent).toContain("OR site:site-number-9.example.org -site:site-number-10.example.org");
    expect(sent).not.toContain("site-number-19");
  });

  it("Tavily: its own include_domains / exclude_domains fields", async () => {
    const tool = createWebSearchTool({
      provider: createTavilyProvider({ apiKey: "k", endpoint: `${server.origin}/tavily` }),
    });
    const result = await tool.run({
      query: "tides",
      allowed_domains: ["noaa.gov"],
      blocked_domains: ["tidesandcurrents.noaa.gov"],
    });
    expect(lastBody()).toMatchObject({
      query: "tides",
      include_domains: ["noaa.gov"],
      exclude_domains: ["tidesandcurrents.noaa.gov"],
    });
    expect(result.success && result.data.results.map((item) => item.url)).toEqual([NOAA]);
    await tool.run({ query: "tides" });
    expect(lastBody()).not.toHaveProperty("include_domains");
    expect(lastBody()).not.toHaveProperty("exclude_domains");
  });

  it("a host's own provider that ignores the limits is filtered all the same", async () => {
    const seen: SearchRequest[] = [];
    const provider: SearchProvider = {
      name: "custom",
      async search(request) {
        seen.push(request);
        return ok({
          results: [
            { title: "A", url: "https://docs.example.com/a", snippet: "" },
            { title: "B", url: "https://example.com.evil.org/b", snippet: "" },
            { title: "C", url: "https://ads.example.com/c", snippet: "" },
            { title: "D", url: "https://notexample.com/d", snippet: "" },
          ],
          answers: [],
          suggestions: [],
          dropped: 0,
        });
      },
    };
    const tool = createWebSearchTool({ provider });
    const result = await tool.run({
      query: "x",
      include_domains: ["example.com"],
      exclude_domains: ["ads.example.com"],
    });
    expect(seen.at(-1)).toMatchObject({
      allowedDomains: ["example.com"],
      blockedDomains: ["ads.example.com"],
    });
    expect(result.success && result.data.results.map((item) => item.title)).toEqual(["A"]);
    expect(result.success && result.data.filtered_out).toBe(3);
    await tool.run({ query: "x" });
    expect(seen.at(-1)).not.toHaveProperty("allowedDomains");
    const plain = await tool.run({ query: "x" });
    expect(plain.success && plain.data).toMatchObject({
      allowed_domains: [],
      blocked_domains: [],
      filtered_out: 0,
    });
    expect(tool.renderResult(plain)).toContain('Results for "x" (custom):');
  });
});

describe("web_search domain limits: what is refused", () => {
  const tool = createWebSearchTool({ provider: createSearxngProvider({ baseUrl: server.origin }) });
  const refusal = async (input: Record<string, unknown>) => {
    const before = server.requests.length;
    const result = await tool.run({ query: "tides", ...input });
    expect(server.requests.length).toBe(before);
    if (result.success) throw new Error("expected a refusal");
    expect(result.error.code).toBe("INVALID_INPUT");
    return `${result.error.message} ${result.error.hint ?? ""}`;
  };

  it("URLs, wildcards, paths and ports, each with the host name to send instead", async () => {
    expect(await refusal({ allowed_domains: ["https://docs.python.org/3/"] })).toBe(
      'allowed_domains[0] "https://docs.python.org/3/" is a URL, not a host name. Send bare host names such as "docs.python.org"; subdomains are included.',
    );
    expect(await refusal({ blocked_domains: ["ok.org", "*.pinterest.com"] })).toContain(
      'blocked_domains[1] "*.pinterest.com" has a wildcard. Send bare host names such as "pinterest.com" (it covers every subdomain)',
    );
    expect(await refusal({ allowed_domains: ["example.com/docs"] })).toContain(
      'has a path. Send bare host names such as "example.com"',
    );
    expect(await refusal({ allowed_domains: ["example.com:8080"] })).toContain(
      'is not a host name. Send bare host names such as "example.com"',
    );
    expect(await refusal({ allowed_domains: [""] })).toContain("is empty");
    expect(await refusal({ allowed_domains: ["exa mple.com"] })).toContain("is not a host name");
  });

  it("both lists only when no blocked domain covers an allowed one", async () => {
    expect(
      await refusal({ allowed_domains: ["docs.example.com"], blocked_domains: ["example.com"] }),
    ).toContain(
      'blocked_domains "example.com" also blocks allowed_domains "docs.example.com": no result could be both.',
    );
    expect(
      await refusal({ allowed_domains: ["example.com"], blocked_domains: ["EXAMPLE.com"] }),
    ).toContain("Drop one of them");
    const fine = await tool.run({
      query: "tides",
      allowed_domains: ["wikipedia.org"],
      blocked_domains: ["fr.wikipedia.org"],
    });
    expect(fine.success).toBe(true);
  });

  it("at most 20 per list; international names are sent as punycode", async () => {
    const many = Array.from({ length: 21 }, (_, index) => `d${index}.org`);
    expect(await refusal({ allowed_domains: many })).toContain("allowed_domains");
    await tool.run({ query: "tides", blocked_domains: ["bücher.de"] });
    expect(lastQuery()).toBe("tides -site:xn--bcher-kva.de");
  });

  it("the fields are described, snake_case, in the schema", () => {
    expect(tool.input.shape.allowed_domains.description).toBe(
      "Only results from these sites (host names, subdomains included).",
    );
    expect(tool.input.shape.blocked_domains.description).toBe("Never results from these sites.");
  });
});
