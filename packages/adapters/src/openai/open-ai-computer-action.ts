import { fail, ok, type ToolResult } from "@agentool/contract";
import type { ComputerToolInput } from "../internal/computer-tool.js";
import type { OpenAiComputerAction } from "./open-ai-types.js";

/** Pixels of an OpenAI `scroll_x` / `scroll_y` per wheel click of the `computer` tool. */
export const OPENAI_SCROLL_PIXELS_PER_CLICK = 100;

const CLICK_ACTIONS: Readonly<Record<string, string>> = {
  left: "left_click",
  right: "right_click",
  wheel: "middle_click",
  middle: "middle_click",
};

/** A key as the model named it, as the `computer` tool's key syntax (which maps ENTER, CTRL, …). */
function keyName(key: string): string {
  const name = key.replace(/\s+/g, "");
  if (key === " ") return "space";
  if (name === "+") return "plus";
  // "A" would be typed with shift; OpenAI's models send upper-case letters for plain keys.
  if (/^[A-Za-z]$/.test(name)) return name.toLowerCase();
  return name;
}

function chord(keys: readonly string[] | null | undefined): string | undefined {
  if (keys === undefined || keys === null || keys.length === 0) return undefined;
  return keys.map(keyName).join("+");
}

function point(action: OpenAiComputerAction): [number, number] | undefined {
  return typeof action.x === "number" && typeof action.y === "number"
    ? [action.x, action.y]
    : undefined;
}

function invalid(message: string): ToolResult<ComputerToolInput[]> {
  return fail("INVALID_INPUT", message, {
    hint: "Send one of click, double_click, drag, keypress, move, scroll, type, wait or screenshot with its fields.",
  });
}

function withPoint(
  action: OpenAiComputerAction,
  make: (at: [number, number]) => ComputerToolInput[],
): ToolResult<ComputerToolInput[]> {
  const at = point(action);
  return at === undefined ? invalid(`${action.type} needs numbers x and y.`) : ok(make(at));
}

function scrollInputs(action: OpenAiComputerAction, at: [number, number]): ComputerToolInput[] {
  const modifiers = chord(action.keys);
  const inputs: ComputerToolInput[] = [];
  for (const [pixels, negative, positive] of [
    [action.scroll_y ?? 0, "up", "down"],
    [action.scroll_x ?? 0, "left", "right"],
  ] as const) {
    if (pixels === 0) continue;
    inputs.push({
      action: "scroll",
      coordinate: at,
      scroll_direction: pixels < 0 ? negative : positive,
      scroll_amount: Math.max(1, Math.round(Math.abs(pixels) / OPENAI_SCROLL_PIXELS_PER_CLICK)),
      ...(modifiers === undefined ? {} : { text: modifiers }),
    });
  }
  // A scroll of 0 by 0 still moves the pointer there, as the model expects.
  return inputs.length > 0 ? inputs : [{ action: "mouse_move", coordinate: at }];
}

function dragInputs(action: OpenAiComputerAction): ToolResult<ComputerToolInput[]> {
  const path = action.path ?? [];
  if (
    path.length < 2 ||
    !path.every((step) => Number.isFinite(step?.x) && Number.isFinite(step?.y))
  ) {
    return invalid("drag needs a path of at least two { x, y } points.");
  }
  const points = path.map((step): [number, number] => [step.x, step.y]);
  const first = points[0] as [number, number];
  const last = points[points.length - 1] as [number, number];
  if (points.length === 2) {
    return ok([{ action: "left_click_drag", start_coordinate: first, coordinate: last }]);
  }
  return ok([
    { action: "left_mouse_down", coordinate: first },
    ...points
      .slice(1, -1)
      .map((at): ComputerToolInput => ({ action: "mouse_move", coordinate: at })),
    { action: "left_mouse_up", coordinate: last },
  ]);
}

/**
 * Maps one OpenAI computer-use action (Responses API `computer_call`) to the `computer` tool's
 * inputs, run in order: click {x, y, button} → left/right/middle_click (modifier `keys` held),
 * double_click → double_click, drag {path} → left_click_drag (or button down, moves, up for a
 * longer path), keypress {keys} → key "ctrl+s", move → mouse_move, scroll {x, y, scroll_x,
 * scroll_y} → scroll by wheel clicks of {@link OPENAI_SCROLL_PIXELS_PER_CLICK} pixels (vertical,
 * then horizontal), type → type, wait → wait (1 s), screenshot → screenshot. Coordinates are
 * screenshot pixels on both sides. Never throws: an action it cannot map is a failure envelope.
 *
 * @param action - the call's `action` (or one of its `actions`)
 * @returns the tool inputs, or `INVALID_INPUT` / `UNSUPPORTED` naming what is wrong
 * @example
 * fromOpenAiComputerAction({ type: "keypress", keys: ["CTRL", "S"] });
 * // { success: true, data: [{ action: "key", key: "ctrl+s" }] }
 */
export function fromOpenAiComputerAction(
  action: OpenAiComputerAction,
): ToolResult<ComputerToolInput[]> {
  if (typeof action !== "object" || action === null || typeof action.type !== "string") {
    return invalid("The computer action has no type.");
  }
  const modifiers = chord(action.keys);
  const holding = modifiers === undefined ? {} : { text: modifiers };
  switch (action.type) {
    case "click": {
      const button = action.button ?? "left";
      const click = CLICK_ACTIONS[button];
      if (click === undefined) {
        return fail(
          "UNSUPPORTED",
          `click with the ${button} button is not supported on this display.`,
          {
            hint: "Use the left, right or wheel button, or a key such as alt+Left to go back.",
          },
        );
      }
      return withPoint(action, (at) => [{ action: click, coordinate: at, ...holding }]);
    }
    case "double_click":
      return withPoint(action, (at) => [{ action: "double_click", coordinate: at, ...holding }]);
    case "move":
    case "drag":
      if (modifiers !== undefined) {
        return fail("UNSUPPORTED", `${action.type} with keys held is not supported.`, {
          hint: "Hold modifier keys only for click, double_click and scroll.",
        });
      }
      return action.type === "move"
        ? withPoint(action, (at) => [{ action: "mouse_move", coordinate: at }])
        : dragInputs(action);
    case "keypress":
      return modifiers === undefined
        ? invalid('keypress needs keys, e.g. ["CTRL", "S"].')
        : ok([{ action: "key", key: modifiers }]);
    case "scroll":
      return withPoint(action, (at) => scrollInputs(action, at));
    case "type":
      return typeof action.text === "string"
        ? ok([{ action: "type", text: action.text }])
        : invalid("type needs text.");
    case "wait":
      return ok([{ action: "wait", duration: 1 }]);
    case "screenshot":
      return ok([{ action: "screenshot" }]);
    default:
      return invalid(`${JSON.stringify(action.type)} is not a computer action.`);
  }
}
