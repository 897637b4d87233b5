import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AnyTool, RunOptions } from "@agentool/contract";
import { createChromiumPreviewTool } from "@agentool/tools-preview/node";
import type { DemoFamily } from "./demo-family.js";

/** The artifact the demo writes into the workspace and previews. */
export const PREVIEW_ARTIFACT = "counter-game.html";

/** Where the demo saves the preview's screenshot (kept after the run; ignored by git). */
export const DEFAULT_SHOT_PATH = new URL("../../.preview/shot.png", import.meta.url);

/** A small canvas game: the square moves right on ArrowRight; the count is logged and shown. */
export const PREVIEW_ARTIFACT_HTML = `<!doctype html>
<html><head><title>Counter game</title></head>
<body style="margin:0;background:#111;color:#eee;font:16px sans-serif">
<canvas id="board" width="240" height="80"></canvas><p id="moves">moves: 0</p>
<script>
  const board = document.getElementById("board").getContext("2d");
  const state = { x: 10, moves: 0 };
  function draw() {
    board.fillStyle = "#223"; board.fillRect(0, 0, 240, 80);
    board.fillStyle = "#4c4"; board.fillRect(state.x, 30, 20, 20);
  }
  addEventListener("keydown", (event) => {
    if (event.key !== "ArrowRight") return;
    state.x = Math.min(state.x + 40, 210); state.moves += 1;
    document.getElementById("moves").textContent = "moves: " + state.moves;
    console.log("moved to x=" + state.x);
    draw();
  });
  draw();
  console.log("game ready");
</script></body></html>`;

/**
 * The `@agentool/tools-preview` family: the demo writes a canvas game into the workspace, and the
 * agent opens it in headless Chromium (Debian's chromium), presses keys, reads the counter and
 * takes a shot; the console output comes back with each result, and the shot is saved as a PNG.
 *
 * @param shotPath - where the shot is saved
 * @returns the family
 */
export function createPreviewFamily(shotPath: URL | string = DEFAULT_SHOT_PATH): DemoFamily {
  return {
    name: "preview",
    createTools: async ({ workspaceRoot, onCleanup }) => {
      await writeFile(join(workspaceRoot, PREVIEW_ARTIFACT), PREVIEW_ARTIFACT_HTML);
      const preview = createChromiumPreviewTool({ root: workspaceRoot });
      onCleanup(() => preview.dispose());
      // The same tool, saving each shot's PNG as it passes through.
      const saving: AnyTool = Object.freeze({
        ...preview,
        run: async (input: unknown, options?: RunOptions) => {
          const result = await preview.run(input, options);
          if (result.success && result.data.image_base64 !== undefined) {
            const target = typeof shotPath === "string" ? shotPath : shotPath.pathname;
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
        step: "Preview the counter game and check it reacts to keys",
        turns: [
          { toolCalls: [{ name: "preview", arguments: { op: "open", path: PREVIEW_ARTIFACT } }] },
          {
            toolCalls: [
              {
                name: "preview",
                arguments: {
                  op: "act",
                  actions: [
                    { type: "key", key: "ArrowRight" },
                    { type: "key", key: "ArrowRight" },
                  ],
                },
              },
            ],
          },
          {
            toolCalls: [
              { name: "preview", arguments: { op: "read", queries: [{ css: "#moves" }] } },
            ],
          },
          { toolCalls: [{ name: "preview", arguments: { op: "shot" } }] },
        ],
      },
    ],
    findings: [
      "The counter game works in the preview: two ArrowRight presses moved the square and the counter reads 2 (screenshot saved as a PNG).",
    ],
  };
}

/** The preview family with the default shot path. */
export const previewFamily: DemoFamily = createPreviewFamily();
