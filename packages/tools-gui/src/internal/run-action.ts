import { formatCount, sleep, ToolFailureError } from "@agentool/contract";
import type { ComputerAction } from "../computer-actions.js";
import type { ComputerDisplay, DisplayRegion, MouseButton } from "../computer-display.js";
import { parseKeys } from "./keys.js";
import { type Scaling, scalingFor, toDisplay, toModel } from "./scaling.js";

/** A call's input, as the tool's schema parses it. */
export interface ActionRequest {
  action: ComputerAction;
  coordinate?: number[] | undefined;
  start_coordinate?: number[] | undefined;
  text?: string | undefined;
  key?: string | undefined;
  scroll_direction?: "up" | "down" | "left" | "right" | undefined;
  scroll_amount?: number | undefined;
  duration?: number | undefined;
  region?: number[] | undefined;
}

/** The limits and habits of one `computer` tool. */
export interface ActionSettings {
  maxWidth: number;
  maxHeight: number;
  maxTextCharacters: number;
  maxWaitSeconds: number;
  maxScrollAmount: number;
  screenshotAfterAction: boolean;
  settleMs: number;
}

/** What one action did, before the screenshot is added. */
export interface ActionOutcome {
  scaling: Scaling;
  /** What happened, in a sentence (model coordinates). */
  summary: string;
  /** The pointer after the action, in model coordinates, when it was read. */
  pointer?: { x: number; y: number };
  /** The screenshot (or zoomed region) as base64 PNG, when one was taken. */
  image?: { base64: string; width: number; height: number };
}

const CLICKS: Partial<Record<ComputerAction, [MouseButton, number]>> = {
  left_click: ["left", 1],
  right_click: ["right", 1],
  middle_click: ["middle", 1],
  double_click: ["left", 2],
  triple_click: ["left", 3],
};

const TYPE_CHUNK = 50;

function invalid(message: string, hint: string): ToolFailureError {
  return new ToolFailureError("INVALID_INPUT", message, { hint });
}

function pixel(
  scaling: Scaling,
  value: number[] | undefined,
  field: string,
  action: string,
): { x: number; y: number } {
  const range = `x 0–${scaling.modelWidth - 1}, y 0–${scaling.modelHeight - 1}`;
  if (value === undefined) {
    throw invalid(`${action} needs ${field}: [x, y] in screenshot pixels.`, `Valid: ${range}.`);
  }
  const [x = Number.NaN, y = Number.NaN] = value.map(Math.round);
  if (!(x >= 0 && x < scaling.modelWidth && y >= 0 && y < scaling.modelHeight)) {
    throw invalid(
      `${field} [${value.join(", ")}] is outside the screen; valid: ${range} (the screenshot is ${scaling.modelWidth}×${scaling.modelHeight}).`,
      "Take a screenshot and use coordinates inside it.",
    );
  }
  return { x, y };
}

function capDuration(seconds: number | undefined, settings: ActionSettings, action: string) {
  const value = seconds ?? 1;
  if (value > settings.maxWaitSeconds) {
    throw invalid(
      `duration ${value} s is longer than the limit for ${action}, ${settings.maxWaitSeconds} s.`,
      `Use at most ${settings.maxWaitSeconds} seconds; call again to wait longer.`,
    );
  }
  return Math.round(value * 1000);
}

/** Holds `modifiers` (a key string such as "shift") around `work`, always releasing them. */
async function withModifiers(
  display: ComputerDisplay,
  modifiers: string | undefined,
  signal: AbortSignal,
  work: () => Promise<void>,
): Promise<string> {
  if (modifiers === undefined || modifiers.trim().length === 0) {
    await work();
    return "";
  }
  const chords = parseKeys(modifiers);
  await display.keys(chords, "down", signal);
  try {
    await work();
  } finally {
    await display.keys(chords, "up", new AbortController().signal);
  }
  return ` holding ${modifiers.trim()}`;
}

