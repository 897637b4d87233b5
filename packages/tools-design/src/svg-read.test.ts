import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createSvgReadTool, formatSvgRead } from "./svg-read.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const ICONS = "/usr/share/icons";

function tokenValue(
  list: ReadonlyArray<{ name: string; value: string }>,
  name: string | undefined,
) {
  return list.find((token) => token.name === name)?.value;
}

function svgFiles(folder: string, found: string[] = []): string[] {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) svgFiles(path, found);
    else if (entry.isFile() && entry.name.endsWith(".svg")) found.push(path);
  }
  return found;
}

const realIcons = svgFiles(ICONS).filter((path) => statSync(path).size < 2_000_000);

const folder = workspaceFolder({
  "folder.svg": readFileSync(join(ICONS, "Adwaita/scalable/places/folder-symbolic.svg")),
  "xterm.svg": readFileSync(join(ICONS, "hicolor/scalable/apps/xterm.svg")),
  "card.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">
  <g transform="translate(10 20)" fill="#3584E4">
    <rect id="bg" x="0" y="0" width="100" height="50" rx="8"/>
    <g transform="scale(2)"><circle cx="10" cy="10" r="5" fill="rgb(255,0,0)" fill-opacity="0.5"/></g>
    <text x="5" y="30" font-family="Cantarell" font-size="12" font-weight="bold" fill="#fff">Hello <tspan>world</tspan></text>
  </g>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#000"/><stop offset="1" style="stop-color:#fff"/></linearGradient></defs>
  <path d="M150 10 L190 10 L190 90 Z" fill="url(#g)" stroke="black" stroke-width="2"/>
</svg>`,
});
afterAll(() => folder.remove());
const svgRead = createSvgReadTool({ root: folder.root });

describe("svg_read", () => {
  it("reads Adwaita's folder icon: exact path boxes and its one colour", async () => {
    const result = await svgRead.run({ path: "folder.svg" });
    if (!result.success) throw new Error(result.error.message);
    const data = result.data;
    expect(data).toMatchObject({ width: 16, height: 16, view_box: [0, 0, 16, 16], total: 3 });
    expect(
      data.layers.map((layer) => [
        layer.role,
        layer.depth,
        layer.x,
        layer.y,
        layer.width,
        layer.height,
      ]),
    ).toEqual([
      ["group", 0, 0, 1, 16, 14],
      ["path", 1, 1, 4, 8, 1],
      ["path", 1, 0, 1, 16, 14],
    ]);
    expect(data.tokens.colors).toEqual([{ name: "c1", value: "#2e3436" }]);
    expect(data.layers[1]?.fills).toEqual(["c1"]);
  });

  it("applies translate and scale, reads text with its font, resolves a gradient", async () => {
    const result = await svgRead.run({ path: "card.svg" });
    if (!result.success) throw new Error(result.error.message);
    const { layers, tokens } = result.data;
    const byRole = (role: string) => layers.find((layer) => layer.role === role);
    expect(byRole("rect")).toMatchObject({
      id: "bg",
      x: 10,
      y: 20,
      width: 100,
      height: 50,
      fills: ["c1"],
      radius: 8,
    });
    expect(byRole("circle")).toMatchObject({ x: 20, y: 30, width: 20, height: 20 });
    expect(tokenValue(tokens.colors, byRole("circle")?.fills?.[0])).toBe("#ff000080");
    const text = byRole("text");
    expect(text).toMatchObject({ text: "Hello world", x: 15, y: 50 });
    expect(tokens.text_styles.find((style) => style.name === text?.text_style)).toEqual({
      name: text?.text_style,
      font_family: "Cantarell",
      font_size: 12,
      font_weight: 700,
      color: tokens.colors.find((token) => token.value === "#ffffff")?.name,
    });
    expect(tokens.colors.map((token) => token.value)).toContain("#ffffff");
    const path = byRole("path");
    expect(path).toMatchObject({ x: 150, y: 10, width: 40, height: 80, stroke_width: 2 });
    expect(tokenValue(tokens.colors, path?.fills?.[0])).toBe(
      "linear-gradient(#000000 0, #ffffff 1)",
    );
    expect(tokenValue(tokens.colors, path?.strokes?.[0])).toBe("#000000");
    expect(formatSvgRead(result.data)).toContain("text #");
  });

  it("skips Inkscape's metadata and definitions in a real exported icon", async () => {
    const result = await svgRead.run({ path: "xterm.svg" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.total).toBeGreaterThan(3);
    expect(
      result.data.layers.every(
        (layer) => !["defs", "metadata", "perspective"].includes(layer.role),
      ),
    ).toBe(true);
  });

  it(`reads every real SVG icon under ${ICONS} with every box inside its viewBox`, async () => {
    expect(realIcons.length).toBeGreaterThan(50);
    const outside: string[] = [];
    for (const icon of realIcons) {
      const local = workspaceFolder({ "icon.svg": readFileSync(icon) });
      try {
        const result = await createSvgReadTool({ root: local.root }).run({
          path: "icon.svg",
          limit: 4_000,
        });
        if (!result.success)
          throw new Error(`${icon}: ${result.error.code} ${result.error.message}`);
        const [minX, minY, width, height] = result.data.view_box ?? [
          0,
          0,
          result.data.width ?? 0,
          result.data.height ?? 0,
        ];
        for (const layer of result.data.layers) {
          if (layer.x === undefined || layer.width === undefined || layer.notes !== undefined)
            continue;
          // A shape may overhang by its stroke; more than a quarter of the canvas means a wrong transform.
          const slack = Math.max(width, height) / 4;
          const inside =
            layer.x >= minX - slack &&
            layer.y !== undefined &&
            layer.y >= minY - slack &&
            layer.x + layer.width <= minX + width + slack &&
            layer.y + (layer.height ?? 0) <= minY + height + slack;
          if (!inside && layer.depth > 0) outside.push(`${icon} ${layer.role} #${layer.id}`);
        }
      } finally {
        local.remove();
      }
    }
    // Hidden artboards and off-canvas source layers exist in real files; they must stay rare.
    expect(outside.length).toBeLessThan(realIcons.length / 20);
  }, 120_000);

  it("refuses paths outside the workspace", async () => {
    const result = await svgRead.run({ path: "../../etc/passwd" });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.code).toBe("INVALID_PATH");
  });
});
