import { fileURLToPath } from "node:url";
import { startXvfbDisplay, type XvfbApp, type XvfbDisplay } from "../node/xvfb-display.js";

/**
 * The Tk test app shipped with the package (`test-apps/tk-app.py`, run by Debian's
 * `/usr/bin/python3` with `python3-tk`). Its window fills the display at +0+0: an entry, an
 * "Apply" button and a label on the top row (Apply copies the entry's text into the label, paints
 * the label pure green #00ff00 and sets the title to `agentool-test: applied <text>`), a slider
 * below it, then a canvas with a red square (#ff0000) at canvas (200, 40)–(220, 60) whose clicks
 * set the title to `agentool-test: canvas <x> <y>` (display pixels).
 */
export const TK_TEST_APP: string = fileURLToPath(
  new URL("../../test-apps/tk-app.py", import.meta.url),
);

/**
 * The Tk test app as `startXvfbDisplay`'s `app`, filling a display of the given size.
 *
 * @param width - the display's width in pixels
 * @param height - the display's height in pixels
 * @returns the command and its arguments (join them with spaces for agentool-mcp's `--gui-app`)
 * @example
 * const display = await startXvfbDisplay({ width: 800, height: 600, app: tkTestApp(800, 600) });
 */
export function tkTestApp(width: number, height: number): XvfbApp {
  return { command: "/usr/bin/python3", args: [TK_TEST_APP, String(width), String(height)] };
}

/** Options of {@link startTkTestApp}. */
export interface StartTkTestAppOptions {
  /** Start the display with an accessibility bus (Tk speaks no AT-SPI: `read_window` answers UNSUPPORTED). */
  accessibility?: boolean;
}

/**
 * Starts an Xvfb of the given size with the Tk test app filling it; `close()` stops both.
 *
 * @param width - the display's width in pixels
 * @param height - the display's height in pixels
 * @param options - whether the display gets an accessibility bus
 * @returns the running display
 * @throws AgentoolError (DEPENDENCY_MISSING) when Xvfb, xauth, xdotool or xwd is not installed
 * @example
 * const display = await startTkTestApp(1024, 768);
 * try {
 *   const computer = createComputerTool({ display });
 *   await computer.run({ action: "screenshot" });
 * } finally {
 *   await display.close();
 * }
 */
export function startTkTestApp(
  width: number,
  height: number,
  options: StartTkTestAppOptions = {},
): Promise<XvfbDisplay> {
  return startXvfbDisplay({
    width,
    height,
    ...(options.accessibility === true ? { accessibility: true } : {}),
    app: tkTestApp(width, height),
  });
}
