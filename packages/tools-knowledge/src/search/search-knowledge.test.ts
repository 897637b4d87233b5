import { parseNextCall, toJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { describe, expect, it } from "vitest";
import { KnowledgeSourceError } from "../engine/knowledge-source-error.js";
import type {
  KnowledgeHit,
  KnowledgeSearchContext,
  KnowledgeSearchRequest,
  KnowledgeSearchResult,
  KnowledgeSource,
} from "../engine/types.js";
import {
  createSearchKnowledgeTool,
  formatSearchKnowledgeResult,
  type SearchKnowledgeToolData,
} from "./search-knowledge.js";

interface Passage {
  file: string;
  start_line: number;
  end_line: number;
  heading_trail: string[];
  text: string;
  tags?: string[];
  source?: string;
}

/**
 * A small but real source: ranks passages by how many query words they contain, pages and
 * filters as the interface says, and records what it was asked.
 */
class ListSource implements KnowledgeSource {
  readonly requests: KnowledgeSearchRequest[] = [];
  constructor(
    private readonly passages: Passage[],
    private readonly warnings: string[] = [],
  ) {}

  async search(
    request: KnowledgeSearchRequest,
    context: KnowledgeSearchContext,
  ): Promise<KnowledgeSearchResult> {
    this.requests.push(request);
    context.progress?.({ message: "indexing", completed: 1, total: 1 });
    const words = request.query.toLowerCase().split(/\s+/);
    const scored = (candidates: Passage[]) =>
      candidates
        .map((passage) => ({
          passage,
          score: words.filter((word) => passage.text.toLowerCase().includes(word)).length,
        }))
        .filter((entry) => entry.score > 0)
        .sort(
          (left, right) =>
            right.score - left.score || left.passage.file.localeCompare(right.passage.file),
        );
    const filtered = this.passages.filter(
      (passage) =>
        (request.path_prefix === undefined || passage.file.startsWith(request.path_prefix)) &&
        (request.tags === undefined || request.tags.every((tag) => passage.tags?.includes(tag))),
    );
    const matches = scored(filtered);
    const result: KnowledgeSearchResult = {
      hits: matches.slice(request.offset - 1, request.offset - 1 + request.limit).map(
        ({ passage, score }): KnowledgeHit => ({
          file: passage.file,
          start_line: passage.start_line,
          end_line: passage.end_line,
          heading_trail: passage.heading_trail,
          score,
          excerpt: passage.text,
          reference: `${passage.file}:${passage.start_line}-${passage.end_line}`,
          ...(passage.tags === undefined ? {} : { tags: passage.tags }),
          ...(passage.source === undefined ? {} : { source: passage.source }),
        }),
      ),
      total: matches.length,
      searched: {
        documents: new Set(filtered.map((passage) => passage.file)).size,
        chunks: filtered.length,
      },
      warnings: [...this.warnings],
    };
    if (matches.length === 0) {
      result.empty_reason =
        this.passages.length === 0
          ? "empty_corpus"
          : scored(this.passages).length > 0
            ? "filtered_out"
            : "no_match";
    }
    return result;
  }
}

function corpus(count: number): Passage[] {
  return Array.from({ length: count }, (_, index) => ({
    file: `${index % 2 === 0 ? "docs" : "notes"}/page-${String(index).padStart(2, "0")}.md`,
    start_line: 10 + index,
    end_line: 20 + index,
    heading_trail: ["Guide", `Part ${index}`],
    text: `Vector indexes part ${index}: HNSW builds a graph.${index % 3 === 0 ? " Extra hnsw detail." : ""}`,
  }));
}

describe("search_knowledge", () => {
  it("returns the hits with their references, trails, scores and excerpts, best first", async () => {
    const tool = createSearchKnowledgeTool({
      source: new ListSource(corpus(3)),
      mountedTools: ["read_file"],
    });
    const result = await tool.run({ query: "hnsw detail" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.total).toBe(3);
    expect(result.data.hits[0]).toMatchObject({
      file: "docs/page-00.md",
      reference: "docs/page-00.md:10-20",
      heading_trail: ["Guide", "Part 0"],
      score: 2,
      excerpt_truncated: false,
    });
    expect(result.data.truncated).toBe(false);
    expect(result.data.next_offset).toBeUndefined();
    const rendered = tool.renderResult(result) as string;
    expect(rendered).toContain('3 hits for "hnsw detail"');
    expect(rendered).toContain("1. docs/page-00.md:10-20 — Guide > Part 0\n");
    // Scores stay in the data: fused ranks say little to a model beside the order.
    expect(rendered).not.toContain("score");
    expect(rendered).toContain("   Vector indexes part 0: HNSW builds a graph. Extra hnsw detail.");
    expect(rendered).toContain(
      'Open a passage with read_file: docs/page-00.md:10-20 is path="docs/page-00.md", offset=10, limit=11.',
    );
  });

  it("pages with offset and names the exact next call in the contract's marker", async () => {
    const source = new ListSource(corpus(23));
    const tool = createSearchKnowledgeTool({ source });
    const first = await tool.run({ query: "hnsw", limit: 5, path_prefix: "./docs/" });
    expect(first.success).toBe(true);
    if (!first.success) return;
    expect(first.data).toMatchObject({
      total: 12,
      truncated: true,
      next_offset: 6,
      path_prefix: "docs/",
      offset: 1,
      limit: 5,
    });
    const rendered = tool.renderResult(first) as string;
    expect(rendered).toContain("Hits 1–5 of 12");
    expect(rendered).toContain(
      '…[truncated: 7 more hits — call search_knowledge again with query="hnsw", path_prefix="docs/", limit=5, offset=6]',
    );
    const next = parseNextCall(rendered);
    expect(next?.tool).toBe("search_knowledge");
    // The marker carries the page size: following it exactly gives the next page of 5.
    const second = await tool.run({ ...next?.args });
    expect(second.success && second.data.hits.map((hit) => hit.file)).toEqual(
      corpus(23)
        .filter((passage) => passage.file.startsWith("docs/"))
        .map((passage) => passage.file)
        .slice(5, 10),
    );
    expect(source.requests.at(-1)).toEqual({
      query: "hnsw",
      offset: 6,
      limit: 5,
      path_prefix: "docs/",
    });
  });

  it("refuses an offset past the end with the total and the valid range", async () => {
    const tool = createSearchKnowledgeTool({ source: new ListSource(corpus(4)) });
    const result = await tool.run({ query: "hnsw", offset: 9 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("INVALID_INPUT");
    expect(result.error.message).toContain("there are 4 hits in all");
    expect(result.error.hint).toContain("offset between 1 and 4");
  });

  it("says why a result is empty, in each of the three cases, naming the next step", async () => {
    const mounted = ["read_file", "web_fetch", "grep_search"];
    const emptyTool = createSearchKnowledgeTool({
      source: new ListSource([]),
      mountedTools: mounted,
    });
    const empty = await emptyTool.run({ query: "x" });
    expect(empty.success && empty.data.empty_reason).toBe("empty_corpus");
    expect(emptyTool.renderResult(empty)).toBe(
      "The knowledge folder has no Markdown or text file yet (.md, .markdown, .mdx, .txt, .rst; hidden folders are skipped), so search_knowledge has nothing to search. Save pages into it with web_fetch, then call search_knowledge again.",
    );

    const tool = createSearchKnowledgeTool({
      source: new ListSource(corpus(4)),
      mountedTools: mounted,
    });
    const none = await tool.run({ query: "zeppelin" });
    expect(none.success && none.data.empty_reason).toBe("no_match");
    expect(tool.renderResult(none)).toBe(
      'No passage matches "zeppelin" in 4 documents. Try other words: the terms the documents would use, a synonym, fewer words, or grep_search for an exact string.',
    );

    const filtered = await tool.run({ query: "hnsw", path_prefix: "archive" });
    expect(filtered.success && filtered.data.empty_reason).toBe("filtered_out");
    expect(tool.renderResult(filtered)).toBe(
      'Passages match "hnsw", but none with path_prefix="archive". Call search_knowledge again without it (or with a shorter path_prefix).',
    );
  });

  it("uses the name it was given in every message and names no tool that is not mounted", async () => {
    const source = new ListSource([]);
    const memory = createSearchKnowledgeTool({
      source,
      name: "search_memory",
      sourceKind: "store",
    });
    expect(memory.name).toBe("search_memory");
    expect(memory.description).not.toMatch(/remember|read_file|search_knowledge/);
    const empty = await memory.run({ query: "pricing" });
    expect(memory.renderResult(empty)).toBe(
      "Nothing has been saved yet, so search_memory has nothing to search. Excerpts must be saved first.",
    );

    const paired = createSearchKnowledgeTool({
      source,
      name: "search_memory",
      sourceKind: "store",
      mountedTools: ["remember", "search_knowledge"],
    });
    expect(paired.description).toContain("saved earlier with remember");
    expect(paired.description).toContain("use search_knowledge instead");
    expect(paired.renderResult(await paired.run({ query: "pricing" }))).toContain(
      "Save an excerpt with remember first",
    );

    const alone = createSearchKnowledgeTool({ source });
    expect(alone.description).not.toMatch(/read_file|web_fetch|grep_search/);
    expect(alone.description).toContain("Answer citing file and lines from the reference");
    const beside = createSearchKnowledgeTool({ source, mountedTools: ["read_file", "web_fetch"] });
    expect(beside.description).toContain(
      'read the cited lines with read_file (reference file.md:12-40 → path="file.md", offset=12, limit=29)',
    );
    expect(beside.description).toContain("pages saved by web_fetch");
    expect(
      createSearchKnowledgeTool({ source, description: "Search the team handbook for policies." })
        .description,
    ).toBe("Search the team handbook for policies.");
  });

  it("filters a store by tags (a list, a comma-separated string accepted) and carries them into the next call", async () => {
    const passages: Passage[] = Array.from({ length: 6 }, (_, index) => ({
      file: `memory/${index}`,
      start_line: 1,
      end_line: 1,
      heading_trail: [],
      text: `pricing note ${index}`,
      tags: index % 2 === 0 ? ["pricing", "2024"] : ["pricing"],
      source: `https://example.com/${index}`,
    }));
    const source = new ListSource(passages);
    const tool = createSearchKnowledgeTool({ source, sourceKind: "store", name: "search_memory" });
    // The advertised type is a list of strings, the same as remember's and memory_*'s tags.
    const properties = toJsonSchema(tool).properties as Record<string, unknown>;
    expect(properties.tags).toMatchObject({
      type: "array",
      items: { type: "string" },
    });
    const result = await tool.run({
      query: "pricing",
      tags: [" 2024", "pricing ", "2024"],
      limit: 2,
    });
    expect(result.success).toBe(true);
    if (!result.success) return;
    expect(result.data.tags).toEqual(["2024", "pricing"]);
    expect(source.requests.at(-1)?.tags).toEqual(["2024", "pricing"]);
    expect(result.data.total).toBe(3);
    const rendered = tool.renderResult(result) as string;
    // A store hit is named by its key, without lines (there is no file to open).
    expect(rendered).toContain(
      "1. key memory/0 (source https://example.com/0; tags pricing, 2024)",
    );
    expect(rendered).toContain(
      'call search_memory again with query="pricing", tags=["2024","pricing"], limit=2, offset=3]',
    );
    expect(rendered).not.toContain("read_file");
    // A comma-separated string (the old form) is still accepted, silently.
    const commas = await tool.run({ query: "pricing", tags: " 2024, pricing ,2024", limit: 2 });
    expect(commas.success && commas.data.tags).toEqual(["2024", "pricing"]);

    const corpusTool = createSearchKnowledgeTool({ source });
    const refused = await corpusTool.run({ query: "pricing", tags: ["2024"] });
    expect(refused.success).toBe(false);
    if (!refused.success) expect(refused.error.message).toContain('unknown field "tags"');
    const tooMany = await tool.run({ query: "pricing", tags: "a,b,c,d,e,f,g,h,i,j,k".split(",") });
    expect(!tooMany.success && tooMany.error.message).toContain("at most 10");
  });

  it("caps excerpts at a line end and redacts private keys", async () => {
    const long = Array.from(
      { length: 40 },
      (_, index) => `line ${index} about hnsw graphs and layers`,
    ).join("\n");
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----";
    const source = new ListSource([
      { file: "a.md", start_line: 1, end_line: 40, heading_trail: [], text: long },
      { file: "b.md", start_line: 1, end_line: 4, heading_trail: [], text: `hnsw secret\n${key}` },
    ]);
    const tool = createSearchKnowledgeTool({ source, maxExcerptCharacters: 200 });
    const result = await tool.run({ query: "hnsw" });
    expect(result.success).toBe(true);
    if (!result.success) return;
    const [first, second] = result.data.hits;
    expect(first?.excerpt_truncated).toBe(true);
    expect(first?.excerpt.length).toBeLessThanOrEqual(200);
    expect(first?.excerpt.endsWith("layers")).toBe(true);
    expect(second?.excerpt).toBe("hnsw secret\n[private key redacted]");
    expect(tool.renderResult(result)).toContain("layers …");
  });

  it("validates its input: blank query, a path_prefix outside the folder, aliases", async () => {
    const source = new ListSource(corpus(2));
    const tool = createSearchKnowledgeTool({ source });
    const blank = await tool.run({ query: "   " });
    expect(!blank.success && blank.error.code).toBe("INVALID_INPUT");
    const outside = await tool.run({ query: "hnsw", path_prefix: "../secrets" });
    expect(!outside.success && outside.error.code).toBe("INVALID_PATH");
    const elsewhere = await tool.run({ query: "hnsw", path_prefix: "/etc/" });
    expect(!elsewhere.success && elsewhere.error.code).toBe("INVALID_PATH");
    const aliased = await tool.run({ q: "hnsw", top_k: 1 });
    expect(aliased.success && aliased.data.hits.length).toBe(1);
    const limit = await tool.run({ query: "hnsw", limit: 51 });
    expect(!limit.success && limit.error.code).toBe("INVALID_INPUT");
    expect(() => createSearchKnowledgeTool({ source, defaultLimit: 80 })).toThrow(
      /defaultLimit must not exceed maxLimit/,
    );
    expect(() => createSearchKnowledgeTool({ source, limit: 3 } as never)).toThrow(
      /unknown field "limit"/,
    );
  });

  it("accepts an absolute path_prefix inside the folder and refuses only one outside it", async () => {
    // A corpus source names its folder (createCorpusSource's root); a host may pass roots too.
    const source = Object.assign(new ListSource(corpus(3)), { root: "/work/kb" });
    const tool = createSearchKnowledgeTool({ source });
    const inside = await tool.run({ query: "hnsw", path_prefix: "/work/kb/docs/" });
    expect(inside.success && inside.data.path_prefix).toBe("docs/");
    expect(source.requests.at(-1)?.path_prefix).toBe("docs/");
    const whole = await tool.run({ query: "hnsw", path_prefix: "/work/kb" });
    expect(whole.success && whole.data.path_prefix).toBeUndefined();
    const beside = await tool.run({ query: "hnsw", path_prefix: "/work/kb-evil/docs" });
    expect(!beside.success && beside.error.code).toBe("INVALID_PATH");
    expect(!beside.success && beside.error.message).toBe(
      'path_prefix "/work/kb-evil/docs" is an absolute path outside the knowledge folder root.',
    );
    const hosted = createSearchKnowledgeTool({
      source: new ListSource(corpus(3)),
      roots: ["/srv/project"],
    });
    const named = await hosted.run({ query: "hnsw", path_prefix: "/srv/project/docs" });
    expect(named.success && named.data.path_prefix).toBe("docs");
  });

  it("maps a source's KnowledgeSourceError to its code and anything else to INTERNAL; forwards progress and warnings", async () => {
    const failing: KnowledgeSource = {
      search: async () => {
        throw new KnowledgeSourceError("NOT_CONFIGURED", "The knowledge folder is a file.", {
          hint: "Point root at a folder.",
        });
      },
    };
    const configured = await createSearchKnowledgeTool({ source: failing }).run({ query: "x" });
    expect(configured).toEqual({
      success: false,
      error: {
        code: "NOT_CONFIGURED",
        message: "The knowledge folder is a file.",
        hint: "Point root at a folder.",
        retryable: false,
      },
    });
    const broken: KnowledgeSource = {
      search: async () => {
        throw new Error("disk on fire");
      },
    };
    const internal = await createSearchKnowledgeTool({ source: broken }).run({ query: "x" });
    expect(!internal.success && internal.error.code).toBe("INTERNAL");

    const updates: unknown[] = [];
    const warned = createSearchKnowledgeTool({
      source: new ListSource(corpus(1), ["The knowledge index was rebuilt: corrupt."]),
    });
    const result = await warned.run(
      { query: "hnsw" },
      { progress: (update) => updates.push(update) },
    );
    expect(updates).toEqual([{ message: "indexing", completed: 1, total: 1 }]);
    expect(result.success && result.data.warnings).toEqual([
      "The knowledge index was rebuilt: corrupt.",
    ]);
    expect(warned.renderResult(result)).toContain(
      "\nNote: The knowledge index was rebuilt: corrupt.",
    );
  });

  it("renders data alone (formatSearchKnowledgeResult) with one-hit wording", () => {
    const data: SearchKnowledgeToolData = {
      query: "q",
      offset: 1,
      limit: 8,
      hits: [
        {
          file: "a.md",
          start_line: 3,
          end_line: 3,
          heading_trail: [],
          score: 0.0327868,
          excerpt: "one line",
          reference: "a.md:3-3",
          excerpt_truncated: false,
        },
      ],
      total: 1,
      truncated: false,
      searched: { documents: 1, chunks: 1 },
      warnings: [],
    };
    expect(formatSearchKnowledgeResult(data)).toBe(
      '1 hit for "q" (best first; 1 document, 1 passage searched):\n1. a.md:3-3\n   one line',
    );
  });

  it("passes the conformance kit (paged sample, store form, renamed)", async () => {
    await assertConformance([createSearchKnowledgeTool({ source: new ListSource(corpus(12)) })], {
      samples: { search_knowledge: { query: "hnsw" } },
      cutSamples: { search_knowledge: { query: "hnsw", path_prefix: "docs/", limit: 3 } },
    });
    const store = new ListSource(
      Array.from({ length: 5 }, (_, index) => ({
        file: `m/${index}`,
        start_line: 1,
        end_line: 1,
        heading_trail: [],
        text: "saved fact",
        tags: ["fact"],
      })),
    );
    await assertConformance(
      [
        createSearchKnowledgeTool({ source: store, sourceKind: "store", name: "search_memory" }),
        createSearchKnowledgeTool({
          source: new ListSource(corpus(3)),
          mountedTools: ["search_memory"],
        }),
      ],
      {
        samples: { search_memory: { query: "fact" }, search_knowledge: { query: "hnsw" } },
        cutSamples: { search_memory: { query: "fact", tags: ["fact"], limit: 2 } },
      },
    );
  });
});
