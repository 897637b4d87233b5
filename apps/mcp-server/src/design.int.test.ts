import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  RECORDED_FIGMA_FILES,
  type RecordedFigmaServer,
  startRecordedFigmaServer,
} from "@agentool/tools-design/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type StdioSession,
  startStdioSession,
  temporaryDirectory,
} from "./test-support/spawn-server.js";
import { callTool as call, resultTextWithMarkers as text } from "./test-support/tool-results.js";

// The design family over stdio, through the real MCP SDK client and the bundled bin, against a
// local server answering Figma's REST API from tools-design's recorded checkout (its ./testing). The token comes from the
// server's environment (FIGMA_API_KEY / FIGMA_ACCESS_TOKEN), never from a tool argument.

const TOKEN = "figd_recorded-token";
const CARD_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120" viewBox="0 0 320 120">
  <rect width="320" height="120" rx="12" fill="#ffffff" stroke="#e5e7eb"/>
  <text x="24" y="40" font-family="Inter" font-size="20" fill="#111827">Order summary</text>
</svg>
`;

let figma: RecordedFigmaServer;
const SHOP = RECORDED_FIGMA_FILES.shopCheckout;
let project: ReturnType<typeof temporaryDirectory>;

async function withSession<T>(
  args: string[],
  env: Record<string, string>,
  work: (session: StdioSession) => Promise<T>,
): Promise<T> {
  const session = await startStdioSession(args, { env });
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

async function toolNames(session: StdioSession): Promise<string[]> {
  const { tools } = await session.client.listTools();
  return tools.map((tool) => tool.name);
}

beforeAll(async () => {
  figma = await startRecordedFigmaServer({ token: TOKEN });
  project = temporaryDirectory({ "design/card.svg": CARD_SVG });
});

afterAll(async () => {
  await figma?.close();
  project?.cleanup();
});

describe("the design family over stdio (--families design)", () => {
  it("is not served by default; without a token only svg_read, which reads a local SVG offline", async () => {
    const defaults = await withSession(
      ["--root", project.path],
      { FIGMA_API_KEY: TOKEN },
      toolNames,
    );
    for (const name of ["svg_read", "design_read", "design_tokens", "design_export"]) {
      expect(defaults).not.toContain(name);
    }
    await withSession(
      ["--root", project.path, "--families", "design", "--mode", "read-write"],
      {},
      async (session) => {
        expect(await toolNames(session)).toEqual(["svg_read"]);
        expect(session.stderr()).toContain(
          "no Figma token (set FIGMA_API_KEY or FIGMA_ACCESS_TOKEN",
        );
        const read = await call(session, "svg_read", { path: "design/card.svg" });
        expect(read.isError ?? false).toBe(false);
        expect(text(read)).toContain("rect #1 @0,0 320×120 fill=c1 stroke=c2/1 radius=12");
        expect(text(read)).toContain('text #2 @24,40 style=t1 : "Order summary"');
      },
    );
    expect(figma.requests).toEqual([]);
  });

  it("read-only: design_read and design_tokens with FIGMA_API_KEY's token, sent only as X-Figma-Token; design_export left out", async () => {
    const before = figma.requests.length;
    await withSession(
      ["--root", project.path, "--families", "design", "--figma-api-url", figma.origin],
      { FIGMA_API_KEY: TOKEN },
      async (session) => {
        const { tools } = await session.client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([
          "svg_read",
          "design_read",
          "design_tokens",
        ]);
        for (const tool of tools) {
          expect(tool.annotations?.readOnlyHint).toBe(true);
          expect(JSON.stringify(tool.inputSchema)).not.toMatch(/token"/i);
        }
        expect(session.stderr()).toContain("design_export left out");
        const frame = await call(session, "design_read", {
          file_key: SHOP.fileKey,
          node_id: SHOP.nodes.summaryCard,
        });
        expect(frame.isError ?? false).toBe(false);
        expect(text(frame)).toContain('frame "Summary card" #1:8');
        expect(text(frame)).toMatch(/column gap=16 pad=24,24,24,24/);
        const tokens = await call(session, "design_tokens", { file_key: SHOP.fileKey });
        expect(tokens.isError ?? false).toBe(false);
        expect(text(tokens)).toContain("--color-brand-primary: #2563eb;");
        expect(text(tokens)).toContain("--radius-radius-lg: 12px;");
      },
    );
    const seen = figma.requests.slice(before);
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const request of seen) {
      expect(request.headers["x-figma-token"]).toBe(TOKEN);
      expect(request.headers.authorization).toBeUndefined();
    }
  });

  it("read-write adds design_export (FIGMA_ACCESS_TOKEN): the PNG is saved under the root and shown as an image", async () => {
    await withSession(
      [
        "--root",
        project.path,
        "--families",
        "design",
        "--mode",
        "read-write",
        "--figma-api-url",
        figma.origin,
      ],
      { FIGMA_ACCESS_TOKEN: TOKEN },
      async (session) => {
        expect(await toolNames(session)).toEqual([
          "svg_read",
          "design_read",
          "design_tokens",
          "design_export",
        ]);
        const exported = await call(session, "design_export", {
          file_key: SHOP.fileKey,
          node_ids: [SHOP.nodes.summaryCard],
          format: "png",
        });
        expect(exported.isError ?? false).toBe(false);
        expect(exported.content.some((block) => block.type === "image")).toBe(true);
        const saved = /(design-exports\/\S+\.png)/.exec(text(exported))?.[1] ?? "";
        expect(saved).not.toBe("");
        expect(existsSync(join(project.path, saved))).toBe(true);
        expect(readFileSync(join(project.path, saved)).subarray(1, 4).toString()).toBe("PNG");
      },
    );
  });

  it("a token Figma refuses (403) is PERMISSION_DENIED, with no token field for the model to try another", async () => {
    await withSession(
      ["--root", project.path, "--families", "design", "--figma-api-url", figma.origin],
      { FIGMA_API_KEY: "figd_wrong" },
      async (session) => {
        const refused = await call(session, "design_read", {
          file_key: SHOP.fileKey,
          node_id: SHOP.nodes.summaryCard,
        });
        expect(refused.isError).toBe(true);
        expect(text(refused)).toContain("PERMISSION_DENIED");
      },
    );
  });
});
