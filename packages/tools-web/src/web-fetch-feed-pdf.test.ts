// Per-call `max_entries` for feeds, and the host's switch that turns PDF conversion off.
import { describe, expect, it } from "vitest";
import { createFetchTransport } from "./internal/http-transport.js";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { respond, startServer } from "./test-support/http-server.js";
import { buildPdf } from "./test-support/pdf.js";
import type { WebFetchToolOptions } from "./web-fetch.js";

function rss(count: number): string {
  const items = Array.from(
    { length: count },
    (_, index) =>
      `<item><title>Entry ${index + 1}</title><link>https://feed.example/${index + 1}</link><description>Summary ${index + 1}.</description></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Many</title>${items.join("")}</channel></rss>`;
}

const bigPdf = buildPdf(
  Array.from({ length: 60 }, (_, index) => `Page ${index + 1} ${"of a long report ".repeat(10)}`),
  "Report",
);
const server = await startServer({
  "/45.rss": respond("application/rss+xml", rss(45)),
  "/120.rss": respond("application/rss+xml", rss(120)),
  "/report.pdf": respond("application/pdf", bigPdf),
  "/report": respond("application/octet-stream", bigPdf),
});
const at = (path: string) => `${server.origin}${path}`;
const tool = (options: WebFetchToolOptions = {}) =>
  createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], ...options });

describe("web_fetch max_entries", () => {
  it("lists 30 entries by default and says how to list all; max_entries lists fewer or more", async () => {
    const fetcher = tool();
    const byDefault = await fetcher.run({ url: at("/45.rss") });
    expect(byDefault.success && byDefault.data).toMatchObject({
      kind: "feed",
      entries_total: 45,
      max_entries: 30,
    });
    expect(byDefault.success && byDefault.data.entries).toHaveLength(30);
    expect(fetcher.renderResult(byDefault)).toContain(
      "Type: feed, the first 30 of 45 entries (max_entries=45 lists all)",
    );
    const all = await fetcher.run({ url: at("/45.rss"), max_entries: 45 });
    expect(all.success && all.data.entries).toHaveLength(45);
    expect(all.success && all.data.content).toContain("45. Entry 45");
    expect(fetcher.renderResult(all)).toContain("Type: feed, 45 entries");
    const few = await fetcher.run({ url: at("/45.rss"), max_entries: 3 });
    expect(few.success && few.data.entries?.map((entry) => entry.title)).toEqual([
      "Entry 1",
      "Entry 2",
      "Entry 3",
    ]);
    expect(few.success && few.data.content).not.toContain("Entry 4");
  });

  it("is bounded (1–100 by default) with the bounds in its description", async () => {
    const fetcher = tool();
    for (const max_entries of [0, 101, 2.5]) {
      const result = await fetcher.run({ url: at("/45.rss"), max_entries });
      expect(!result.success && result.error.code).toBe("INVALID_INPUT");
      expect(!result.success && result.error.message).toContain("max_entries");
    }
    expect(fetcher.input.shape.max_entries.description).toBe(
      "Feeds: entries to list (default 30, at most 100).",
    );
    const wide = tool({ maxFeedEntries: 150 });
    expect(wide.input.shape.max_entries.description).toBe(
      "Feeds: entries to list (default 150, at most 150).",
    );
    const result = await wide.run({ url: at("/120.rss") });
    expect(result.success && result.data.entries).toHaveLength(120);
  });

  it("past the most a call may list, the header says no more can be listed", async () => {
    const fetcher = tool();
    const byDefault = await fetcher.run({ url: at("/120.rss") });
    expect(fetcher.renderResult(byDefault)).toContain(
      "the first 30 of 120 entries (max_entries=100 lists more)",
    );
    const most = await fetcher.run({ url: at("/120.rss"), max_entries: 100 });
    expect(fetcher.renderResult(most)).toContain(
      "the first 100 of 120 entries (no more can be listed)",
    );
  });

  it("a walk repeats max_entries in the next call and reads the same copy", async () => {
    const fetcher = tool();
    const before = server.requests.length;
    const first = await fetcher.run({ url: at("/120.rss"), max_entries: 80, limit: 1_000 });
    if (!first.success) throw new Error(first.error.message);
    const text = fetcher.renderResult(first) as string;
    expect(text.split("\n").at(-1)).toMatch(
      new RegExp(
        `call web_fetch again with url="${at("/120.rss")}", limit=1000, max_entries=80, offset=\\d+\\]$`,
      ),
    );
    const next = await fetcher.run({
      url: at("/120.rss"),
      max_entries: 80,
      limit: 1_000,
      offset: first.data.next_offset,
    });
    expect(next.success && next.data).toMatchObject({ cached: true, total: first.data.total });
    expect(server.requests.length - before).toBe(1);
  });

  it("is ignored for documents that are not feeds", async () => {
    const result = await tool({ pdf: false }).run({
      url: at("/45.rss"),
      raw: true,
      max_entries: 2,
    });
    expect(result.success && result.data.kind).toBe("text");
    expect(result.success && "max_entries" in result.data).toBe(false);
  });
});

describe("web_fetch pdf: false", () => {
  it("answers a PDF (by type or by magic) with UNSUPPORTED naming the next step", async () => {
    const fetcher = tool({ pdf: false });
    for (const path of ["/report.pdf", "/report"]) {
      const result = await fetcher.run({ url: at(path) });
      expect(result).toMatchObject({
        success: false,
        error: {
          code: "UNSUPPORTED",
          message: expect.stringContaining("this host does not convert PDFs to text"),
          hint: "Look for an HTML version of the document (often the page that links to it), or ask the user for its text.",
        },
      });
    }
    expect(fetcher.description).toContain("PDFs and binary are refused");
    expect(tool().description).toContain("PDFs text");
  });

  it("reads no more of a PDF than maxResponseBytes when off; converts it under maxPdfBytes when on", async () => {
    expect(bigPdf.byteLength).toBeGreaterThan(8_192);
    const inner = createFetchTransport();
    let read = 0;
    const off = await tool({
      pdf: false,
      maxResponseBytes: 4_096,
      transport: async (request) => {
        const response = await inner(request);
        read = response.body.byteLength;
        return response;
      },
    }).run({ url: at("/report.pdf") });
    expect(!off.success && off.error.code).toBe("UNSUPPORTED");
    expect(read).toBe(4_096);
    const on = await tool({ maxResponseBytes: 4_096 }).run({ url: at("/report.pdf") });
    expect(on.success && on.data).toMatchObject({ kind: "pdf", pages: 60 });
  });

  it("is a strict boolean option", () => {
    expect(() => tool({ pdf: "no" as never })).toThrow(/pdf/);
  });
});
