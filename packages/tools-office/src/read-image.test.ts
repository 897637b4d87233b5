import { contentToText, type ImageContentBlock } from "@agentool/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReadImageTool } from "./read-image.js";
import { readFolder } from "./test-support/read-folder.js";

let folder: ReturnType<typeof readFolder>;
beforeAll(async () => {
  const big = await sharp({
    create: { width: 3000, height: 1500, channels: 3, background: "#3366cc" },
  })
    .png()
    .toBuffer();
  const small = await sharp({
    create: { width: 40, height: 30, channels: 3, background: "#ff0000" },
  })
    .jpeg()
    .toBuffer();
  const gif = await sharp({ create: { width: 20, height: 10, channels: 3, background: "#00ff00" } })
    .gif()
    .toBuffer();
  folder = readFolder({
    "big.png": big,
    "photo.jpg": small,
    "anim.gif": gif,
    "chart.svg":
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="blue"/></svg>',
    "evil.svg":
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><image xlink:href="file:///etc/passwd"/></svg>',
    "not-image.png": "hello",
    ".ssh/id.png": big,
  });
});
afterAll(() => folder.remove());

const tool = () => createReadImageTool({ root: folder.root });

describe("read_image", () => {
  it("scales a large PNG to fit max_edge and states both sizes", async () => {
    const result = await tool().run({ path: "big.png" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({
      width: 3000,
      height: 1500,
      shown_width: 1568,
      shown_height: 784,
      resized: true,
      mime_type: "image/png",
    });
    const content = tool().renderResult(result);
    expect(Array.isArray(content)).toBe(true);
    const image = (content as ImageContentBlock[])[1];
    expect(image?.type).toBe("image");
    const decoded = await sharp(Buffer.from(image?.data ?? "", "base64")).metadata();
    expect([decoded.width, decoded.height]).toEqual([1568, 784]);
    expect(contentToText(content)).toContain("big.png — PNG 3000×1500, shown at 1568×784");
    const smaller = await tool().run({ path: "big.png", max_edge: 300 });
    expect(smaller.success && [smaller.data.shown_width, smaller.data.shown_height]).toEqual([
      300, 150,
    ]);
  });

  it("passes a small JPEG through unchanged; converts GIF and rasterises SVG to PNG", async () => {
    const jpeg = await tool().run({ path: "photo.jpg" });
    expect(jpeg.success && jpeg.data).toMatchObject({
      format: "jpeg",
      mime_type: "image/jpeg",
      resized: false,
      width: 40,
    });
    const gif = await tool().run({ path: "anim.gif" });
    expect(gif.success && gif.data).toMatchObject({ format: "gif", mime_type: "image/png" });
    const svg = await tool().run({ path: "chart.svg" });
    expect(svg.success && svg.data).toMatchObject({
      format: "svg",
      shown_as: "image",
      mime_type: "image/png",
      width: 200,
      height: 100,
    });
  });

  it("returns an SVG that reaches outside itself as text, never rasterised", async () => {
    const result = await tool().run({ path: "evil.svg" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.shown_as).toBe("svg_text");
    expect(result.data.base64).toBeUndefined();
    expect(contentToText(tool().renderResult(result))).toContain("not rasterised");
  });

  it("refuses non-images, secrets and escapes", async () => {
    const text = await tool().run({ path: "not-image.png" });
    expect(!text.success && text.error.code).toBe("UNSUPPORTED");
    const secret = await tool().run({ path: ".ssh/id.png" });
    expect(!secret.success && secret.error.code).toBe("BLOCKED");
    const outside = await tool().run({ path: "../x.png" });
    expect(!outside.success && outside.error.code).toBe("INVALID_PATH");
  });
});
