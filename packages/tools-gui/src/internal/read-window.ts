import {
  formatCount,
  formatPageMarker,
  formatTruncationMarker,
  isOffsetPastEnd,
  offsetPastEnd,
  ToolFailureError,
} from "@agentool/contract";
import type { AccessibilityReader, AccessibleElement, DisplayRegion } from "../computer-display.js";
import type { WindowElement } from "../window-element.js";
import { type Scaling, toModel } from "./scaling.js";

/** What `read_window` adds to the tool's data. */
export interface WindowReading {
  window_title: string;
  application: string;
  window_focused: boolean;
  other_windows: string[];
  elements: WindowElement[];
  total?: number;
  total_at_least?: number;
  next_offset?: number;
  truncated: boolean;
}

/** The caps of one `read_window` page. */
export interface WindowLimits {
  /** Most elements on a page. */
  maxElements: number;
  /** Most characters of element lines on a page. */
  maxCharacters: number;
}

function modelBox(
  scaling: Scaling,
  region: DisplayRegion,
): Pick<WindowElement, "box" | "center" | "off_screen"> {
  const left = Math.max(0, region.x);
  const top = Math.max(0, region.y);
  const right = Math.min(scaling.displayWidth, region.x + region.width);
  const bottom = Math.min(scaling.displayHeight, region.y + region.height);
  if (right <= left || bottom <= top) return { off_screen: true };
  const across = scaling.modelWidth / scaling.displayWidth;
  const down = scaling.modelHeight / scaling.displayHeight;
  const middle = toModel(
    scaling,
    Math.floor((left + right - 1) / 2),
    Math.floor((top + bottom - 1) / 2),
  );
  return {
    box: [
      Math.floor(left * across),
      Math.floor(top * down),
      Math.min(scaling.modelWidth, Math.ceil(right * across)),
      Math.min(scaling.modelHeight, Math.ceil(bottom * down)),
    ],
    center: [middle.x, middle.y],
  };
}

function toWindowElement(scaling: Scaling, element: AccessibleElement): WindowElement {
  return {
    depth: element.depth,
    role: element.role,
    name: element.name,
    ...(element.value === undefined ? {} : { value: element.value }),
    ...(element.valueTruncated === true ? { value_truncated: true } : {}),
    states: element.states,
    ...(element.box === undefined ? {} : modelBox(scaling, element.box)),
  };
}

/**
 * One element as a line of text: indented by depth, role, name, value, states, where to click.
 *
 * @param element - the element
 * @returns e.g. `  - push button "Apply" at (150, 57) box [120, 42, 180, 72]`
 */
export function formatWindowElement(element: WindowElement): string {
  const parts = [`${"  ".repeat(Math.min(element.depth, 12))}- ${element.role}`];
  if (element.name !== "") parts.push(JSON.stringify(element.name));
  if (element.value !== undefined) {
    parts.push(`value ${JSON.stringify(element.value)}${element.value_truncated ? "…" : ""}`);
  }
  if (element.states.length > 0) parts.push(`(${element.states.join(", ")})`);
  if (element.center !== undefined && element.box !== undefined) {
    parts.push(`at (${element.center.join(", ")}) box [${element.box.join(", ")}]`);
  } else if (element.off_screen === true) parts.push("(off screen)");
  return parts.join(" ");
}

/**
 * Reads the focused window and cuts one page of its elements: at most `maxElements`, and at most
 * `maxCharacters` of their lines; boxes mapped to screenshot pixels.
 *
 * @param reader - the display's accessibility reader
 * @param scaling - the screenshot's scaling
 * @param offset - 1-based position of the first element
 * @param limits - the page's caps
 * @param signal - the call's signal
 * @returns the reading and its summary sentence
 * @throws ToolFailureError `INVALID_INPUT` for an offset past the end, and what the reader reports
 */
export async function readWindow(
  reader: AccessibilityReader,
  scaling: Scaling,
  offset: number,
  limits: WindowLimits,
  signal: AbortSignal,
): Promise<{ reading: WindowReading; summary: string }> {
  const window = await reader.readWindow(signal);
  const all = window.elements;
  if (isOffsetPastEnd(offset, all.length)) {
    const failure = offsetPastEnd({
      tool: "computer",
      offset,
      total: all.length,
      unit: "elements",
    });
    throw new ToolFailureError(failure.error.code, failure.error.message, {
      hint: `${failure.error.hint ?? ""} Keep action="read_window".`.trim(),
    });
  }
  const elements: WindowElement[] = [];
  let characters = 0;
  for (let index = offset - 1; index < all.length && elements.length < limits.maxElements; ) {
    const element = toWindowElement(scaling, all[index] as AccessibleElement);
    const size = formatWindowElement(element).length + 1;
    if (elements.length > 0 && characters + size > limits.maxCharacters) break;
    elements.push(element);
    characters += size;
    index += 1;
  }
  const end = offset - 1 + elements.length;
  const reading: WindowReading = {
    window_title: window.title,
    application: window.application,
    window_focused: window.focused,
    other_windows: window.otherWindows,
    elements,
    truncated: end < all.length || window.incomplete,
  };
  if (window.incomplete) reading.total_at_least = all.length;
  else reading.total = all.length;
  if (end < all.length) reading.next_offset = end + 1;
  const count = `${window.incomplete ? "at least " : ""}${formatCount(all.length)} element${all.length === 1 ? "" : "s"}`;
  const shown =
    elements.length === all.length ? "" : `, ${formatCount(offset)}–${formatCount(end)} shown`;
  const where = window.focused
    ? "focused"
    : "no window has the focus, so this is the first visible one";
  const summary = `Window ${JSON.stringify(window.title)} of ${JSON.stringify(window.application)} (${where}): ${count}${shown}. "at" is the screenshot pixel to click; box is [left, top, right, bottom].`;
  return { reading, summary };
}

/**
 * The text of a `read_window` page: its element lines, the other windows, and the marker naming
 * the next call when elements were left out.
 *
 * @param reading - the page
 * @returns the lines (without the summary)
 */
export function formatWindowReading(reading: WindowReading): string {
  const lines = reading.elements.map(formatWindowElement);
  if (reading.elements.length === 0) {
    lines.push(
      "(no accessible elements: the app exposes none here; take a screenshot to see the window)",
    );
  }
  if (reading.other_windows.length > 0) {
    lines.push(
      `Other windows: ${reading.other_windows.map((title) => JSON.stringify(title)).join(", ")}.`,
    );
  }
  if (reading.next_offset !== undefined) {
    const total = reading.total ?? reading.total_at_least ?? 0;
    lines.push(
      formatPageMarker({
        tool: "computer",
        nextOffset: reading.next_offset,
        omitted: total - (reading.next_offset - 1),
        unit: "elements",
        atLeast: reading.total === undefined,
        args: { action: "read_window" },
      }),
    );
  } else if (reading.truncated) {
    lines.push(
      formatTruncationMarker({
        omitted: 1,
        atLeast: true,
        unit: "elements",
        next: "past the reader's cap; zoom or take a screenshot to see the rest",
      }),
    );
  }
  return lines.join("\n");
}
