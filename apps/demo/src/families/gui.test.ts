import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countColorPixels } from "@agentool/tools-gui/testing";
import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import { coreFamily } from "./core.js";
import { createGuiFamily } from "./gui.js";

describe("gui family", () => {
  it("types 310 and 1240 into the share calculator under Xvfb, presses Share and zooms into 25% on green", async () => {
    const shot = join(mkdtempSync(join(tmpdir(), "demo-gui-")), "last-image.png");
    const run = await runDemo({ families: [coreFamily, createGuiFamily(shot)] });
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.toolCallsByName).toMatchObject({ computer: 7 });
    const results = run.events.filter(
      (event) => event.type === "tool_result" && event.name === "computer",
    );
    expect(results.map((event) => (event.type === "tool_result" ? event.content : ""))).toEqual([
      "Screenshot taken. Screen 640×400 (scale 1).",
      "left click at (220, 35). Screen 640×400 (scale 1).",
      "Typed 3 characters. Screen 640×400 (scale 1).",
      "left click at (220, 85). Screen 640×400 (scale 1).",
      "Typed 4 characters. Screen 640×400 (scale 1).",
      "left click at (170, 135). Screen 640×400 (scale 1).",
      "Zoomed into [100, 160, 440, 220] (display pixels 100,160 340×60), shown at 1280×226; coordinates in this image are not screen coordinates. Screen 640×400 (scale 1).",
    ]);
    // The zoomed result: the label is pure green (#00ff00) once Share computed the share.
    const { width, height, count } = await countColorPixels(readFileSync(shot), [0, 255, 0]);
    expect(count / (width * height)).toBeGreaterThan(0.2);
  }, 60_000);
});
