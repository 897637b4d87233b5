import { ToolFailureError } from "@agentool/contract";

/** An image as 8-bit RGB rows, top to bottom. */
export interface RgbImage {
  width: number;
  height: number;
  /** width × height × 3 bytes. */
  pixels: Buffer;
}

function maskShift(mask: number): { shift: number; bits: number } {
  let shift = 0;
  while (shift < 32 && ((mask >>> shift) & 1) === 0) shift += 1;
  let bits = 0;
  while (shift + bits < 32 && ((mask >>> (shift + bits)) & 1) === 1) bits += 1;
  return { shift, bits };
}

/** The common case (Xvfb's 24-bit screen): 32-bit little-endian pixels laid out B, G, R, X. */
function copyBgrx(
  dump: Buffer,
  start: number,
  bytesPerLine: number,
  width: number,
  height: number,
  pixels: Buffer,
): void {
  let out = 0;
  for (let row = 0; row < height; row += 1) {
    let offset = start + row * bytesPerLine;
    for (let column = 0; column < width; column += 1, offset += 4, out += 3) {
      pixels[out] = dump[offset + 2] as number;
      pixels[out + 1] = dump[offset + 1] as number;
      pixels[out + 2] = dump[offset] as number;
    }
  }
}

/**
 * Decodes the X Window Dump that `xwd -root` prints (version 7, ZPixmap, TrueColor with 24 or 32
 * bits per pixel, either byte order) into RGB.
 *
 * @param dump - xwd's output
 * @returns the image
 * @throws ToolFailureError (`UNSUPPORTED`) for another pixel format (e.g. a 16-bit display)
 */
export function decodeXwd(dump: Buffer): RgbImage {
  const field = (index: number) => dump.readUInt32BE(index * 4);
  if (dump.length < 100 || field(1) !== 7) {
    throw new ToolFailureError("INTERNAL", "xwd printed something that is not an X window dump.");
  }
  const headerSize = field(0);
  const format = field(2);
  const width = field(4);
  const height = field(5);
  const byteOrder = field(7); // 0 = LSBFirst
  const bitsPerPixel = field(11);
  const bytesPerLine = field(12);
  const masks = [field(14), field(15), field(16)];
  const colors = field(19);
  if (format !== 2 || (bitsPerPixel !== 32 && bitsPerPixel !== 24)) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `the display's pixel format is not supported (format ${format}, ${bitsPerPixel} bits per pixel); a 24-bit TrueColor display is.`,
      { hint: "Start Xvfb with a 24-bit screen (startXvfbDisplay does)." },
    );
  }
  const start = headerSize + colors * 12;
  if (dump.length < start + bytesPerLine * height) {
    throw new ToolFailureError("INTERNAL", "xwd's dump is shorter than its header says.");
  }
  const pixels = Buffer.allocUnsafe(width * height * 3);
  if (bitsPerPixel === 32 && byteOrder === 0 && masks.join() === "16711680,65280,255") {
    copyBgrx(dump, start, bytesPerLine, width, height, pixels);
    return { width, height, pixels };
  }
  const channels = masks.map(maskShift);
  const bytes = bitsPerPixel / 8;
  let out = 0;
  for (let row = 0; row < height; row += 1) {
    let offset = start + row * bytesPerLine;
    for (let column = 0; column < width; column += 1, offset += bytes) {
      const value =
        bytes === 4
          ? byteOrder === 0
            ? dump.readUInt32LE(offset)
            : dump.readUInt32BE(offset)
          : byteOrder === 0
            ? dump.readUIntLE(offset, 3)
            : dump.readUIntBE(offset, 3);
      for (const { shift, bits } of channels) {
        const raw = (value >>> shift) & ((1 << bits) - 1);
        pixels[out] = bits === 8 ? raw : Math.round((raw * 255) / ((1 << bits) - 1));
        out += 1;
      }
    }
  }
  return { width, height, pixels };
}
