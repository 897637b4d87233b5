import sharp from "sharp";

/** What {@link countColorPixels} returns. */
export interface ColorPixelCount {
  /** The image's width in pixels. */
  width: number;
  /** The image's height in pixels. */
  height: number;
  /** How many of its pixels have exactly the colour (alpha ignored). */
  count: number;
}

/**
 * Counts the pixels of exactly one RGB colour in an image — e.g. the Tk test app's label turns
 * pure green (0, 255, 0) once Apply was pressed, so a screenshot shows whether the click landed.
 *
 * @param image - the image's bytes (PNG, JPEG…), or base64 as the `computer` tool returns it
 * @param color - red, green and blue, 0–255
 * @returns the image's size and the count
 * @example
 * const { count } = await countColorPixels(result.data.image_base64, [0, 255, 0]);
 */
export async function countColorPixels(
  image: Uint8Array | string,
  color: readonly [number, number, number],
): Promise<ColorPixelCount> {
  const bytes = typeof image === "string" ? Buffer.from(image, "base64") : image;
  const { data, info } = await sharp(bytes)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const [red, green, blue] = color;
  let count = 0;
  for (let offset = 0; offset < data.length; offset += 3) {
    if (data[offset] === red && data[offset + 1] === green && data[offset + 2] === blue) count += 1;
  }
  return { width: info.width, height: info.height, count };
}
