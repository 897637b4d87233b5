import { assertConformance } from "@agentool/contract/testing";
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

  it("every tool conforms to the contract (runtime-neutral entry)", async () => {
    const tools = createWebTools({
      search: { provider: createSearxngProvider({ baseUrl: server.origin }) },
      wiki: { apiUrl: `${server.origin}/{language}/w/api.php` },
    });
    const report = await assertConformance(tools, {
      samples: {
        web_search: { query: "tides" },
        wiki_search: { query: "tide" },
        web_fetch: { url: `${server.origin}/page` },
      },
    });
    expect(report.checkedTools).toEqual(["web_search", "wiki_search", "web_fetch"]);
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
