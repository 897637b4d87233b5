import { describe, expect, it } from "vitest";
import { RECORDED_FIGMA_FILES, RECORDED_FIGMA_TOKEN } from "./recorded-figma-files.js";
import { RECORDED_RENDER_PNG, startRecordedFigmaServer } from "./recorded-figma-server.js";

const shop = RECORDED_FIGMA_FILES.shopCheckout;
const designSystem = RECORDED_FIGMA_FILES.designSystem;

async function get(origin: string, path: string, token?: string) {
  const response = await fetch(`${origin}${path}`, {
    headers: token === undefined ? {} : { "x-figma-token": token },
  });
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    body: type.startsWith("image/")
      ? new Uint8Array(await response.arrayBuffer())
      : ((await response.json()) as Record<string, unknown>),
  };
}

describe("startRecordedFigmaServer", () => {
  it("answers Figma's routes for both recordings with the token, and 403 / 404 as Figma does", async () => {
    const figma = await startRecordedFigmaServer();
    try {
      const file = await get(
        figma.origin,
        `/v1/files/${shop.fileKey}?depth=1`,
        RECORDED_FIGMA_TOKEN,
      );
      expect(file.status).toBe(200);
      expect((file.body as { name: string }).name).toBe(shop.name);
      const pages = (file.body as { document: { children: Array<{ children?: unknown }> } })
        .document.children;
      expect(pages.map((page) => page.children)).toEqual([undefined, undefined]);

      const nodes = await get(
        figma.origin,
        `/v1/files/${designSystem.fileKey}/nodes?ids=${designSystem.nodes.dashboard},9:999`,
        RECORDED_FIGMA_TOKEN,
      );
      const found = (nodes.body as { nodes: Record<string, { document: { name: string } } | null> })
        .nodes;
      expect(found[designSystem.nodes.dashboard]?.document.name).toBe("Dashboard / Desktop");
      expect(found["9:999"]).toBeNull();

      const styles = await get(
        figma.origin,
        `/v1/files/${shop.fileKey}/styles`,
        RECORDED_FIGMA_TOKEN,
      );
      expect((styles.body as { meta: { styles: unknown[] } }).meta.styles).toHaveLength(6);
      const variables = `/v1/files/${shop.fileKey}/variables/local`;
      expect((await get(figma.origin, variables, RECORDED_FIGMA_TOKEN)).status).toBe(200);
      // The design system has no published styles recorded.
      expect(
        (await get(figma.origin, `/v1/files/${designSystem.fileKey}/styles`, RECORDED_FIGMA_TOKEN))
          .status,
      ).toBe(404);

      const images = await get(
        figma.origin,
        `/v1/images/${shop.fileKey}?ids=${encodeURIComponent(shop.nodes.summaryCard)}&format=png`,
        RECORDED_FIGMA_TOKEN,
      );
      const url = (images.body as { images: Record<string, string> }).images[
        shop.nodes.summaryCard
      ];
      expect(url).toBe(`${figma.origin}/renders/1%3A8.png`);
      const render = await get(figma.origin, new URL(url ?? "").pathname);
      expect(render.body).toEqual(new Uint8Array(RECORDED_RENDER_PNG));

      expect((await get(figma.origin, `/v1/files/${shop.fileKey}`)).status).toBe(403);
      expect((await get(figma.origin, `/v1/files/${shop.fileKey}`, "figd_other")).status).toBe(403);
      expect((await get(figma.origin, "/v1/files/NoSuchFile", RECORDED_FIGMA_TOKEN)).status).toBe(
        404,
      );
      expect(figma.requests[0]?.headers["x-figma-token"]).toBe(RECORDED_FIGMA_TOKEN);
    } finally {
      await figma.close();
    }
  });

  it("accepts the host's own token instead, and answers an override before the recording", async () => {
    const figma = await startRecordedFigmaServer({ token: "figd_host" });
    try {
      const path = `/v1/files/${shop.fileKey}`;
      expect((await get(figma.origin, path, RECORDED_FIGMA_TOKEN)).status).toBe(403);
      expect((await get(figma.origin, path, "figd_host")).status).toBe(200);
      figma.override(
        "/v1/files/",
        429,
        { status: 429, err: "Rate limited" },
        { "retry-after": "3" },
      );
      const limited = await fetch(`${figma.origin}${path}`, {
        headers: { "x-figma-token": "figd_host" },
      });
      expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "3"]);
    } finally {
      await figma.close();
    }
  });
});
