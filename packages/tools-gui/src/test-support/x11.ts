// What the X11 tests share beside ../testing (the Tk app, the skip rule): the AT-SPI skip rule,
// the GTK app under Xvfb, the window title read with xprop, PNG pixels and process-group checks.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { missingAccessibility } from "../node/atspi-reader.js";
import { startXvfbDisplay, type XvfbDisplay } from "../node/xvfb-display.js";
import { x11TestSkipReason } from "../testing/x11-test-prerequisites.js";

const GTK_APP = fileURLToPath(new URL("./gtk-app.py", import.meta.url));

/**
 * Why the X11 tests cannot run here, or undefined when they can: what startXvfbDisplay needs,
 * xprop (it reads titles) and Tk (it draws the test app). With AGENTOOL_REQUIRE_SYSTEM set (CI,
 * where the set-up step installs X) a missing prerequisite is an error, not a skip.
 */
export const X11_MISSING = x11TestSkipReason("tools-gui X11 tests", { xprop: true });

function missingAccessibilityPrerequisite(): string | undefined {
  if (X11_MISSING !== undefined) return X11_MISSING;
  const missing = missingAccessibility();
  const gtk = spawnSync(
    "/usr/bin/python3",
    ["-c", 'import gi; gi.require_version("Gtk", "3.0"); from gi.repository import Gtk'],
    { stdio: "ignore", timeout: 10_000 },
  );
  const reasons = [
    ...(missing === undefined ? [] : [missing]),
    ...(gtk.status === 0 ? [] : ["GTK 3 for python3 is not installed (gir1.2-gtk-3.0)"]),
  ];
  return reasons.length === 0
    ? undefined
    : `${reasons.join("; ")}: run \`node scripts/setup-system.mjs test\` (as root)`;
}

/** Why the AT-SPI tests cannot run here, or undefined when they can (same rule as X11_MISSING). */
export const ATSPI_MISSING = missingAccessibilityPrerequisite();
if (ATSPI_MISSING !== undefined && X11_MISSING === undefined) {
  if (process.env.AGENTOOL_REQUIRE_SYSTEM !== undefined) {
    throw new Error(`tools-gui: AGENTOOL_REQUIRE_SYSTEM is set but ${ATSPI_MISSING}`);
  }
  console.warn(`tools-gui AT-SPI tests skipped: ${ATSPI_MISSING}`);
}

/** Starts Xvfb with accessibility at a size with the GTK 3 test app filling it. */
export function startGtkApp(width: number, height: number): Promise<XvfbDisplay> {
  return startXvfbDisplay({
    width,
    height,
    accessibility: true,
    app: { command: "/usr/bin/python3", args: [GTK_APP, String(width), String(height)] },
  });
}

/** The environment of an X client of the display: its name and its cookie. */
export function clientEnvironment(display: XvfbDisplay): NodeJS.ProcessEnv {
  return { ...process.env, DISPLAY: display.name, XAUTHORITY: display.authorityFile };
}

function run(program: string, args: string[], display: XvfbDisplay): string {
  const result = spawnSync(program, args, {
    encoding: "utf8",
    env: clientEnvironment(display),
    timeout: 10_000,
  });
  return result.stdout ?? "";
}

/** The test app's window title (Tk's, or GTK's with `prefix`), read with xprop (not through the tool). */
export function windowTitle(display: XvfbDisplay, prefix = "agentool-test"): string {
  const id = run("xdotool", ["search", "--name", `^${prefix}`], display).split("\n")[0];
  if (id === undefined || id.length === 0) return "";
  const line = run("xprop", ["-id", id, "WM_NAME"], display);
  return /= "(.*)"\s*$/.exec(line)?.[1] ?? "";
}

/** Waits until the title matches, returning it (or the last one seen after 5 s). */
export async function waitForTitle(
  display: XvfbDisplay,
  pattern: RegExp,
  prefix?: string,
): Promise<string> {
  let title = "";
  for (let tries = 0; tries < 100; tries += 1) {
    title = windowTitle(display, prefix);
    if (pattern.test(title)) return title;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return title;
}

/** The pointer, read with xdotool (not through the tool). */
export function pointerOf(display: XvfbDisplay): { x: number; y: number } {
  const output = run("xdotool", ["getmouselocation", "--shell"], display);
  return {
    x: Number(/^X=(\d+)/m.exec(output)?.[1]),
    y: Number(/^Y=(\d+)/m.exec(output)?.[1]),
  };
}

/** A decoded PNG: RGB pixels. */
export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
  /** The runs of at least `minimum` pixels of a colour (±8) along row `y`, left to right. */
  runs(
    color: readonly [number, number, number],
    y: number,
    minimum: number,
  ): Array<{ left: number; right: number }>;
  /** The bounding box of the pixels matching a colour (±8), in a band of rows; undefined when none. */
  find(
    color: readonly [number, number, number],
    within?: { top: number; bottom: number; left?: number },
  ): { left: number; top: number; right: number; bottom: number; count: number } | undefined;
}

/** Decodes a base64 PNG. */
export async function pixelsOf(base64: string): Promise<Pixels> {
  const { data, info } = await sharp(Buffer.from(base64, "base64"))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number): [number, number, number] => {
    const offset = (y * info.width + x) * 3;
    return [data[offset] ?? 0, data[offset + 1] ?? 0, data[offset + 2] ?? 0];
  };
  return {
    width: info.width,
    height: info.height,
    at,
    runs(color, y, minimum) {
      const found: Array<{ left: number; right: number }> = [];
      let start = -1;
      for (let x = 0; x <= info.width; x += 1) {
        const pixel = x < info.width ? at(x, y) : undefined;
        const matches = pixel?.every((value, index) => Math.abs(value - (color[index] ?? 0)) <= 8);
        if (matches && start < 0) start = x;
        if (!matches && start >= 0) {
          if (x - start >= minimum) found.push({ left: start, right: x - 1 });
          start = -1;
        }
      }
      return found;
    },
    find(color, within = { top: 0, bottom: info.height - 1 }) {
      const tolerance = 8;
      let box:
        | { left: number; top: number; right: number; bottom: number; count: number }
        | undefined;
      for (let y = within.top; y <= Math.min(within.bottom, info.height - 1); y += 1) {
        for (let x = within.left ?? 0; x < info.width; x += 1) {
          const pixel = at(x, y);
          if (pixel.every((value, index) => Math.abs(value - (color[index] ?? 0)) <= tolerance)) {
            box ??= { left: x, top: y, right: x, bottom: y, count: 0 };
            box.left = Math.min(box.left, x);
            box.right = Math.max(box.right, x);
            box.top = Math.min(box.top, y);
            box.bottom = Math.max(box.bottom, y);
            box.count += 1;
          }
        }
      }
      return box;
    },
  };
}

/**
 * The processes still alive in a process group (pgrep -g), as "pid name" lines. A zombie
 * (`<defunct>`: dead, waiting for its new parent to reap it) is not alive.
 */
export function processesInGroup(groupId: number | undefined): string[] {
  if (groupId === undefined) return [];
  const result = spawnSync("pgrep", ["-a", "-g", String(groupId)], { encoding: "utf8" });
  return (result.stdout ?? "")
    .split("\n")
    .filter((line) => line.trim().length > 0 && !line.includes("<defunct>"));
}
