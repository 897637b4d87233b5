// The computer tool on real X programs: Xvfb, the Tk app in test-support (an entry, an Apply
// button, a label, a slider, a canvas with a red square), xdotool and xwd. Results are read
// independently of the tool: the window title with xprop, the pointer with xdotool, and the
// screenshot's pixels.
import { existsSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { type ComputerToolData, createComputerTool } from "./computer.js";
import type { XvfbDisplay } from "./node/xvfb-display.js";
import { pixelsOf, pointerOf, waitForTitle, X11_MISSING } from "./test-support/x11.js";
import { startTkTestApp } from "./testing/tk-test-app.js";

const GRAY = [192, 192, 192] as const;
const WHITE = [255, 255, 255] as const;
const BUTTON = [217, 217, 217] as const;
const TROUGH = [179, 179, 179] as const;
const RED = [255, 0, 0] as const;
const GREEN = [0, 255, 0] as const;

let display: XvfbDisplay | undefined;
afterEach(async () => {
  await display?.close();
  display = undefined;
});

function center(box: { left: number; top: number; right: number; bottom: number }): number[] {
  return [Math.round((box.left + box.right) / 2), Math.round((box.top + box.bottom) / 2)];
}

async function succeed(
  tool: ReturnType<typeof createComputerTool>,
  input: Record<string, unknown>,
): Promise<ComputerToolData> {
  const result = await tool.run(input);
  if (!result.success) throw new Error(`${JSON.stringify(input)}: ${result.error.message}`);
  return result.data;
}

describe.skipIf(X11_MISSING !== undefined)(
  "computer on Xvfb with a Tk app",
  { timeout: 60_000 },
  () => {
    it("types into the field, presses Apply, and the result shows in the title and the pixels", async () => {
      display = await startTkTestApp(1280, 800);
      const computer = createComputerTool({ display, maxScreenshotWidth: 1024 });
      const shot = await succeed(computer, { action: "screenshot" });
      expect([shot.screenshot_width, shot.screenshot_height, shot.scale]).toEqual([1024, 640, 0.8]);
      // The size adapters declare to a provider's native computer tool is this screenshot's.
      expect(computer.tags).toContain("gui:screenshot-size:1024x640");
      const screen = await pixelsOf(shot.image_base64 ?? "");
      expect(screen.at(700, 20)).toEqual([...GRAY]);
      // The top row, as the model sees it: the entry (a long white run), then the Apply button
      // (a long run of the button's grey right of it, on a row above its label text).
      const band = { top: 0, bottom: Math.round(40 * shot.scale) };
      const row = Math.round(22 * shot.scale);
      const entry = screen.runs(WHITE, row, 60)[0];
      expect(entry).toBeDefined();
      if (entry === undefined) return;
      const button = screen
        .runs(BUTTON, Math.round(11 * shot.scale), 30)
        .find((run) => run.left > entry.right);
      expect(button).toBeDefined();
      if (button === undefined) return;
      expect(screen.find(GREEN)).toBeUndefined();

      await succeed(computer, {
        action: "left_click",
        coordinate: [Math.round((entry.left + entry.right) / 2), row],
      });
      // Shell syntax is text like any other: typed literally, never run.
      const marker = `/tmp/agentool-gui-${process.pid}`;
      const text = `hi $(touch ${marker}); \`touch ${marker}\` && echo "x" > ${marker} 'q' \\n`;
      const typed = await succeed(computer, { action: "type", text });
      expect(typed.summary).toBe(`Typed ${text.length} characters.`);
      const clicked = await succeed(computer, {
        action: "left_click",
        coordinate: [Math.round((button.left + button.right) / 2), row],
      });
      expect(await waitForTitle(display, /applied/)).toBe(`agentool-test: applied ${text}`);
      expect(existsSync(marker)).toBe(false);
      rmSync(marker, { force: true });
      // The screenshot returned by the click shows the label painted green.
      const after = await pixelsOf(clicked.image_base64 ?? "");
      const label = after.find(GREEN, band);
      expect(label?.count ?? 0).toBeGreaterThan(500);
      expect(label?.left ?? 0).toBeGreaterThan(button.right);
    });

    it("drags the slider from its knob to the far end", async () => {
      display = await startTkTestApp(1024, 768);
      const computer = createComputerTool({ display, settleMs: 100 });
      const shot = await succeed(computer, { action: "screenshot" });
      expect(shot.scale).toBe(1);
      // The slider's row (below the entry row; its value is printed above the trough).
      const sliderRow = { top: 65, bottom: 95 };
      const trough = (await pixelsOf(shot.image_base64 ?? "")).find(TROUGH, sliderRow);
      expect(trough).toBeDefined();
      if (trough === undefined) return;
      const middle = Math.round((trough.top + trough.bottom) / 2);
      // At 0 the knob sits left of the trough's bare part.
      const dragged = await succeed(computer, {
        action: "left_click_drag",
        start_coordinate: [trough.left - 14, middle],
        coordinate: [trough.right + 2, middle],
      });
      const title = await waitForTitle(display, /slider (9\d|100)$/);
      expect(title).toMatch(/^agentool-test: slider (9\d|100)$/);
      // And the bare trough moved to the knob's left: its left edge is back at the start.
      const moved = (await pixelsOf(dragged.image_base64 ?? "")).find(TROUGH, sliderRow);
      expect(moved?.left ?? Number.POSITIVE_INFINITY).toBeLessThan(trough.left - 20);
    });

    for (const [width, height] of [
      [800, 600],
      [1280, 800],
      [1920, 1080],
    ] as const) {
      it(`scaled coordinates land on the right pixel at ${width}×${height} (screenshots 1024 wide at most)`, async () => {
        display = await startTkTestApp(width, height);
        const computer = createComputerTool({ display, maxScreenshotWidth: 1024, settleMs: 50 });
        const shot = await succeed(computer, { action: "screenshot" });
        const modelWidth = shot.screenshot_width;
        const modelHeight = shot.screenshot_height;
        expect(modelWidth).toBe(Math.min(width, 1024));
        expect(modelHeight).toBe(Math.round((height * modelWidth) / width));
        // Every model pixel sent lands inside its own footprint on the display, read by xdotool.
        for (const [x, y] of [
          [0, 0],
          [modelWidth - 1, modelHeight - 1],
          [Math.floor(modelWidth / 2), Math.floor(modelHeight / 3)],
          [modelWidth - 1, 0],
          [317, 211],
        ] as const) {
          await succeed(computer, { action: "mouse_move", coordinate: [x, y] });
          const pointer = pointerOf(display);
          expect(pointer.x).toBeGreaterThanOrEqual(Math.floor((x * width) / modelWidth));
          expect(pointer.x).toBeLessThan(Math.ceil(((x + 1) * width) / modelWidth));
          expect(pointer.y).toBeGreaterThanOrEqual(Math.floor((y * height) / modelHeight));
          expect(pointer.y).toBeLessThan(Math.ceil(((y + 1) * height) / modelHeight));
          const position = await succeed(computer, { action: "cursor_position" });
          expect([position.pointer_x, position.pointer_y]).toEqual([x, y]);
        }
        // The red square the model sees, clicked at its centre, is hit on the display.
        const square = (await pixelsOf(shot.image_base64 ?? "")).find(RED);
        expect(square).toBeDefined();
        if (square === undefined) return;
        await succeed(computer, { action: "left_click", coordinate: center(square) });
        const title = await waitForTitle(display, /canvas/);
        const [, hitX = -1, hitY = -1] = (/canvas (\d+) (\d+)$/.exec(title) ?? []).map(Number);
        const full = await display.capture({ width, height }, new AbortController().signal);
        const target = (await pixelsOf(full)).find(RED);
        expect(target).toBeDefined();
        expect(hitX).toBeGreaterThanOrEqual(target?.left ?? 0);
        expect(hitX).toBeLessThanOrEqual(target?.right ?? 0);
        expect(hitY).toBeGreaterThanOrEqual(target?.top ?? 0);
        expect(hitY).toBeLessThanOrEqual(target?.bottom ?? 0);
        // One pixel past the screenshot is refused, naming the valid range in screenshot pixels.
        const outside = await computer.run({ action: "left_click", coordinate: [modelWidth, 0] });
        expect(outside.success).toBe(false);
        if (!outside.success) {
          expect(outside.error.code).toBe("INVALID_INPUT");
          expect(outside.error.message).toContain(`x 0–${modelWidth - 1}, y 0–${modelHeight - 1}`);
        }
      });
    }
  },
);
