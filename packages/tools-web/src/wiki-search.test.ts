import { describe, expect, it } from "vitest";
import { wikipediaResponse } from "./test-support/fixtures.js";
import { json, startServer } from "./test-support/http-server.js";
import { createWikiSearchTool } from "./wiki-search.js";

const wiki = await startServer({
  "/en/w/api.php": json(wikipediaResponse("en", ["Tide", "Tidal range", "Tidal force"])),
  "/zh/w/api.php": json(wikipediaResponse("zh", ["潮汐", "潮差"])),
  "/de/w/api.php": json({ error: { code: "internal_api_error", info: "database is down" } }),
  "/fr/w/api.php": json({
    batchcomplete: true,
    query: { searchinfo: { totalhits: 0 }, search: [] },
  }),
});
const apiUrl = `${wiki.origin}/{language}/w/api.php`;
const articleUrl = `${wiki.origin}/{language}/wiki/{title}`;

describe("wiki_search", () => {
  it("speaks Wikipedia's search API and merges languages round-robin", async () => {
    const tool = createWikiSearchTool({ languages: ["zh", "en"], apiUrl, articleUrl });
    const result = await tool.run({ query: "tide", limit: 4 });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.results.map((item) => `${item.lang}:${item.title}`)).toEqual([
      "zh:潮汐",
      "en:Tide",
      "zh:潮差",
      "en:Tidal range",
    ]);
    expect(result.data.results[1]).toEqual({
      title: "Tide",
      url: `${wiki.origin}/en/wiki/Tide`,
      snippet: "Tide is an article in en & more",
      lang: "en",
    });
    expect(result.data.results[3]?.url).toBe(`${wiki.origin}/en/wiki/Tidal_range`);
    const seen = wiki.requests.find((request) => request.url.startsWith("/en/"));
    const params = new URL(seen?.url ?? "", "http://x").searchParams;
    expect(Object.fromEntries(params)).toMatchObject({
      action: "query",
      list: "search",
      srsearch: "tide",
      srlimit: "4",
      format: "json",
      origin: "*",
    });
    expect(tool.renderResult(result)).toContain("1. [zh] 潮汐");
  });

  it("searches one language when the model asks, and validates the code", async () => {
    const tool = createWikiSearchTool({ languages: ["en"], apiUrl, articleUrl });
    const result = await tool.run({ query: "tide", language: "zh" });
    expect(result.success && result.data.results.every((item) => item.lang === "zh")).toBe(true);
    const bad = await tool.run({ query: "tide", language: "../evil" });
    expect(!bad.success && bad.error.code).toBe("INVALID_INPUT");
  });

  it("reports a failing language beside working ones, and fails when all fail", async () => {
    const tool = createWikiSearchTool({ languages: ["en", "de"], apiUrl, articleUrl });
    const partial = await tool.run({ query: "tide" });
    expect(partial.success && partial.data.failures).toEqual([
      { lang: "de", message: expect.stringContaining("database is down") },
    ]);
    expect(tool.renderResult(partial)).toContain("(de.wikipedia.org failed:");
    const only = await createWikiSearchTool({ languages: ["de"], apiUrl, articleUrl }).run({
      query: "x",
    });
    expect(!only.success && only.error.code).toBe("NETWORK_ERROR");
    const unreachable = await createWikiSearchTool({
      languages: ["en", "zh"],
      apiUrl: "http://127.0.0.1:9/{language}/w/api.php",
    }).run({ query: "x" });
    expect(!unreachable.success && unreachable.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
    });
  });

  it("says why a result is empty", async () => {
    const tool = createWikiSearchTool({ languages: ["fr"], apiUrl, articleUrl });
    const result = await tool.run({ query: "zzzz" });
    expect(result.success && result.data.results).toEqual([]);
    expect(tool.renderResult(result)).toMatch(/No Wikipedia articles match "zzzz" \(fr\)/);
  });

  it("validates options", () => {
    expect(() => createWikiSearchTool({ languages: ["EN GLISH"] })).toThrow(/languages/);
    expect(() => createWikiSearchTool({ apiUrl: "https://x.example/api.php" })).toThrow(/apiUrl/);
    expect(() => createWikiSearchTool({ language: "en" } as never)).toThrow(/language/);
  });
});

describe("wiki_search: hints fit a query-only tool; descriptions name only mounted tools", () => {
  it("an unreachable Wikipedia never tells the model to check a URL", async () => {
    const unreachable = await createWikiSearchTool({
      languages: ["en"],
      apiUrl: "http://127.0.0.1:9/{language}/w/api.php",
    }).run({ query: "x" });
    expect(!unreachable.success && unreachable.error).toMatchObject({
      code: "NETWORK_ERROR",
      retryable: true,
      hint: "Wikipedia may be unreachable from this network; try again later.",
    });
    const beside = await createWikiSearchTool({
      languages: ["en", "zh"],
      apiUrl: "http://127.0.0.1:9/{language}/w/api.php",
      mountedTools: ["web_search"],
    }).run({ query: "x" });
    expect(!beside.success && beside.error.hint).toBe(
      "Wikipedia may be unreachable from this network; try again later, or use web_search.",
    );
  });

  it("an error status from the API is NETWORK_ERROR with a hint about Wikipedia, not a URL", async () => {
    const result = await createWikiSearchTool({
      languages: ["xx"],
      apiUrl,
      articleUrl,
    }).run({ query: "x" });
    expect(!result.success && result.error.code).toBe("NETWORK_ERROR");
    expect(!result.success && result.error.message).toContain("404");
    expect(!result.success && result.error.hint).not.toMatch(/\bURL\b|typo/);
  });

  it("the description names web_fetch and web_search only when mounted", () => {
    const alone = createWikiSearchTool().description;
    expect(alone).not.toMatch(/web_fetch|web_search/);
    const beside = createWikiSearchTool({ mountedTools: ["web_fetch", "web_search"] }).description;
    expect(beside).toContain("Read an article with web_fetch");
    expect(beside).toContain("use web_search instead");
  });

  it("q → query and lang → language, silently", async () => {
    const tool = createWikiSearchTool({ languages: ["en"], apiUrl, articleUrl });
    const result = await tool.run({ q: "tide", lang: "zh" });
    expect(result.success && result.data.languages).toEqual(["zh"]);
  });
});
