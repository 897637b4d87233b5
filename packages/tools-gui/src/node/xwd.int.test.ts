// decodeXwd on a real dump of Xvfb running the Tk app: the fast path (32-bit little-endian BGRX)
// and the general one (the same dump rewritten most-significant byte first, read through the
// colour masks) give the same pixels, and they are the app's colours.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientEnvironment, X11_MISSING } from "../test-support/x11.js";
import { startTkTestApp } from "../testing/tk-test-app.js";
import type { XvfbDisplay } from "./xvfb-display.js";
import { decodeXwd } from "./xwd.js";

let display: XvfbDisplay | undefined;
beforeAll(async () => {
  if (X11_MISSING === undefined) display = await startTkTestApp(320, 240);
});
afterAll(async () => {
  await display?.close();
});

describe.skipIf(X11_MISSING !== undefined)("decodeXwd", () => {
  it("reads xwd's dump of a 24-bit screen either byte order", () => {
    const dump = execFileSync("xwd", ["-root", "-silent"], {
      env: display === undefined ? {} : clientEnvironment(display),
      maxBuffer: 1 << 24,
    });
    const fast = decodeXwd(dump);
    expect([fast.width, fast.height]).toEqual([320, 240]);
    const at = (x: number, y: number) => [
      ...fast.pixels.subarray((y * 320 + x) * 3, (y * 320 + x) * 3 + 3),
    ];
    expect(at(310, 20)).toEqual([192, 192, 192]); // the window's grey
    expect(at(210, 138)).toEqual([255, 0, 0]); // the canvas's red square

    const swapped = Buffer.from(dump);
    swapped.writeUInt32BE(1, 7 * 4); // byte_order: MSBFirst
    const start = dump.readUInt32BE(0) + dump.readUInt32BE(19 * 4) * 12;
    const bytesPerLine = dump.readUInt32BE(12 * 4);
    for (let row = 0; row < 240; row += 1) {
      for (let column = 0; column < 320; column += 1) {
        const offset = start + row * bytesPerLine + column * 4;
        swapped.writeUInt32BE(dump.readUInt32LE(offset), offset);
      }
    }
    expect(decodeXwd(swapped).pixels.equals(fast.pixels)).toBe(true);
  });

  it("refuses what is not a dump", () => {
    expect(() => decodeXwd(Buffer.alloc(200))).toThrow(/not an X window dump/);
  });
});
