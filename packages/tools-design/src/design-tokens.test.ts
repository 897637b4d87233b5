import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDesignTokensTool, formatDesignTokens } from "./design-tokens.js";
import { type FigmaServer, startFigmaServer } from "./test-support/figma-server.js";
import { SHOP_FILE_KEY } from "./test-support/figma-shop-file.js";

let figma: FigmaServer;
beforeAll(async () => {
  figma = await startFigmaServer();
});
afterAll(() => figma.close());

describe("design_tokens against a local Figma API", () => {
  it("reads styles and variables into JSON groups and CSS custom properties", async () => {
    const tool = createDesignTokensTool({
      figmaToken: "figd_test-token",
      baseUrl: figma.origin,
      transport: figma.transport,
    });
    const result = await tool.run({ file_key: SHOP_FILE_KEY });
    if (!result.success) throw new Error(result.error.message);
    const data = result.data;
    const record = (list: ReadonlyArray<{ name: string; value: unknown }>) =>
      Object.fromEntries(list.map(({ name, value }) => [name, value]));
    expect(record(data.colors)).toEqual({
      "Surface/Default": "#ffffff",
      "Brand/Primary": "#2563eb",
      "Text/Primary": "#1e1e1e",
      "blue/600": "#2563eb",
      "gray/900": "#111827",
      "color/action": "{blue/600}",
    });
    expect(data.typography.find((style) => style.name === "Heading/H1")).toEqual({
      name: "Heading/H1",
      font_family: "Inter",
      font_size: 32,
      font_weight: 600,
      font_style: "Semi Bold",
      line_height: 40,
      letter_spacing: -0.64,
    });
    expect(data.spacing).toEqual([{ name: "space/md", value: 16 }]);
    expect(data.radii).toEqual([{ name: "radius/lg", value: 12 }]);
    expect(data.effects).toEqual([
      { name: "Elevation/1", value: "0px 4px 12px 0px #0000001a, 0px 1px 2px 0px #0000000f" },
    ]);
    expect(data.modes).toEqual([
      { mode: "Theme/Dark", values: [{ name: "color/action", value: "#60a5fa" }] },
    ]);
    expect(data.css).toContain("--color-brand-primary: #2563eb;");
    expect(data.css).toContain("--color-color-action: var(--color-blue-600);");
    expect(data.css).toContain("--text-heading-h1-line-height: 40px;");
    expect(data.css).toContain("--spacing-space-md: 16px;");
    expect(data.css).toContain('[data-mode="theme-dark"] {\n  --color-color-action: #60a5fa;\n}');
    expect(formatDesignTokens(data)).toContain(
      "6 colors, 2 text styles, 1 spacing, 1 radius, 1 effect",
    );
  });

  it("leaves variables out with a note when the plan refuses them (HTTP 403)", async () => {
    const server = await startFigmaServer();
    server.override(`/v1/files/${SHOP_FILE_KEY}/variables`, 403, {
      status: 403,
      error: true,
      message: "Limited by Figma plan",
    });
    const tool = createDesignTokensTool({
      figmaToken: "figd_test-token",
      baseUrl: server.origin,
      transport: server.transport,
    });
    const result = await tool.run({ file_key: SHOP_FILE_KEY });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.colors.map((token) => token.name)).toEqual([
      "Surface/Default",
      "Brand/Primary",
      "Text/Primary",
    ]);
    expect(result.data.notes.join(" ")).toContain("Enterprise plan");
    await server.close();
  });
});
