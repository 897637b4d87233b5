import type { ComputerDisplay } from "@agentool/tools-gui";
import { UsageError } from "../usage-error.js";
import type { GuiXvfbOptions } from "./gui-design-flags.js";

/** The display `agentool-mcp` gives the gui family, and how to let go of it. */
export interface OpenedGuiDisplay {
  /** The display the `computer` tool drives. */
  display: ComputerDisplay;
  /** What it is, for the start-up log line. */
  description: string;
  /** Stops the Xvfb (and its app) the server started; nothing for the host's display. */
  close(): Promise<void>;
}

/**
 * Opens the gui family's display: an Xvfb of `--gui-xvfb`'s size with `--gui-app` in it, stopped by
 * `close()` (and by tools-gui's exit hook if the process ends without it), or else the host's
 * `DISPLAY`, which is left as it was.
 *
 * @param xvfb - `--gui-xvfb` / `--gui-app`, or undefined for the host's display
 * @param environment - where `DISPLAY` is read (default `process.env`)
 * @returns the display
 * @throws UsageError when neither `--gui-xvfb` nor `DISPLAY` is given
 * @throws AgentoolError when Xvfb or the app cannot start, or `DISPLAY` cannot be reached
 */
export async function openGuiDisplay(
  xvfb: GuiXvfbOptions | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<OpenedGuiDisplay> {
  if (xvfb === undefined && (environment.DISPLAY ?? "").trim() === "") {
    throw new UsageError(
      "--families gui drives the X display in DISPLAY, which is not set: run agentool-mcp inside a desktop session, or let it start its own with --gui-xvfb 1280x800 (and --gui-app <command>).",
    );
  }
  const node = await import("@agentool/tools-gui/node");
  if (xvfb === undefined) {
    const display = await node.connectX11Display();
    return {
      display,
      description: `the host's display ${display.name} (${display.width}×${display.height})`,
      close: async () => {},
    };
  }
  const [command, ...args] = xvfb.app ?? [];
  const display = await node.startXvfbDisplay({
    width: xvfb.width,
    height: xvfb.height,
    ...(command === undefined ? {} : { app: { command, args } }),
  });
  return {
    display,
    description: `its own Xvfb ${display.name} (${xvfb.width}×${xvfb.height}${command === undefined ? "" : `, running ${command}`})`,
    close: () => display.close(),
  };
}
