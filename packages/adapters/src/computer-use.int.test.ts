// End to end on a real X display: Xvfb (with its cookie) and xterm running a shell that reads one
// line into a file. A scripted Anthropic tool_use sequence and an OpenAI computer_call drive it
// through the dispatchers and the computer tool of @agentool/tools-gui; the results are read
// outside the tool (the file the shell wrote, the pointer from xdotool).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createComputerTool } from "@agentool/tools-gui";
import { startXvfbDisplay, type XvfbDisplay } from "@agentool/tools-gui/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnthropicToolDispatcher } from "./anthropic/create-anthropic-tool-dispatcher.js";
import { createOpenAiToolDispatcher } from "./openai/create-open-ai-tool-dispatcher.js";

const missing = ["Xvfb", "xdotool", "xwd", "xterm", "xauth"].find(
  (program) => spawnSync("sh", ["-c", `command -v ${program}`]).status !== 0,
);
if (missing !== undefined)
  console.warn(`adapters computer-use tests skipped: ${missing} is not installed`);

let display: XvfbDisplay | undefined;
let scratch = "";
const output = () => join(scratch, "line");

beforeAll(async () => {
  if (missing !== undefined) return;
  scratch = mkdtempSync(join(tmpdir(), "agentool-computer-use-"));
  display = await startXvfbDisplay({
    width: 800,
    height: 600,
    app: {
      command: "xterm",
      args: [
        "-geometry",
        "60x10+0+0",
        "-e",
        "sh",
        "-c",
        'read line; printf %s "$line" > "$0"; sleep 60',
        output(),
      ],
    },
  });
}, 30_000);
afterAll(async () => {
  await display?.close();
  if (scratch !== "") rmSync(scratch, { recursive: true, force: true });
});

function pointer(): string {
  const result = spawnSync("xdotool", ["getmouselocation", "--shell"], {
    encoding: "utf8",
    env: {
      PATH: process.env.PATH ?? "",
      DISPLAY: display?.name ?? "",
      XAUTHORITY: display?.authorityFile ?? "",
    },
  });
  return /X=\d+\nY=\d+/.exec(result.stdout)?.[0].replace("\n", " ") ?? "";
}

describe.skipIf(missing !== undefined)(
  "the computer tool through the provider adapters on Xvfb",
  { timeout: 60_000 },
  () => {
    it("Anthropic: left_click, type and key (keys in text) reach the app", async () => {
      if (display === undefined) throw new Error("no display");
      const computer = createComputerTool({ display, maxScreenshotWidth: 640 });
      const dispatcher = createAnthropicToolDispatcher([computer], {
        nativeComputerTool: true,
        approve: () => true,
      });
      const script = [
        { action: "left_click", coordinate: [80, 40] },
        { action: "type", text: "hello from claude" },
        { action: "key", text: "Return" },
      ];
      for (const [index, input] of script.entries()) {
        const { block, result } = await dispatcher.dispatch({
          type: "tool_use",
          id: `toolu_${index}`,
          name: "computer",
          input,
        });
        expect(result.success, JSON.stringify(result)).toBe(true);
        expect(Array.isArray(block.content) && block.content[1]?.type).toBe("image");
      }
      for (let tries = 0; tries < 50 && !existsSync(output()); tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(readFileSync(output(), "utf8")).toBe("hello from claude");
    });

    it("OpenAI: a computer_call moves the pointer to the mapped pixel and answers with a PNG", async () => {
      if (display === undefined) throw new Error("no display");
      const computer = createComputerTool({ display, maxScreenshotWidth: 640 });
      const dispatcher = createOpenAiToolDispatcher([computer], {
        nativeComputerTool: true,
        approve: () => true,
      });
      const { item, result } = await dispatcher.dispatch({
        type: "computer_call",
        call_id: "call_1",
        actions: [{ type: "move", x: 320, y: 240 }, { type: "screenshot" }],
      });
      expect(result.success, JSON.stringify(result)).toBe(true);
      expect(pointer()).toBe("X=400 Y=300"); // scale 0.8: (320, 240) is display pixel (400, 300)
      const png = Buffer.from(
        (item?.output.image_url ?? "").replace(/^data:image\/png;base64,/, ""),
        "base64",
      );
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([640, 480]);
    });
  },
);
