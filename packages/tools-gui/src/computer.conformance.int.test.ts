// The contract's conformance kit on the computer tool, driving a real Xvfb display; and the
// hostile inputs a model can send: each is refused with INVALID_INPUT naming the fix, or typed
// as text — never run, never left half-done (held keys and buttons are released).
import { existsSync } from "node:fs";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createComputerTool } from "./computer.js";
import type { XvfbDisplay } from "./node/xvfb-display.js";
import { waitForTitle, X11_MISSING } from "./test-support/x11.js";
import { startTkTestApp } from "./testing/tk-test-app.js";

let display: XvfbDisplay | undefined;
beforeAll(async () => {
  if (X11_MISSING === undefined) display = await startTkTestApp(800, 600);
});
afterAll(async () => {
  await display?.close();
});

function tool() {
  if (display === undefined) throw new Error("no display");
  return createComputerTool({ display, settleMs: 0, maxTextCharacters: 200, maxWaitSeconds: 2 });
}

async function refusal(input: Record<string, unknown>) {
  const result = await tool().run(input);
  if (result.success) throw new Error(`${JSON.stringify(input)} succeeded`);
  return result.error;
}

describe.skipIf(X11_MISSING !== undefined)(
  "computer: contract and hostile input",
  { timeout: 60_000 },
  () => {
    it("passes the conformance kit (a screenshot as its sample)", async () => {
      await assertConformance([tool()], { samples: { computer: { action: "screenshot" } } });
    });

    it("is destructive, not open-world, and states the screen and scale in every result", async () => {
      const computer = tool();
      expect(computer.annotations).toMatchObject({ destructive: true, openWorld: false });
      const result = await computer.run({ action: "mouse_move", coordinate: [10, 10] });
      expect(result.success).toBe(true);
      const content = computer.renderResult(result);
      expect(Array.isArray(content) && content[0]?.type === "text" ? content[0].text : "").toBe(
        "Moved the pointer to (10, 10). Screen 800×600 (scale 1).",
      );
      expect(Array.isArray(content) && content[1]?.type).toBe("image");
    });

    it("refuses coordinates off the screen, naming the range in screenshot pixels", async () => {
      for (const coordinate of [
        [-1, 5],
        [800, 0],
        [0, 600],
        [1e9, 1e9],
      ]) {
        const error = await refusal({ action: "left_click", coordinate });
        expect(error.code).toBe("INVALID_INPUT");
        expect(error.message).toContain("x 0–799, y 0–599");
      }
      const drag = await refusal({ action: "left_click_drag", coordinate: [10, 10] });
      expect(drag.message).toContain("needs start_coordinate");
      const zoom = await refusal({ action: "zoom", region: [10, 10, 5, 20] });
      expect(zoom.message).toContain("is empty");
      const offscreen = await refusal({ action: "zoom", region: [0, 0, 801, 20] });
      expect(offscreen.message).toContain("0–800 × 0–600");
    });

    it("caps text, durations and scrolling", async () => {
      const long = await refusal({ action: "type", text: "x".repeat(201) });
      expect(long.message).toBe("text is 201 characters; the limit per call is 200.");
      const huge = await refusal({ action: "type", text: "x".repeat(200_000) });
      expect(huge.code).toBe("INVALID_INPUT");
      const wait = await refusal({ action: "wait", duration: 3 });
      expect(wait.message).toContain("limit for wait, 2 s");
      const scroll = await refusal({
        action: "scroll",
        scroll_direction: "down",
        scroll_amount: 31,
      });
      expect(scroll.message).toContain("over the limit of 30");
    });

    it("refuses key strings that are not key names, and never runs them", async () => {
      const marker = `/tmp/agentool-gui-key-${process.pid}`;
      for (const key of [
        `ctrl+$(touch ${marker})`,
        `a; touch ${marker}`,
        "--help",
        "`id`",
        "Return|sh",
      ]) {
        const error = await refusal({ action: "key", key });
        expect(error.code).toBe("INVALID_INPUT");
        expect(error.hint).toContain("use the type action");
      }
      const unknown = await refusal({ action: "key", key: "ctrl+nosuchkeyname" });
      expect(unknown.message).toContain('"nosuchkeyname", which is not an X key name');
      expect(existsSync(marker)).toBe(false);
    });

    it("types option-like and control text literally into the field", async () => {
      if (display === undefined) return;
      const computer = tool();
      await computer.run({ action: "triple_click", coordinate: [120, 22] });
      const text = "--file /etc/passwd -- key ctrl+alt+BackSpace";
      expect((await computer.run({ action: "type", text })).success).toBe(true);
      expect((await computer.run({ action: "key", key: "Tab" })).success).toBe(true);
      expect((await computer.run({ action: "key", key: "space" })).success).toBe(true);
      expect(await waitForTitle(display, /applied/)).toBe(`agentool-test: applied ${text}`);
    });

    it("an aborted hold_key still releases the key", async () => {
      if (display === undefined) return;
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const held = await tool().run(
        { action: "hold_key", key: "shift", duration: 2 },
        { signal: controller.signal },
      );
      expect(held.success).toBe(false);
      // With shift released, typed lowercase text stays lowercase.
      const computer = tool();
      await computer.run({ action: "triple_click", coordinate: [120, 22] });
      await computer.run({ action: "type", text: "lower" });
      await computer.run({ action: "key", key: "Tab" });
      await computer.run({ action: "key", key: "space" });
      expect(await waitForTitle(display, /applied lower/)).toBe("agentool-test: applied lower");
    });
  },
);
