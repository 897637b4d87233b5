import { readFileSync } from "node:fs";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDesignTools,
  DESIGN_FIGMA_TOOL_NAMES,
  DESIGN_OFFLINE_TOOL_NAMES,
} from "./create-design-tools.js";
import { type FigmaServer, startFigmaServer } from "./test-support/figma-server.js";
import { SHOP_FILE_KEY } from "./test-support/figma-shop-file.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({
  "icon.svg": readFileSync("/usr/share/icons/Adwaita/scalable/places/folder-symbolic.svg"),
  "many.svg": `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${Array.from({ length: 30 }, (_, index) => `<rect x="${index}" y="0" width="1" height="1"/>`).join("")}</svg>`,
});
let figma: FigmaServer;
beforeAll(async () => {
  figma = await startFigmaServer();
});
afterAll(async () => {
  await figma.close();
  folder.remove();
});

describe("createDesignTools", () => {
  it("mounts svg_read alone without a token", () => {
    expect(createDesignTools({ root: folder.root }).map((tool) => tool.name)).toEqual([
      ...DESIGN_OFFLINE_TOOL_NAMES,
    ]);
  });

  it("every tool passes the conformance kit, cut outputs followed to the end", async () => {
    const tools = createDesignTools({
      root: folder.root,
      figmaToken: "figd_test-token",
      baseUrl: figma.origin,
      transport: figma.transport,
    });
    expect(tools.map((tool) => tool.name)).toEqual([
      ...DESIGN_OFFLINE_TOOL_NAMES,
      ...DESIGN_FIGMA_TOOL_NAMES,
    ]);
    await assertConformance(tools, {
      workspaceRoot: folder.root,
      samples: {
        svg_read: { path: "icon.svg" },
        design_read: { file_key: SHOP_FILE_KEY, node_id: "1:8" },
        design_tokens: { file_key: SHOP_FILE_KEY },
        design_export: { file_key: SHOP_FILE_KEY, node_ids: ["1:8"], format: "png" },
      },
      cutSamples: {
        svg_read: { path: "many.svg", limit: 7 },
        design_read: { file_key: SHOP_FILE_KEY, node_id: "1:2", limit: 9 },
      },
    });
  });
});
