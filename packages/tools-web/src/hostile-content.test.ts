import { monitorEventLoopDelay } from "node:perf_hooks";
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseFeed } from "./internal/feed.js";
import { htmlToMarkdown } from "./internal/html-to-markdown.js";
import { createNodeWebFetchTool } from "./node/create-node-web-tools.js";
import { startServer } from "./test-support/http-server.js";

/**
 * The longest event-loop stall a linear tool may show. Hostile input on a super-linear path
 * stalls for many seconds, so 1 s still tells the two apart, while a loaded CI machine's GC
 * pauses and lazy module loads (up to a few hundred ms) do not fail the test.
 */
const STALL_LIMIT_MS = 1_000;

/** Runs `work`, returning its result, the wall time and the longest event-loop stall (ms). */
async function measured<T>(
  work: () => Promise<T> | T,
): Promise<{ value: T; ms: number; maxStallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let last = performance.now();
  let maxStall = 0;
  const probe = setInterval(() => {
    const now = performance.now();
    maxStall = Math.max(maxStall, now - last - 20);
    last = now;
  }, 20);
  const start = performance.now();
  try {
    const value = await work();
    const ms = performance.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 40));
    return { value, ms, maxStallMs: Math.max(maxStall, histogram.max / 1e6 - 10) };
  } finally {
    clearInterval(probe);
    histogram.disable();
  }
}

const nestedBold = `<html><body>${"<b>x".repeat(3_000)}</body></html>`; // 12 KB
const unclosedTables = `<html><body>${"<table><tr><td>x".repeat(4_000)}</body></html>`; // 64 KB
const unclosedItems = `<?xml version="1.0"?><rss version="2.0"><channel><title>t</title>${"<item><title>x</title>".repeat(23_000)}</channel></rss>`; // ~510 KiB

/** A one-page PDF whose content stream inflates to `inflatedBytes` of text operators. */
function deflateBombPdf(inflatedBytes: number): Uint8Array {
  const chunk = Buffer.from("BT /F1 12 Tf 72 720 Td (aaaaaaaaaaaaaaaa) Tj ET\n".repeat(1_000));
  const parts: Buffer[] = [];
  for (let size = 0; size < inflatedBytes; size += chunk.length) parts.push(chunk);
  const compressed = deflateSync(Buffer.concat(parts), { level: 9 });
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
  ];
  const chunks: Buffer[] = [Buffer.from("%PDF-1.4\n")];
  let length = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  const push = (buffer: Buffer) => {
    chunks.push(buffer);
    length += buffer.length;
  };
  objects.forEach((body, index) => {
    offsets.push(length);
    push(Buffer.from(`${index + 1} 0 obj\n${body}\nendobj\n`));
  });
  offsets.push(length);
  push(Buffer.from(`5 0 obj\n<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`));
  push(compressed);
  push(Buffer.from("\nendstream\nendobj\n"));
  const xref = length;
  push(
    Buffer.from(
      `xref\n0 6\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(chunks));
}

describe("hostile pages cannot freeze the host (in-thread converters, runtime-neutral entry)", () => {
  it("12 KB of nested <b> converts quickly", async () => {
    const { value, maxStallMs } = await measured(() => htmlToMarkdown(nestedBold));
    expect(value).toContain("x");
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 30_000);

  it("64 KB of unclosed <table> converts quickly", async () => {
    const { value, maxStallMs } = await measured(() => htmlToMarkdown(unclosedTables));
    expect(value).toContain("x");
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 30_000);

  it("a 510 KiB feed of unclosed <item> parses in linear time", async () => {
    const { value, maxStallMs } = await measured(() => parseFeed(unclosedItems));
    expect(value?.format).toBe("rss");
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
  }, 30_000);
});

describe("hostile pages cannot freeze the host (web_fetch on Node)", async () => {
  const bomb = deflateBombPdf(400 * 1_048_576);
  const server = await startServer({
    "/nested": (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(nestedBold);
    },
    "/tables": (_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(unclosedTables);
    },
    "/feed": (_request, response) => {
      response.writeHead(200, { "content-type": "application/rss+xml" });
      response.end(unclosedItems);
    },
    "/bomb.pdf": (_request, response) => {
      response.writeHead(200, { "content-type": "application/pdf" });
      response.end(Buffer.from(bomb));
    },
  });

  for (const path of ["/nested", "/tables", "/feed"]) {
    it(`web_fetch ${path} answers within its time limit without blocking the event loop`, async () => {
      const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], timeoutMs: 5_000 });
      const { value, ms, maxStallMs } = await measured(() =>
        tool.run({ url: `${server.origin}${path}` }),
      );
      expect(ms).toBeLessThan(6_500);
      expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
      if (!value.success) expect(value.error.code).toBe("TIMEOUT");
    }, 30_000);
  }

  it("a deflate-bomb PDF is stopped at the time limit (or its memory cap), off the event loop", async () => {
    const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], timeoutMs: 3_000 });
    const rssBefore = process.memoryUsage().rss;
    const { value, ms, maxStallMs } = await measured(() =>
      tool.run({ url: `${server.origin}/bomb.pdf` }),
    );
    expect(value.success).toBe(false);
    expect(ms).toBeLessThan(4_500);
    expect(maxStallMs).toBeLessThan(STALL_LIMIT_MS);
    // the extractor is gone: the host's memory did not keep the inflated stream
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(600 * 1_048_576);
  }, 60_000);
});
