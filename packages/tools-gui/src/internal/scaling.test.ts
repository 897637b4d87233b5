import { describe, expect, it } from "vitest";
import { scalingFor, toDisplay, toModel } from "./scaling.js";

describe("scaling", () => {
  it("scales down to fit the box, never up, keeping the aspect ratio", () => {
    expect(scalingFor(1920, 1080, 1280, 800)).toMatchObject({
      modelWidth: 1280,
      modelHeight: 720,
      scale: 0.6667,
    });
    expect(scalingFor(1280, 800, 1024, 768)).toMatchObject({
      modelWidth: 1024,
      modelHeight: 640,
      scale: 0.8,
    });
    expect(scalingFor(800, 600, 1280, 800)).toMatchObject({
      modelWidth: 800,
      modelHeight: 600,
      scale: 1,
    });
  });

  it("every model pixel maps inside its footprint on the display and back to itself", () => {
    for (const [width, height] of [
      [1920, 1080],
      [1280, 800],
      [2560, 1600],
      [1366, 768],
      [800, 600],
    ] as const) {
      const scaling = scalingFor(width, height, 1024, 768);
      for (let x = 0; x < scaling.modelWidth; x += 1) {
        const display = toDisplay(scaling, x, 0);
        expect(display.x).toBeGreaterThanOrEqual(Math.floor((x * width) / scaling.modelWidth));
        expect(display.x).toBeLessThan(Math.ceil(((x + 1) * width) / scaling.modelWidth));
        expect(toModel(scaling, display.x, display.y).x).toBe(x);
      }
      for (let y = 0; y < scaling.modelHeight; y += 1) {
        expect(toModel(scaling, 0, toDisplay(scaling, 0, y).y).y).toBe(y);
      }
    }
  });
});
