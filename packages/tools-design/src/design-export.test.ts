import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDesignExportTool, formatDesignExport } from "./design-export.js";
import { type FigmaServer, startFigmaServer } from "./test-support/figma-server.js";
import { SHOP_FILE_KEY } from "./test-support/figma-shop-file.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";
import { RECORDED_RENDER_PNG } from "./testing/index.js";

const folder = workspaceFolder({ "README.md": "app\n" });
let figma: FigmaServer;
beforeAll(async () => {
  figma = await startFigmaServer();
});
afterAll(async () => {
  await figma.close();
  folder.remove();
});

function exporter(server: FigmaServer) {
  return createDesignExportTool({
    root: folder.root,
    figmaToken: "figd_test-token",
    baseUrl: server.origin,
    transport: server.transport,
  });
}

describe("design_export against a local Figma API", () => {
  it("renders, downloads without the token, saves into the workspace and shows the PNG", async () => {
    const result = await exporter(figma).run({
      file_key: SHOP_FILE_KEY,
      node_ids: ["1-2", "1:8", "9:99"],
      format: "png",
      scale: 2,
    });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.files.map((file) => file.path)).toEqual([
      `design-exports/${SHOP_FILE_KEY}_1-2.png`,
      `design-exports/${SHOP_FILE_KEY}_1-8.png`,
    ]);
    expect(result.data.missing).toEqual(["9:99"]);
    expect(
      readFileSync(join(folder.root, result.data.files[0]?.path ?? "")).equals(RECORDED_RENDER_PNG),
    ).toBe(true);
    const render = figma.requests.find((request) => request.path.startsWith("/v1/images/"));
    expect(render?.path).toBe(
      `/v1/images/${SHOP_FILE_KEY}?ids=1%3A2%2C1%3A8%2C9%3A99&format=png&scale=2`,
    );
    const downloads = figma.requests.filter((request) => request.path.startsWith("/renders/"));
    expect(downloads).toHaveLength(2);
    expect(downloads.every((request) => request.headers["x-figma-token"] === undefined)).toBe(true);
    const blocks = formatDesignExport(result.data);
    expect(Array.isArray(blocks) && blocks.filter((block) => block.type === "image")).toHaveLength(
      2,
    );
  });

  it("refuses an image address over http on another origin, and a private one over https", async () => {
    // Another origin the transport may reach (127.0.0.1 is allowed to it): refused for being http.
    const imageHost = await startFigmaServer();
    for (const [imageOrigin, reason] of [
      [imageHost.origin, "only https"],
      ["https://169.254.169.254", "169.254.169.254"],
    ] as const) {
      const server = await startFigmaServer({ imageOrigin });
      const result = await exporter(server).run({
        file_key: SHOP_FILE_KEY,
        node_ids: ["1:2"],
        format: "svg",
        directory: "blocked",
      });
      expect(result.success === false && result.error.code).toBe("BLOCKED");
      expect(result.success === false && result.error.message).toContain(reason);
      expect(existsSync(join(folder.root, "blocked"))).toBe(false);
      await server.close();
    }
    expect(imageHost.requests).toHaveLength(0);
    await imageHost.close();
  });

  it("keeps the saved files inside the workspace", async () => {
    const result = await exporter(figma).run({
      file_key: SHOP_FILE_KEY,
      node_ids: ["1:2"],
      format: "svg",
      directory: "../outside",
    });
    expect(result.success === false && result.error.code).toBe("INVALID_PATH");
  });
});
