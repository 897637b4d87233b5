// read_window on a real accessible app: the GTK 3 app in test-support under Xvfb with a private
// D-Bus session bus and AT-SPI (Debian's at-spi2-core, read by Debian's python3-gi). The tree is
// checked against what the app was given, and a box's "at" point is clicked through the tool:
// the app's title (read with xprop, not through the tool) says the button was pressed.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseNextCall, toJsonSchema } from "@agentool/contract";
import { assertConformance } from "@agentool/contract/testing";
import { afterEach, describe, expect, it } from "vitest";
import { type ComputerToolData, createComputerTool } from "./computer.js";
import type { XvfbDisplay } from "./node/xvfb-display.js";
import { startXvfbDisplay } from "./node/xvfb-display.js";
import { ATSPI_MISSING, startGtkApp, waitForTitle, X11_MISSING } from "./test-support/x11.js";
import { startTkTestApp } from "./testing/tk-test-app.js";

let display: XvfbDisplay | undefined;
afterEach(async () => {
  await display?.close();
  display = undefined;
});

type Tool = ReturnType<typeof createComputerTool>;

async function succeed(tool: Tool, input: Record<string, unknown>): Promise<ComputerToolData> {
  const result = await tool.run(input);
  if (!result.success) throw new Error(`${JSON.stringify(input)}: ${result.error.message}`);
  return result.data;
}

function element(data: ComputerToolData, role: string, name: string) {
  const found = data.elements?.find((item) => item.role === role && item.name === name);
  if (found === undefined) throw new Error(`no ${role} "${name}" in ${JSON.stringify(data)}`);
  return found;
}

function rendered(tool: Tool, data: ComputerToolData): string {
  const content = tool.renderResult({ success: true, data });
  return typeof content === "string" ? content : JSON.stringify(content);
}

describe.skipIf(ATSPI_MISSING !== undefined)(
  "computer read_window on a GTK 3 app over AT-SPI",
  { timeout: 60_000 },
  () => {
    it("lists roles, names, values and states with boxes in screenshot pixels; a box's point clicks the button", async () => {
      display = await startGtkApp(1280, 800);
      const computer = createComputerTool({ display, maxScreenshotWidth: 1024 });
      expect(computer.description).toContain("read_window");
      const first = await succeed(computer, { action: "read_window" });
      expect([first.screenshot_width, first.scale]).toEqual([1024, 0.8]);
      expect(first).toMatchObject({
        window_title: "agentool-gtk: ready",
        window_focused: true,
        total: 5,
        truncated: false,
      });
      expect(element(first, "text", "Name").states).toEqual(["focused"]);
      expect(element(first, "push button", "Locked").states).toEqual(["disabled"]);
      expect(element(first, "check box", "Remember me").states).toEqual([]);
      // The Apply button is 100×32 at display (280, 20): screenshot (224, 16)–(304, 41.6).
      const apply = element(first, "push button", "Apply");
      expect(apply.box?.[0]).toBe(224);
      expect(apply.box?.[1]).toBe(16);
      expect(apply.box?.[2]).toBe(304);
      expect(apply.box?.[3]).toBeGreaterThanOrEqual(42);
      expect(apply.box?.[3]).toBeLessThanOrEqual(45);
      // A password field is listed, its text never read.
      const password = first.elements?.find((item) => item.role === "password text");
      expect(password?.states).toContain("password");
      expect(password?.value).toBeUndefined();
      const text = rendered(computer, first);
      expect(JSON.stringify(first)).not.toContain("hunter2");
      expect(text).not.toContain("hunter2");
      expect(text).toContain('- push button "Apply" at (');

      await succeed(computer, { action: "type", text: "hello agent" });
      const typed = await succeed(computer, { action: "read_window" });
      expect(element(typed, "text", "Name").value).toBe("hello agent");
      expect(rendered(computer, typed)).toContain('- text "Name" value "hello agent" (focused)');

      await succeed(computer, { action: "left_click", coordinate: apply.center });
      expect(await waitForTitle(display, /applied/, "agentool-gtk")).toBe(
        "agentool-gtk: applied hello agent",
      );
      const remember = element(typed, "check box", "Remember me");
      await succeed(computer, { action: "left_click", coordinate: remember.center });
      expect(await waitForTitle(display, /remember/, "agentool-gtk")).toBe(
        "agentool-gtk: remember True",
      );
      const checked = await succeed(computer, { action: "read_window" });
      expect(element(checked, "check box", "Remember me").states).toContain("checked");
    });

    it("passes the conformance kit on read_window and pages with the contract's marker, whose next call returns the rest", async () => {
      display = await startGtkApp(800, 600);
      const computer = createComputerTool({ display, maxWindowElements: 2 });
      await assertConformance([computer], {
        samples: { computer: { action: "read_window" } },
      });
      const page = await succeed(computer, { action: "read_window" });
      expect(page.elements?.length).toBe(2);
      expect(page).toMatchObject({ total: 5, next_offset: 3, truncated: true });
      const text = rendered(computer, page);
      expect(text).toContain(
        '…[truncated: 3 more elements — call computer again with action="read_window", offset=3]',
      );
      const next = parseNextCall(text);
      expect(next).toEqual({ tool: "computer", args: { action: "read_window", offset: 3 } });
      const rest = await succeed(computer, next?.args ?? {});
      expect(rest.elements?.map((item) => item.name)).toEqual(["Remember me", "Locked"]);
      expect(rest.next_offset).toBe(5);
      const past = await computer.run({ action: "read_window", offset: 9 });
      expect(past.success ? "" : past.error.code).toBe("INVALID_INPUT");
      expect(past.success ? "" : past.error.message).toContain("5 elements in all");
      // A character cap cuts too, never below one element.
      const tight = createComputerTool({ display, maxWindowCharacters: 200 });
      const cut = await succeed(tight, { action: "read_window" });
      expect(cut.elements?.length).toBeGreaterThan(0);
      expect(cut.elements?.length).toBeLessThan(5);
      expect(cut.next_offset).toBe((cut.elements?.length ?? 0) + 1);
    });
  },
);

