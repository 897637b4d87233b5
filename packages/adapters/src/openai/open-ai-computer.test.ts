// OpenAI's computer-use actions: each maps to the computer tool's input, and a scripted
// computer_call runs through the real computer tool on a recording display seam, answered with
// a computer_call_output carrying the screenshot.
import { describe, expect, it } from "vitest";
import { recordingComputer } from "../computer-fixtures.js";
import { echoTool, PIXEL_PNG } from "../test-fixtures.js";
import { createOpenAiToolDispatcher } from "./create-open-ai-tool-dispatcher.js";
import { MAX_COMPUTER_STEPS_PER_CALL } from "./dispatch-open-ai-computer-call.js";
import { fromOpenAiComputerAction } from "./open-ai-computer-action.js";
import type { OpenAiComputerAction, OpenAiComputerCall } from "./open-ai-types.js";
import { toOpenAiComputerTool } from "./to-open-ai-computer-tool.js";

const SCREENSHOT = `data:image/png;base64,${PIXEL_PNG}`;

function call(...actions: OpenAiComputerAction[]): OpenAiComputerCall {
  return actions.length === 1
    ? { type: "computer_call", call_id: "call_1", action: actions[0] as OpenAiComputerAction }
    : { type: "computer_call", call_id: "call_1", actions };
}

