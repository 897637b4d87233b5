import { assertConformance, checkConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { createWebTools } from "./create-web-tools.js";
import { createSearxngProvider } from "./search-providers/searxng.js";
import { SEARXNG_RESPONSE, wikipediaResponse } from "./test-support/fixtures.js";
import { json, respond, startServer } from "./test-support/http-server.js";

const server = await startServer({
  "/search": json(SEARXNG_RESPONSE),
  "/en/w/api.php": json(wikipediaResponse("en", ["Tide"])),
  "/page": respond(
    "text/html",
    "<html><head><title>P</title></head><body><h1>Page</h1></body></html>",
  ),
  "/long": respond(
    "text/html",
    `<html><head><title>Long</title></head><body><main>${Array.from(
      { length: 400 },
      (_, index) => `<p>Paragraph ${index + 1} about the tides and the moon.</p>`,
    ).join("")}</main></body></html>`,
  ),
});

describe("createWebTools", () => {
  it("gives wiki_search and web_fetch by default, web_search with a provider, and drops false entries", () => {
    expect(createWebTools().map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch"]);
    const all = createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: server.origin }) },
    });
    expect(all.map((tool) => tool.name)).toEqual(["web_search", "wiki_search", "web_fetch"]);
    expect(createWebTools({ wiki: false, fetch: false })).toEqual([]);
    expect(() => createWebTools({ read: {} } as never)).toThrow(/read/);
  });

  // Every tool here reads a local server that never changes, so none is listed as
  // nondeterministic. web_fetch runs with a fixed clock and no cache: a repeated call would
  // otherwise say `cached: true` (true, but a different result); "a repeat differs only in
  // cached" is its own test in web-fetch.test.ts.
  const fetchOptions = {
    cacheTtlMs: 0,
    now: () => new Date("2025-06-01T10:00:00Z"),
    allowHosts: ["127.0.0.1"],
  };
  const samples = {
    web_search: { query: "tides" },
    wiki_search: { query: "tide" },
    web_fetch: { url: `${server.origin}/page` },
  };
  const cutSamples = { web_fetch: { url: `${server.origin}/long`, limit: 2_000 } };

  it("every tool conforms to the contract (runtime-neutral entry), a long page pages", async () => {
    const tools = createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: server.origin }) },
      wiki: { apiUrl: `${server.origin}/{language}/w/api.php` },
      fetch: fetchOptions,
    });
    const report = await assertConformance(tools, { samples, cutSamples });
    expect(report.checkedTools).toEqual(["web_search", "wiki_search", "web_fetch"]);
  });

  it("partial sets conform too: no description names a tool that is not mounted", async () => {
    const wiki = { apiUrl: `${server.origin}/{language}/w/api.php` };
    const pair = createWebTools({ wiki, fetch: fetchOptions });
    expect(pair.map((tool) => tool.name)).toEqual(["wiki_search", "web_fetch"]);
    for (const tool of pair) expect(tool.description).not.toContain("web_search");
    await assertConformance(pair, {
      samples: { wiki_search: samples.wiki_search, web_fetch: samples.web_fetch },
      cutSamples,
    });
    const fetchOnly = createWebTools({ wiki: false, fetch: fetchOptions });
    expect(fetchOnly[0]?.description).not.toMatch(/web_search|wiki_search/);
    await assertConformance(fetchOnly, { samples: { web_fetch: samples.web_fetch }, cutSamples });
    const searchOnly = createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: server.origin }) },
      wiki: false,
      fetch: false,
    });
    expect(searchOnly[0]?.description).not.toMatch(/web_fetch|wiki_search/);
    await assertConformance(searchOnly, { samples: { web_search: samples.web_search } });
    const wikiOnly = createWebTools({ wiki, fetch: false });
    await assertConformance(wikiOnly, { samples: { wiki_search: samples.wiki_search } });
  });

  it("the kit would catch a description naming an absent tool", async () => {
    const lying = createWebTools({
      wiki: false,
      fetch: { ...fetchOptions, mountedTools: ["web_search"] },
    });
    expect(lying[0]?.description).toContain("web_search");
    const report = await checkConformance(lying, { samples: { web_fetch: samples.web_fetch } });
    expect(report.violations.map((violation) => violation.rule)).toContain(
      "description-names-absent-tool",
    );
  });

  it("descriptions stay short and field descriptions never open with 'Optional:' (issue 28 point 9)", () => {
    const limits: Record<string, number> = { web_search: 320, wiki_search: 360, web_fetch: 560 };
    for (const tool of createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: server.origin }) },
    })) {
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(limits[tool.name] ?? 0);
      for (const [field, schema] of Object.entries(tool.input.shape)) {
        const text = (schema as { description?: string }).description ?? "";
        expect(text, `${tool.name}.${field}`).not.toMatch(/^Optional:/);
      }
    }
  });

  it("with every tool mounted, each description points to its siblings", () => {
    const [search, wiki, fetch] = createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: server.origin }) },
    });
    expect(search?.description).toContain("web_fetch");
    expect(search?.description).toContain("wiki_search");
    expect(wiki?.description).toContain("web_search");
    expect(fetch?.description).toContain("from web_search or wiki_search results");
  });

  it("every tool honours name and description overrides", () => {
    const tools = createWebTools({
      search: {
        provider: createSearxngProvider({ baseUrl: server.origin }),
        name: "search_internet",
      },
      wiki: { description: "Look things up on Wikipedia, please." },
      fetch: { name: "read_url" },
    });
    expect(tools.map((tool) => tool.name)).toEqual(["search_internet", "wiki_search", "read_url"]);
    expect(tools[1]?.description).toBe("Look things up on Wikipedia, please.");
  });
});
