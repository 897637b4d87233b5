import { afterAll, describe, expect, it } from "vitest";
import { createComputerTool } from "../computer.js";
import type { XvfbDisplay } from "../node/xvfb-display.js";
import { X11_MISSING } from "../test-support/x11.js";
import { countColorPixels } from "./count-color-pixels.js";
import { startTkTestApp } from "./tk-test-app.js";

let display: XvfbDisplay | undefined;
afterAll(async () => {
  await display?.close();
});

describe.skipIf(X11_MISSING !== undefined)("startTkTestApp", { timeout: 60_000 }, () => {
  it("runs the shipped Tk app filling the display: typed text applied turns the label green", async () => {
    display = await startTkTestApp(800, 600);
    const computer = createComputerTool({ display });
    const before = await computer.run({ action: "screenshot" });
    if (!before.success) throw new Error(before.error.message);
    expect(await countColorPixels(before.data.image_base64 ?? "", [0, 255, 0])).toEqual({
      width: 800,
      height: 600,
      count: 0,
    });
    for (const input of [
      { action: "left_click", coordinate: [40, 22] },
      { action: "type", text: "ok" },
      { action: "key", key: "Tab" },
      { action: "key", key: "space" },
    ]) {
      const result = await computer.run(input as never);
      if (!result.success) throw new Error(result.error.message);
    }
    let green = 0;
    for (let tries = 0; tries < 50 && green === 0; tries += 1) {
      const shot = await computer.run({ action: "screenshot" });
      if (!shot.success) throw new Error(shot.error.message);
      green = (await countColorPixels(shot.data.image_base64 ?? "", [0, 255, 0])).count;
    }
    expect(green).toBeGreaterThan(100);
  });
});