describe("OpenAI's computer-use actions", () => {
  it("declares computer_use_preview with the screenshot size the tool returns", () => {
    const { computer } = recordingComputer();
    expect(toOpenAiComputerTool(computer)).toEqual({
      type: "computer_use_preview",
      display_width: 1024,
      display_height: 640,
      environment: "linux",
    });
    expect(() => toOpenAiComputerTool(echoTool)).toThrow(/not a computer tool/);
    expect(() => createOpenAiToolDispatcher([echoTool], { nativeComputerTool: true })).toThrow(
      /exactly one computer tool/,
    );
  });

  it("maps each action to the tool's inputs", () => {
    const cases: Array<[OpenAiComputerAction, unknown]> = [
      [{ type: "screenshot" }, [{ action: "screenshot" }]],
      [
        { type: "click", x: 5, y: 6, button: "left" },
        [{ action: "left_click", coordinate: [5, 6] }],
      ],
      [
        { type: "click", x: 5, y: 6, button: "right" },
        [{ action: "right_click", coordinate: [5, 6] }],
      ],
      [
        { type: "click", x: 5, y: 6, button: "wheel" },
        [{ action: "middle_click", coordinate: [5, 6] }],
      ],
      [
        { type: "click", x: 5, y: 6, button: "left", keys: ["SHIFT"] },
        [{ action: "left_click", coordinate: [5, 6], text: "SHIFT" }],
      ],
      [{ type: "double_click", x: 1, y: 2 }, [{ action: "double_click", coordinate: [1, 2] }]],
      [
        {
          type: "drag",
          path: [
            { x: 1, y: 2 },
            { x: 30, y: 40 },
          ],
        },
        [{ action: "left_click_drag", start_coordinate: [1, 2], coordinate: [30, 40] }],
      ],
      [
        {
          type: "drag",
          path: [
            { x: 1, y: 2 },
            { x: 10, y: 2 },
            { x: 10, y: 20 },
          ],
        },
        [
          { action: "left_mouse_down", coordinate: [1, 2] },
          { action: "mouse_move", coordinate: [10, 2] },
          { action: "left_mouse_up", coordinate: [10, 20] },
        ],
      ],
      [{ type: "keypress", keys: ["CTRL", "A"] }, [{ action: "key", key: "CTRL+a" }]],
      [{ type: "keypress", keys: ["ENTER"] }, [{ action: "key", key: "ENTER" }]],
      [{ type: "move", x: 3, y: 4 }, [{ action: "mouse_move", coordinate: [3, 4] }]],
      [
        { type: "scroll", x: 3, y: 4, scroll_x: 0, scroll_y: 300 },
        [{ action: "scroll", coordinate: [3, 4], scroll_direction: "down", scroll_amount: 3 }],
      ],
      [
        { type: "scroll", x: 3, y: 4, scroll_x: -40, scroll_y: -100 },
        [
          { action: "scroll", coordinate: [3, 4], scroll_direction: "up", scroll_amount: 1 },
          { action: "scroll", coordinate: [3, 4], scroll_direction: "left", scroll_amount: 1 },
        ],
      ],
      [{ type: "type", text: "hi" }, [{ action: "type", text: "hi" }]],
      [{ type: "wait" }, [{ action: "wait", duration: 1 }]],
    ];
    for (const [action, inputs] of cases) {
      expect(fromOpenAiComputerAction(action), JSON.stringify(action)).toEqual({
        success: true,
        data: inputs,
      });
    }
    expect(fromOpenAiComputerAction({ type: "click", x: 1, y: 1, button: "back" })).toMatchObject({
      success: false,
      error: { code: "UNSUPPORTED" },
    });
    expect(fromOpenAiComputerAction({ type: "drag", path: [{ x: 1, y: 1 }] })).toMatchObject({
      success: false,
      error: { code: "INVALID_INPUT" },
    });
    expect(fromOpenAiComputerAction({ type: "teleport" })).toMatchObject({ success: false });
  });

  it("runs a computer_call's actions on the display and answers with the screenshot", async () => {
    const { display, computer } = recordingComputer();
    const dispatcher = createOpenAiToolDispatcher([computer, echoTool], {
      approve: () => true,
      nativeComputerTool: true,
    });
    const clicked = await dispatcher.dispatch(
      call({ type: "click", x: 100, y: 100, button: "left" }),
    );
    expect(clicked.item).toEqual({
      type: "computer_call_output",
      call_id: "call_1",
      output: { type: "computer_screenshot", image_url: SCREENSHOT },
    });
    expect(clicked.result.success).toBe(true);
    expect(display.take()).toEqual(["move 125,125", "click left 1"]);
    const batch = await dispatcher.dispatch(
      call(
        { type: "keypress", keys: ["CTRL", "S"] },
        { type: "type", text: "ok" },
        { type: "scroll", x: 8, y: 8, scroll_x: 0, scroll_y: 200 },
        {
          type: "drag",
          path: [
            { x: 0, y: 0 },
            { x: 8, y: 0 },
            { x: 8, y: 8 },
          ],
        },
      ),
    );
    expect(batch.results).toHaveLength(6);
    expect(batch.item?.output.image_url).toBe(SCREENSHOT);
    expect(display.take()).toEqual([
      "keys press ctrl+s",
      "type ok",
      "move 10,10",
      "scroll down 2",
      "move 0,0",
      "button left down",
      "move 10,0",
      "move 10,10",
      "button left up",
    ]);
    // Function calls still work beside it.
    const echoed = await dispatcher.dispatch({
      type: "function_call",
      call_id: "call_2",
      name: "echo",
      arguments: '{"text":"hi"}',
    });
    expect(echoed.item.output).toBe("hi");
  });

  it("refuses a computer_call of more steps than one call runs, doing nothing", async () => {
    const { display, computer } = recordingComputer();
    const dispatcher = createOpenAiToolDispatcher([computer], {
      approve: () => true,
      nativeComputerTool: true,
    });
    const path = Array.from({ length: MAX_COMPUTER_STEPS_PER_CALL + 1 }, (_, index) => ({
      x: index,
      y: 0,
    }));
    const refused = await dispatcher.dispatch(call({ type: "drag", path }));
    expect(refused.result).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(refused.results).toEqual([]);
    expect(display.take()).toEqual([]);
    expect(refused.item?.output.image_url).toBe(SCREENSHOT);
  });

  it("asks approve per action: a denied click clicks nothing and the answer shows the screen", async () => {
    const { display, computer } = recordingComputer();
    const dispatcher = createOpenAiToolDispatcher([computer], {
      nativeComputerTool: true,
      approve: ({ input }) => (input as { action: string }).action !== "left_click",
    });
    const denied = await dispatcher.dispatch(
      call({ type: "move", x: 4, y: 4 }, { type: "click", x: 100, y: 100, button: "left" }),
    );
    expect(denied.result).toMatchObject({ success: false, error: { code: "BLOCKED" } });
    expect(display.take()).toEqual(["move 5,5"]);
    expect(denied.item?.output.image_url).toBe(SCREENSHOT); // the screen as it is after the refusal
  });

  it("stops at a failure, releases a button a drag left down, and refuses computer calls unless enabled", async () => {
    const { display, computer } = recordingComputer();
    const dispatcher = createOpenAiToolDispatcher([computer], {
      nativeComputerTool: true,
      allowDestructive: true,
    });
    const failed = await dispatcher.dispatch(
      call(
        {
          type: "drag",
          path: [
            { x: 0, y: 0 },
            { x: 5000, y: 0 },
            { x: 8, y: 8 },
          ],
        },
        { type: "type", text: "never" },
      ),
    );
    expect(failed.result).toMatchObject({ success: false, error: { code: "INVALID_INPUT" } });
    expect(display.take()).toEqual(["move 0,0", "button left down", "button left up"]);
    const plain = createOpenAiToolDispatcher([computer], { allowDestructive: true });
    await expect(plain.dispatch(call({ type: "screenshot" }))).rejects.toThrow(
      /nativeComputerTool/,
    );
  });
});
