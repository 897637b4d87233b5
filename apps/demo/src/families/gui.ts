import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AnyTool, RunOptions } from "@agentool/contract";
import { createComputerTool } from "@agentool/tools-gui";
import { startXvfbDisplay } from "@agentool/tools-gui/node";
import type { DemoFamily } from "./demo-family.js";

/** The demo's GUI app: Tally's share calculator (Tk, Debian's python3-tk). */
export const SHARE_APP = fileURLToPath(new URL("../../gui/share-app.py", import.meta.url));

/** The display the app runs on (scale 1: the model's pixels are the display's). */
export const GUI_DISPLAY_SIZE = { width: 640, height: 400 } as const;

/** Where the demo saves the last image the computer tool returned (kept; ignored by git). */
export const DEFAULT_GUI_SHOT_PATH = new URL("../../.gui/last-image.png", import.meta.url);

const at = (coordinate: [number, number]) => ({ coordinate });

/**
 * The `@agentool/tools-gui` family: the demo starts an Xvfb with Tally's share calculator in it
 * (a small Tk app) and the agent uses the `computer` tool — screenshot, click the Part field, type
 * 310, click Whole, type 1,240, click Share, zoom into the result — to check the fixed percent()
 * against the calculator: 25%. Xvfb and the app stop when the run ends. Each image the tool
 * returns is saved as a PNG as it passes through (the last is the zoomed result).
 *
 * @param shotPath - where the last image is saved
 * @returns the family
 */
export function createGuiFamily(shotPath: URL | string = DEFAULT_GUI_SHOT_PATH): DemoFamily {
  return {
    name: "gui",
    createTools: async ({ onCleanup }) => {
      const display = await startXvfbDisplay({
        ...GUI_DISPLAY_SIZE,
        app: {
          command: "/usr/bin/python3",
          args: [SHARE_APP, String(GUI_DISPLAY_SIZE.width), String(GUI_DISPLAY_SIZE.height)],
        },
      });
      onCleanup(() => display.close());
      const computer = createComputerTool({ display });
      const target = typeof shotPath === "string" ? shotPath : fileURLToPath(shotPath);
      const saving: AnyTool = Object.freeze({
        ...computer,
        run: async (input: unknown, options?: RunOptions) => {
          const result = await computer.run(input as never, options);
          if (result.success && result.data.image_base64 !== undefined) {
            await mkdir(join(target, ".."), { recursive: true });
            await writeFile(target, Buffer.from(result.data.image_base64, "base64"));
          }
          return result;
        },
      });
      return [saving];
    },
    tasks: [
      {
        step: "Check percent(310, 1240) against Tally's share calculator on the desktop",
        turns: [
          {
            text: "The fixed report says 310 of 1,240 hits is 25%. Tally's share calculator is open on the desktop; let me look.",
            toolCalls: [{ name: "computer", arguments: { action: "screenshot" } }],
          },
          {
            toolCalls: [
              { name: "computer", arguments: { action: "left_click", ...at([220, 35]) } },
            ],
          },
          { toolCalls: [{ name: "computer", arguments: { action: "type", text: "310" } }] },
          {
            toolCalls: [
              { name: "computer", arguments: { action: "left_click", ...at([220, 85]) } },
            ],
          },
          { toolCalls: [{ name: "computer", arguments: { action: "type", text: "1240" } }] },
          {
            toolCalls: [
              { name: "computer", arguments: { action: "left_click", ...at([170, 135]) } },
            ],
          },
          {
            text: "Zoom into the result to read it.",
            toolCalls: [
              { name: "computer", arguments: { action: "zoom", region: [100, 160, 440, 220] } },
            ],
          },
        ],
      },
    ],
    findings: [
      "Tally's share calculator agrees with the fixed percent(): 310 of 1,240 is 25% (typed into its fields with the computer tool and read from the zoomed screenshot).",
    ],
  };
}

/** The gui family with the default image path. */
export const guiFamily: DemoFamily = createGuiFamily();