describe.skipIf(ATSPI_MISSING !== undefined)(
  "computer read_window on an app without AT-SPI",
  { timeout: 60_000 },
  () => {
    it("a Tk app exposes nothing: UNSUPPORTED, with a screenshot as the next step", async () => {
      display = await startTkTestApp(640, 400, { accessibility: true });
      const result = await createComputerTool({ display }).run({ action: "read_window" });
      expect(result.success ? "" : result.error.code).toBe("UNSUPPORTED");
      expect(result.success ? "" : result.error.hint).toContain("Take a screenshot");
    });
  },
);

describe.skipIf(X11_MISSING !== undefined)(
  "computer without accessibility",
  { timeout: 60_000 },
  () => {
    it("does not offer read_window or offset, and refuses them", async () => {
      display = await startXvfbDisplay({ width: 320, height: 240 });
      const computer = createComputerTool({ display });
      const schema = JSON.stringify(toJsonSchema(computer));
      expect(schema).not.toContain("read_window");
      expect(schema).not.toContain('"offset"');
      expect(computer.description).not.toContain("read_window");
      const refused = await computer.run({ action: "read_window" });
      expect(refused.success ? "" : refused.error.code).toBe("INVALID_INPUT");
    });

    it("accessibility: true where AT-SPI is missing fails with UNSUPPORTED naming the Debian packages", async () => {
      // A PATH with the X programs but not dbus-daemon.
      const folder = mkdtempSync(join(tmpdir(), "agentool-gui-path-"));
      for (const program of ["Xvfb", "xauth", "xdotool", "xwd"]) {
        const found = spawnSync("which", [program], { encoding: "utf8" }).stdout.trim();
        symlinkSync(found, join(folder, program));
      }
      const path = process.env.PATH;
      process.env.PATH = folder;
      try {
        await expect(startXvfbDisplay({ accessibility: true })).rejects.toThrow(
          /UNSUPPORTED: accessibility: true, but AT-SPI is not available here: missing dbus-daemon \(package dbus-daemon\).*apt-get install dbus-daemon at-spi2-core python3-gi gir1.2-atspi-2.0/,
        );
      } finally {
        process.env.PATH = path;
        rmSync(folder, { recursive: true, force: true });
      }
    });
  },
);
