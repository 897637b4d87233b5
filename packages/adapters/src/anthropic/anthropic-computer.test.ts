// Anthropic's native computer tool: the declaration sized to the tool's screenshots, and every
// action of a scripted tool_use run through the real computer tool on a recording display seam.
import { describe, expect, it } from "vitest";
import { recordingComputer } from "../computer-fixtures.js";
import { echoTool, PIXEL_PNG } from "../test-fixtures.js";
import {
  fromAnthropicComputerInput,
  toAnthropicComputerInput,
} from "./anthropic-computer-input.js";
import { createAnthropicToolDispatcher } from "./create-anthropic-tool-dispatcher.js";
import { toAnthropicComputerTool } from "./to-anthropic-computer-tool.js";
import { toAnthropicTools } from "./to-anthropic-tools.js";

const allow = () => true;

describe("Anthropic's native computer tool", () => {
  it("is declared with the screenshot size the tool returns, only when the host asks", () => {
    const { computer } = recordingComputer();
    expect(toAnthropicComputerTool(computer)).toEqual({
      type: "computer_20250124",
      name: "computer",
      display_width_px: 1024,
      display_height_px: 640,
    });
    expect(toAnthropicComputerTool(computer, { version: "computer_20251124" })).toMatchObject({
      type: "computer_20251124",
      enable_zoom: true,
    });
    const plain = toAnthropicTools([echoTool, computer]);
    expect(plain[1]).toMatchObject({ name: "computer", input_schema: { type: "object" } });
    const native = toAnthropicTools([echoTool, computer], { nativeComputerTool: true });
    expect(native[0]).toMatchObject({ name: "echo" });
    expect(native[1]).toEqual(toAnthropicComputerTool(computer));
    expect(() => toAnthropicComputerTool(echoTool)).toThrow(/not a computer tool/);
    expect(() => toAnthropicComputerTool(computer.withOverrides({ name: "screen" }))).toThrow(
      /always named "computer"/,
    );
    expect(() => toAnthropicTools([echoTool], { nativeComputerTool: true })).toThrow(
      /exactly one computer tool/,
    );
  });

  it("maps the keys of key and hold_key from text, and back", () => {
    expect(fromAnthropicComputerInput({ action: "key", text: "ctrl+s" })).toEqual({
      action: "key",
      key: "ctrl+s",
    });
    expect(
      fromAnthropicComputerInput({ action: "left_click", coordinate: [1, 2], key: "shift" }),
    ).toEqual({
      action: "left_click",
      coordinate: [1, 2],
      text: "shift",
    });
    expect(fromAnthropicComputerInput({ action: "type", text: "hi" })).toEqual({
      action: "type",
      text: "hi",
    });
    expect(fromAnthropicComputerInput("nonsense")).toBe("nonsense");
    expect(toAnthropicComputerInput({ action: "hold_key", key: "shift", duration: 1 })).toEqual({
      action: "hold_key",
      text: "shift",
      duration: 1,
    });
  });

  it("runs each action of a scripted tool_use on the display, in display pixels", async () => {
    const { display, computer } = recordingComputer();
    const dispatcher = createAnthropicToolDispatcher([computer], {
      approve: allow,
      nativeComputerTool: true,
    });
    const script: Array<[Record<string, unknown>, string[]]> = [
      [{ action: "screenshot" }, []],
      [{ action: "mouse_move", coordinate: [100, 100] }, ["move 125,125"]],
      [{ action: "left_click", coordinate: [100, 100] }, ["move 125,125", "click left 1"]],
      [
        { action: "left_click", coordinate: [8, 8], text: "shift" },
        ["move 10,10", "keys down shift", "click left 1", "keys up shift"],
      ],
      [{ action: "right_click", coordinate: [0, 0] }, ["move 0,0", "click right 1"]],
      [{ action: "middle_click" }, ["click middle 1"]],
      [{ action: "double_click", coordinate: [400, 320] }, ["move 500,400", "click left 2"]],
      [{ action: "triple_click", coordinate: [400, 320] }, ["move 500,400", "click left 3"]],
      [
        { action: "left_click_drag", start_coordinate: [0, 0], coordinate: [80, 0] },
        [
          "move 0,0",
          "button left down",
          "move 25,0",
          "move 50,0",
          "move 75,0",
          "move 100,0",
          "button left up",
        ],
      ],
      [{ action: "left_mouse_down", coordinate: [8, 0] }, ["move 10,0", "button left down"]],
      [{ action: "left_mouse_up" }, ["button left up"]],
      [
        { action: "scroll", coordinate: [8, 8], scroll_direction: "down", scroll_amount: 2 },
        ["move 10,10", "scroll down 2"],
      ],
      [{ action: "key", text: "ctrl+s" }, ["keys press ctrl+s"]],
      [{ action: "hold_key", text: "shift", duration: 0.01 }, ["keys down shift", "keys up shift"]],
      [{ action: "type", text: "hello" }, ["type hello"]],
      [{ action: "wait", duration: 0.01 }, []],
      [{ action: "cursor_position" }, []],
      [{ action: "zoom", region: [0, 0, 512, 320] }, []],
    ];
    for (const [input, calls] of script) {
      const { block, result } = await dispatcher.dispatch({
        type: "tool_use",
        id: "toolu_1",
        name: "computer",
        input,
      });
      expect(result.success, JSON.stringify([input, result])).toBe(true);
      expect(display.take(), JSON.stringify(input)).toEqual(calls);
      if (input.action === "cursor_position") {
        expect(block.content).toMatch(/\(8, 8\)/);
        continue;
      }
      expect(block.content).toEqual([
        { type: "text", text: expect.stringContaining("screenshot 1024×640 (scale 0.8)") },
        { type: "image", source: { type: "base64", media_type: "image/png", data: PIXEL_PNG } },
      ]);
    }
  });

  it("asks the host's approve for every call: a denied left_click clicks nothing", async () => {
    const { display, computer } = recordingComputer();
    const asked: unknown[] = [];
    const dispatcher = createAnthropicToolDispatcher([computer], {
      nativeComputerTool: true,
      approve: ({ input }) => {
        asked.push(input);
        return (input as { action: string }).action !== "left_click";
      },
    });
    const denied = await dispatcher.dispatch({
      type: "tool_use",
      id: "toolu_2",
      name: "computer",
      input: { action: "left_click", coordinate: [100, 100] },
    });
    expect(denied.block.is_error).toBe(true);
    expect(denied.block.content).toMatch(/^Error \[BLOCKED\]/);
    expect(display.calls).toEqual([]);
    const allowed = await dispatcher.dispatch({
      type: "tool_use",
      id: "toolu_3",
      name: "computer",
      input: { action: "key", text: "Return" },
    });
    expect(allowed.result.success).toBe(true);
    expect(display.take()).toEqual(["keys press Return"]);
    expect(asked).toEqual([
      { action: "left_click", coordinate: [100, 100] },
      { action: "key", key: "Return" },
    ]);
    // Without approve and without allowDestructive, the computer tool never runs.
    const undecided = createAnthropicToolDispatcher([computer], { nativeComputerTool: true });
    const refused = await undecided.dispatch({
      type: "tool_use",
      id: "toolu_4",
      name: "computer",
      input: { action: "screenshot" },
    });
    expect(refused.result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    expect(display.calls).toEqual([]);
  });
});
