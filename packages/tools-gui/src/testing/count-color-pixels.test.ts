import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { countColorPixels } from "./count-color-pixels.js";

describe("countColorPixels", () => {
  it("counts the pixels of exactly the colour in PNG bytes and in base64, alpha ignored", async () => {
    // A 4×3 RGBA image: 5 pure green pixels, one almost green, the rest grey.
    const raw = Buffer.alloc(4 * 3 * 4, 0);
    for (let index = 0; index < 12; index += 1) raw.set([192, 192, 192, 255], index * 4);
    for (const index of [0, 1, 5, 6, 11]) raw.set([0, 255, 0, 128], index * 4);
    raw.set([0, 254, 0, 255], 7 * 4);
    const png = await sharp(raw, { raw: { width: 4, height: 3, channels: 4 } })
      .png()
      .toBuffer();
    expect(await countColorPixels(png, [0, 255, 0])).toEqual({ width: 4, height: 3, count: 5 });
    expect(await countColorPixels(png.toString("base64"), [192, 192, 192])).toEqual({
      width: 4,
      height: 3,
      count: 6,
    });
  });
});