function zoomRegion(scaling: Scaling, region: number[] | undefined): DisplayRegion {
  const range = `0–${scaling.modelWidth} × 0–${scaling.modelHeight}`;
  if (region === undefined || region.length !== 4) {
    throw invalid(
      "zoom needs region: [x0, y0, x1, y1], the top-left and bottom-right corners in screenshot pixels.",
      `Valid corners lie in ${range}.`,
    );
  }
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = region.map(Math.round);
  if (!(x0 >= 0 && y0 >= 0 && x1 <= scaling.modelWidth && y1 <= scaling.modelHeight)) {
    throw invalid(
      `region [${region.join(", ")}] is outside the screen; valid corners lie in ${range}.`,
      "Take a screenshot and pick a region inside it.",
    );
  }
  if (!(x1 > x0 && y1 > y0)) {
    throw invalid(
      `region [${region.join(", ")}] is empty: x1 must be greater than x0 and y1 greater than y0.`,
      "Send the top-left corner first, then the bottom-right one.",
    );
  }
  const left = Math.floor((x0 * scaling.displayWidth) / scaling.modelWidth);
  const top = Math.floor((y0 * scaling.displayHeight) / scaling.modelHeight);
  const right = Math.ceil((x1 * scaling.displayWidth) / scaling.modelWidth);
  const bottom = Math.ceil((y1 * scaling.displayHeight) / scaling.modelHeight);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

async function zoom(
  display: ComputerDisplay,
  scaling: Scaling,
  request: ActionRequest,
  settings: ActionSettings,
  signal: AbortSignal,
): Promise<ActionOutcome> {
  const region = zoomRegion(scaling, request.region);
  // Up to 4× the display's own pixels, to fit the model's box.
  const factor = Math.min(4, settings.maxWidth / region.width, settings.maxHeight / region.height);
  const width = Math.max(1, Math.round(region.width * factor));
  const height = Math.max(1, Math.round(region.height * factor));
  const base64 = await display.capture({ region, width, height }, signal);
  const corners = (request.region ?? []).map(Math.round).join(", ");
  return {
    scaling,
    summary: `Zoomed into [${corners}] (display pixels ${region.x},${region.y} ${region.width}×${region.height}), shown at ${width}×${height}; coordinates in this image are not screen coordinates.`,
    image: { base64, width, height },
  };
}

/** Runs the input part of an action; returns the summary sentence. */
async function act(
  display: ComputerDisplay,
  scaling: Scaling,
  request: ActionRequest,
  settings: ActionSettings,
  signal: AbortSignal,
): Promise<string> {
  const { action } = request;
  const at = (field: "coordinate" | "start_coordinate") => {
    const model = pixel(scaling, request[field], field, action);
    return { model, display: toDisplay(scaling, model.x, model.y) };
  };
  const where = (point: { model: { x: number; y: number } }) =>
    `(${point.model.x}, ${point.model.y})`;
  const click = CLICKS[action];
  if (click !== undefined) {
    const point = request.coordinate === undefined ? undefined : at("coordinate");
    if (point !== undefined) await display.movePointer(point.display.x, point.display.y, signal);
    const held = await withModifiers(display, request.text, signal, () =>
      display.click(click[0], click[1], signal),
    );
    return `${action.replace("_", " ")}${point === undefined ? " at the pointer" : ` at ${where(point)}`}${held}.`;
  }
  switch (action) {
    case "mouse_move": {
      const point = at("coordinate");
      await display.movePointer(point.display.x, point.display.y, signal);
      return `Moved the pointer to ${where(point)}.`;
    }
    case "left_click_drag": {
      const from = at("start_coordinate");
      const to = at("coordinate");
      await display.movePointer(from.display.x, from.display.y, signal);
      await display.pressButton("left", "down", signal);
      try {
        // Intermediate motion, so toolkits that track the drag (sliders, selections) see it.
        for (const step of [0.25, 0.5, 0.75, 1]) {
          const x = Math.round(from.display.x + (to.display.x - from.display.x) * step);
          const y = Math.round(from.display.y + (to.display.y - from.display.y) * step);
          await display.movePointer(x, y, signal);
        }
      } finally {
        await display.pressButton("left", "up", new AbortController().signal);
      }
      return `Dragged from ${where(from)} to ${where(to)}.`;
    }
    case "left_mouse_down":
    case "left_mouse_up": {
      const point = request.coordinate === undefined ? undefined : at("coordinate");
      if (point !== undefined) await display.movePointer(point.display.x, point.display.y, signal);
      const state = action === "left_mouse_down" ? "down" : "up";
      await display.pressButton("left", state, signal);
      return `Left button ${state}${point === undefined ? "" : ` at ${where(point)}`}.`;
    }
    case "scroll": {
      const direction = request.scroll_direction;
      if (direction === undefined) {
        throw invalid("scroll needs scroll_direction.", "Send up, down, left or right.");
      }
      const amount = request.scroll_amount ?? 3;
      if (amount > settings.maxScrollAmount) {
        throw invalid(
          `scroll_amount ${amount} is over the limit of ${settings.maxScrollAmount}.`,
          `Scroll at most ${settings.maxScrollAmount} clicks per call and look again.`,
        );
      }
      const point = request.coordinate === undefined ? undefined : at("coordinate");
      if (point !== undefined) await display.movePointer(point.display.x, point.display.y, signal);
      const held = await withModifiers(display, request.text, signal, () =>
        display.scroll(direction, amount, signal),
      );
      return `Scrolled ${direction} ${amount}${point === undefined ? "" : ` at ${where(point)}`}${held}.`;
    }
    case "key": {
      const keys = request.key ?? request.text;
      if (keys === undefined) throw invalid('key needs key, e.g. "ctrl+s".', "Send key.");
      await display.keys(parseKeys(keys), "press", signal);
      return `Pressed ${keys.trim()}.`;
    }
    case "hold_key": {
      const keys = request.key ?? request.text;
      if (keys === undefined) throw invalid('hold_key needs key, e.g. "shift".', "Send key.");
      const milliseconds = capDuration(request.duration, settings, action);
      const chords = parseKeys(keys);
      await display.keys(chords, "down", signal);
      try {
        await sleep(milliseconds, signal);
      } finally {
        await display.keys(chords, "up", new AbortController().signal);
      }
      return `Held ${keys.trim()} for ${milliseconds / 1000} s.`;
    }
    case "type": {
      const text = request.text;
      if (text === undefined || text.length === 0) {
        throw invalid("type needs text.", "Send the text to type in text.");
      }
      if (text.length > settings.maxTextCharacters) {
        throw invalid(
          `text is ${formatCount(text.length)} characters; the limit per call is ${formatCount(settings.maxTextCharacters)}.`,
          "Type it in several calls.",
        );
      }
      for (let start = 0; start < text.length; start += TYPE_CHUNK) {
        await display.type(text.slice(start, start + TYPE_CHUNK), signal);
      }
      return `Typed ${formatCount(text.length)} characters.`;
    }
    case "wait": {
      const milliseconds = capDuration(request.duration, settings, action);
      await sleep(milliseconds, signal);
      return `Waited ${milliseconds / 1000} s.`;
    }
    default:
      throw new ToolFailureError("UNSUPPORTED", `Action ${action} is not an input action.`);
  }
}

/**
 * Runs one `computer` action on a display: checks every coordinate against the screenshot's
 * size, maps it to the display, acts, and takes the screenshot the model sees next.
 *
 * @param display - the display
 * @param request - the parsed input
 * @param settings - the tool's limits
 * @param signal - the call's signal
 * @returns what happened
 * @throws ToolFailureError for input the display cannot take (`INVALID_INPUT`) and what the display reports
 */
export async function runAction(
  display: ComputerDisplay,
  request: ActionRequest,
  settings: ActionSettings,
  signal: AbortSignal,
): Promise<ActionOutcome> {
  const scaling = scalingFor(display.width, display.height, settings.maxWidth, settings.maxHeight);
  const screenshot = async () => ({
    base64: await display.capture(
      { width: scaling.modelWidth, height: scaling.modelHeight },
      signal,
    ),
    width: scaling.modelWidth,
    height: scaling.modelHeight,
  });
  if (request.action === "zoom") return zoom(display, scaling, request, settings, signal);
  if (request.action === "screenshot") {
    return { scaling, summary: "Screenshot taken.", image: await screenshot() };
  }
  if (request.action === "cursor_position") {
    const position = await display.pointerPosition(signal);
    const pointer = toModel(scaling, position.x, position.y);
    return { scaling, summary: `The pointer is at (${pointer.x}, ${pointer.y}).`, pointer };
  }
  const summary = await act(display, scaling, request, settings, signal);
  if (!settings.screenshotAfterAction) return { scaling, summary };
  if (settings.settleMs > 0) await sleep(settings.settleMs, signal);
  return { scaling, summary, image: await screenshot() };
}
