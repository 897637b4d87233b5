import { inflateSync } from "node:zlib";

/** A decoded PNG: width, height and RGBA bytes. */
export interface DecodedPng {
  width: number;
  height: number;
  /** 4 bytes per pixel, row after row. */
  rgba: Uint8Array;
}

/**
 * Decodes an 8-bit, non-interlaced RGB or RGBA PNG (what Chromium writes), checking the signature.
 *
 * @param base64 - the PNG, base64
 * @returns its pixels
 */
export function decodePng(base64: string): DecodedPng {
  const bytes = Buffer.from(base64, "base64");
  if (bytes.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG");
  let offset = 8;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const chunks: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString("ascii");
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      if (data[8] !== 8 || data[12] !== 0) throw new Error("only 8-bit non-interlaced PNGs");
      colorType = data[9] ?? 0;
    } else if (type === "IDAT") chunks.push(data);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  if (channels === 0) throw new Error(`unsupported colour type ${colorType}`);
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)] ?? 0;
    const source = row * (stride + 1) + 1;
    for (let index = 0; index < stride; index++) {
      const value = raw[source + index] ?? 0;
      const left = index >= channels ? (pixels[row * stride + index - channels] ?? 0) : 0;
      const up = row > 0 ? (pixels[(row - 1) * stride + index] ?? 0) : 0;
      const upLeft =
        row > 0 && index >= channels ? (pixels[(row - 1) * stride + index - channels] ?? 0) : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const estimate = left + up - upLeft;
        const distanceLeft = Math.abs(estimate - left);
        const distanceUp = Math.abs(estimate - up);
        const distanceUpLeft = Math.abs(estimate - upLeft);
        predicted =
          distanceLeft <= distanceUp && distanceLeft <= distanceUpLeft
            ? left
            : distanceUp <= distanceUpLeft
              ? up
              : upLeft;
      }
      pixels[row * stride + index] = (value + predicted) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = new Uint8Array(width * height * 4);
  for (let pixel = 0; pixel < width * height; pixel++) {
    rgba[pixel * 4] = pixels[pixel * 3] ?? 0;
    rgba[pixel * 4 + 1] = pixels[pixel * 3 + 1] ?? 0;
    rgba[pixel * 4 + 2] = pixels[pixel * 3 + 2] ?? 0;
    rgba[pixel * 4 + 3] = 255;
  }
  return { width, height, rgba };
}

/**
 * The RGBA of one pixel.
 *
 * @param image - a decoded PNG
 * @param x - column
 * @param y - row
 * @returns [r, g, b, a]
 */
export function pixelAt(image: DecodedPng, x: number, y: number): number[] {
  const start = (y * image.width + x) * 4;
  return Array.from(image.rgba.subarray(start, start + 4));
}

/**
 * How many pixels differ between two images of the same size.
 *
 * @param first - an image
 * @param second - another image of the same size
 * @returns the count of differing pixels
 */
export function differingPixels(first: DecodedPng, second: DecodedPng): number {
  if (first.width !== second.width || first.height !== second.height)
    throw new Error("sizes differ");
  let count = 0;
  for (let index = 0; index < first.rgba.length; index += 4) {
    if (
      first.rgba[index] !== second.rgba[index] ||
      first.rgba[index + 1] !== second.rgba[index + 1] ||
      first.rgba[index + 2] !== second.rgba[index + 2]
    )
      count += 1;
  }
  return count;
}
