import {
  AgentoolError,
  defineTool,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolContent,
  type ToolOptions,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import { COMPUTER_ACTIONS, type ComputerAction, READ_WINDOW_ACTION } from "./computer-actions.js";
import type { ComputerDisplay } from "./computer-display.js";
import { formatWindowReading, readWindow, type WindowReading } from "./internal/read-window.js";
import { runAction } from "./internal/run-action.js";
import { scalingFor } from "./internal/scaling.js";
import type { WindowElement } from "./window-element.js";

/** The default name of the computer-use tool. */
export const COMPUTER_TOOL_NAME = "computer";

/**
 * The tag that states the screenshot size (the space of every coordinate) as
 * `gui:screenshot-size:<width>x<height>`; `@agentool/adapters` reads it to declare the tool as a
 * provider's native computer-use tool of that size.
 */
export const SCREENSHOT_SIZE_TAG_PREFIX = "gui:screenshot-size:";

/** Default box the screenshot is scaled down to fit: 1280×800 (WXGA, Anthropic's recommended size for 16:10). */
export const DEFAULT_MAX_SCREENSHOT_WIDTH = 1280;
/** Default height of the box the screenshot is scaled down to fit. */
export const DEFAULT_MAX_SCREENSHOT_HEIGHT = 800;
/** Default cap on `type`'s text, in characters. */
export const DEFAULT_MAX_TEXT_CHARACTERS = 1_000;
/** Default cap on `wait` and `hold_key`'s duration, in seconds. */
export const DEFAULT_MAX_WAIT_SECONDS = 10;
/** Default cap on `scroll_amount`. */
export const DEFAULT_MAX_SCROLL_AMOUNT = 30;
/** Default pause before the screenshot that follows an input action, in milliseconds. */
export const DEFAULT_SETTLE_MS = 300;
/** Default cap on the elements one `read_window` call returns. */
export const DEFAULT_MAX_WINDOW_ELEMENTS = 150;
/** Default cap on the characters of the element lines one `read_window` call returns. */
export const DEFAULT_MAX_WINDOW_CHARACTERS = 8_000;
/** Default time a call may take before it is stopped with `TIMEOUT`. */
export const DEFAULT_COMPUTER_TIMEOUT_MS = 30_000;

/** What the `computer` tool returns. Coordinates are screenshot (model) pixels. */
export interface ComputerToolData {
  /** The action that ran. */
  action: string;
  /** What happened, in a sentence. */
  summary: string;
  /** The display's width in pixels. */
  display_width: number;
  /** The display's height in pixels. */
  display_height: number;
  /** The width of a screenshot: the space every coordinate is in. */
  screenshot_width: number;
  /** The height of a screenshot. */
  screenshot_height: number;
  /** screenshot_width / display_width (1 when the display fits the model's box). */
  scale: number;
  /** The pointer, in screenshot pixels (cursor_position). */
  pointer_x?: number;
  /** The pointer's y, in screenshot pixels (cursor_position). */
  pointer_y?: number;
  /** The image (a screenshot, or the zoomed region), base64 PNG. */
  image_base64?: string;
  /** `image/png` when there is an image. */
  mime_type?: string;
  /** The image's width. */
  image_width?: number;
  /** The image's height. */
  image_height?: number;
  /** read_window: the window's title. */
  window_title?: string;
  /** read_window: the application's name. */
  application?: string;
  /** read_window: whether the window has the focus (false: none had it; the first visible one). */
  window_focused?: boolean;
  /** read_window: the titles of the other top-level windows. */
  other_windows?: string[];
  /** read_window: this page of the window's elements, depth first; boxes in screenshot pixels. */
  elements?: WindowElement[];
  /** read_window: elements in the window (exact). */
  total?: number;
  /** read_window: a lower bound on the elements, when the reader stopped at its cap. */
  total_at_least?: number;
  /** read_window: the `offset` of the next page. */
  next_offset?: number;
  /** read_window: whether elements were left out. */
  truncated?: boolean;
}

/** Options of {@link createComputerTool}. */
export interface ComputerToolOptions extends ToolOptions {
  /** The display to drive (`startXvfbDisplay` / `connectX11Display` from `@agentool/tools-gui/node`). Required. */
  display: ComputerDisplay;
  /** Widest screenshot the model gets; the display is scaled down (never up) to fit. Default 1280. */
  maxScreenshotWidth?: number;
  /** Tallest screenshot the model gets. Default 800. */
  maxScreenshotHeight?: number;
  /** Cap on `type`'s text, in characters. Default 1,000. */
  maxTextCharacters?: number;
  /** Cap on `wait` / `hold_key` durations, in seconds. Default 10. */
  maxWaitSeconds?: number;
  /** Cap on `scroll_amount`. Default 30. */
  maxScrollAmount?: number;
  /** Whether input actions return a screenshot taken after them. Default true. */
  screenshotAfterAction?: boolean;
  /** Pause before that screenshot, so the app can redraw, in milliseconds. Default 300. */
  settleMs?: number;
  /** read_window (a display with accessibility): most elements per call. Default 150. */
  maxWindowElements?: number;
  /** read_window: most characters of element lines per call. Default 8,000. */
  maxWindowCharacters?: number;
}

const optionsSchema = z.object({
  ...toolOptionsShape,
  display: z.custom<ComputerDisplay>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as ComputerDisplay).capture === "function" &&
      Number.isInteger((value as ComputerDisplay).width) &&
      Number.isInteger((value as ComputerDisplay).height),
    "display must be a ComputerDisplay (from startXvfbDisplay or connectX11Display)",
  ),
  maxScreenshotWidth: z.number().int().min(64).max(8192).optional(),
  maxScreenshotHeight: z.number().int().min(64).max(8192).optional(),
  maxTextCharacters: z.number().int().min(1).max(100_000).optional(),
  maxWaitSeconds: z.number().min(0).max(600).optional(),
  maxScrollAmount: z.number().int().min(1).max(1_000).optional(),
  screenshotAfterAction: z.boolean().optional(),
  settleMs: z.number().int().min(0).max(10_000).optional(),
  maxWindowElements: z.number().int().min(1).max(1_000).optional(),
  maxWindowCharacters: z.number().int().min(200).max(200_000).optional(),
});

const point = (what: string) => z.array(z.number()).length(2).optional().describe(what);

const ACTION_HELP =
  "What to do. screenshot: see the screen. Clicks, mouse_move, left_mouse_down/up take coordinate (or act at the pointer). left_click_drag: start_coordinate to coordinate. scroll: scroll_direction, scroll_amount. key / hold_key: key. type: text. wait / hold_key: duration. cursor_position. zoom: region.";
const READ_WINDOW_HELP =
  " read_window: the focused window's controls as text (role, name, value, state, the point to click); offset pages.";

const inputFields = {
  coordinate: point("[x, y] in screenshot pixels (0,0 is the top-left of the latest screenshot)."),
  start_coordinate: point("left_click_drag: [x, y] where the drag starts, in screenshot pixels."),
  text: z
    .string()
    .optional()
    .describe(
      'type: the text to type (typed as keystrokes, never run). Clicks and scroll: modifier keys to hold, e.g. "shift" or "ctrl".',
    ),
  key: z
    .string()
    .optional()
    .describe(
      'key / hold_key: X key names, + for a combination, spaces for a sequence: "Return", "ctrl+s", "alt+Tab", "Down Down Return".',
    ),
  scroll_direction: z
    .enum(["up", "down", "left", "right"])
    .optional()
    .describe("scroll: which way."),
  scroll_amount: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe("scroll: how many wheel clicks (default 3)."),
  duration: z.number().min(0).max(600).optional().describe("wait / hold_key: seconds (default 1)."),
  region: z
    .array(z.number())
    .length(4)
    .optional()
    .describe(
      "zoom: [x0, y0, x1, y1], the top-left and bottom-right corners in screenshot pixels.",
    ),
};

/**
 * The `computer` tool's input schema with every action. A tool whose display reads no
 * accessibility text offers neither `read_window` nor `offset`.
 */
export const computerInputSchema = z.object({
  action: z
    .enum([...COMPUTER_ACTIONS, READ_WINDOW_ACTION])
    .describe(ACTION_HELP + READ_WINDOW_HELP),
  ...inputFields,
  offset: pagingInputShape({
    unit: "element",
    defaultLimit: DEFAULT_MAX_WINDOW_ELEMENTS,
    maxLimit: 1_000,
    offsetDescription:
      "read_window: 1-based position of the first element (default 1); a cut result names the next offset.",
  }).offset,
});

/** The schema of a tool without accessibility: Anthropic's actions only. */
const plainInputSchema = z.object({
  action: z.enum(COMPUTER_ACTIONS).describe(ACTION_HELP),
  ...inputFields,
});

/** The computer-use tool's type. */
export type ComputerTool = Tool<typeof computerInputSchema, ComputerToolData>;

function defaultDescription(
  width: number,
  height: number,
  scale: number,
  accessible: boolean,
): string {
  const size =
    scale === 1 ? `${width}×${height}` : `${width}×${height} (the screen scaled by ${scale})`;
  return [
    `Sees and drives a graphical desktop with the mouse and keyboard. Screenshots are ${size}; every coordinate is a pixel of the latest screenshot.`,
    "Start with a screenshot, then act and check the screenshot that comes back after each action before the next one.",
    "Click the centre of a control; click a field before typing into it; use key for Return, Tab, shortcuts (ctrl+s); zoom to read small text.",
    ...(accessible
      ? [
          "read_window lists the focused window's controls with their values, states and the point to click: cheaper than a screenshot to find a field or read its text.",
        ]
      : []),
    "It can do anything a user at this screen can, so act only as the task needs. It has no clipboard or file access.",
  ].join(" ");
}

/**
 * Renders a `computer` result: the summary with the screen and scale, then the image.
 *
 * @param data - the tool's data
 * @returns text, or a text block and an image block
 * @example
 * formatComputerResult(result.data);
 * // [{ type: "text", text: "left click at (512, 300). Screen 1920×1080, screenshot 1280×720 (scale 0.6667)." }, { type: "image", … }]
 */
export function formatComputerResult(data: ComputerToolData): ToolContent {
  const screen =
    data.scale === 1
      ? `Screen ${data.display_width}×${data.display_height} (scale 1).`
      : `Screen ${data.display_width}×${data.display_height}, screenshot ${data.screenshot_width}×${data.screenshot_height} (scale ${data.scale}).`;
  const text = `${data.summary} ${screen}`;
  if (data.elements !== undefined) {
    return `${text}\n${formatWindowReading(data as ComputerToolData & WindowReading)}`;
  }
  if (data.image_base64 === undefined) return text;
  return [
    { type: "text", text },
    { type: "image", data: data.image_base64, mimeType: data.mime_type ?? "image/png" },
  ];
}

/**
 * Creates the `computer` tool: Anthropic's computer-use actions (screenshot, clicks, drag, scroll,
 * key, type, wait, cursor_position, zoom) on one display. Screenshots are scaled down to fit the
 * model's box and every coordinate the model sends is mapped back to the display exactly; one
 * outside the screenshot is refused with the valid range. Input actions return the screenshot
 * taken after them. Destructive by annotation: hosts should gate it with an approval hook.
 *
 * @param options - the display (required), the screenshot box, caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * import { startXvfbDisplay } from "@agentool/tools-gui/node";
 * const display = await startXvfbDisplay({ width: 1280, height: 800, app: { command: "xterm" } });
 * const computer = createComputerTool({ display });
 * await computer.run({ action: "screenshot" });
 * await display.close();
 */
export function createComputerTool(options: ComputerToolOptions): ComputerTool {
  const parsed = parseOptions("createComputerTool", optionsSchema, options);
  const display = parsed.display as ComputerDisplay;
  if (display.width < 1 || display.height < 1) {
    throw new AgentoolError("createComputerTool: the display has no size.");
  }
  const settings = {
    maxWidth: parsed.maxScreenshotWidth ?? DEFAULT_MAX_SCREENSHOT_WIDTH,
    maxHeight: parsed.maxScreenshotHeight ?? DEFAULT_MAX_SCREENSHOT_HEIGHT,
    maxTextCharacters: parsed.maxTextCharacters ?? DEFAULT_MAX_TEXT_CHARACTERS,
    maxWaitSeconds: parsed.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS,
    maxScrollAmount: parsed.maxScrollAmount ?? DEFAULT_MAX_SCROLL_AMOUNT,
    screenshotAfterAction: parsed.screenshotAfterAction ?? true,
    settleMs: parsed.settleMs ?? DEFAULT_SETTLE_MS,
  };
  const windowLimits = {
    maxElements: parsed.maxWindowElements ?? DEFAULT_MAX_WINDOW_ELEMENTS,
    maxCharacters: parsed.maxWindowCharacters ?? DEFAULT_MAX_WINDOW_CHARACTERS,
  };
  const reader = display.accessibility;
  const scaling = scalingFor(display.width, display.height, settings.maxWidth, settings.maxHeight);
  const windowScaling = scaling;
  return defineTool({
    name: parsed.name ?? COMPUTER_TOOL_NAME,
    description:
      parsed.description ??
      defaultDescription(
        scaling.modelWidth,
        scaling.modelHeight,
        scaling.scale,
        reader !== undefined,
      ),
    // Without a reader the model is not offered read_window (nor offset); the narrower schema's
    // input is a subset of the full one's.
    input: (reader === undefined
      ? plainInputSchema
      : computerInputSchema) as unknown as typeof computerInputSchema,
    timeoutMs: parsed.timeoutMs ?? DEFAULT_COMPUTER_TIMEOUT_MS,
    annotations: { title: "Use the computer", destructive: true, openWorld: false },
    tags: [
      "gui",
      "gui:computer",
      `${SCREENSHOT_SIZE_TAG_PREFIX}${scaling.modelWidth}x${scaling.modelHeight}`,
    ],
    execute: async (request, context) => {
      if (request.action === READ_WINDOW_ACTION && reader !== undefined) {
        const window = await readWindow(
          reader,
          windowScaling,
          request.offset ?? 1,
          windowLimits,
          context.signal,
        );
        return ok({
          action: request.action,
          summary: window.summary,
          display_width: windowScaling.displayWidth,
          display_height: windowScaling.displayHeight,
          screenshot_width: windowScaling.modelWidth,
          screenshot_height: windowScaling.modelHeight,
          scale: windowScaling.scale,
          ...window.reading,
        });
      }
      const outcome = await runAction(
        display,
        { ...request, action: request.action as ComputerAction },
        settings,
        context.signal,
      );
      const { scaling } = outcome;
      const data: ComputerToolData = {
        action: request.action,
        summary: outcome.summary,
        display_width: scaling.displayWidth,
        display_height: scaling.displayHeight,
        screenshot_width: scaling.modelWidth,
        screenshot_height: scaling.modelHeight,
        scale: scaling.scale,
        ...(outcome.pointer === undefined
          ? {}
          : { pointer_x: outcome.pointer.x, pointer_y: outcome.pointer.y }),
        ...(outcome.image === undefined
          ? {}
          : {
              image_base64: outcome.image.base64,
              mime_type: "image/png",
              image_width: outcome.image.width,
              image_height: outcome.image.height,
            }),
      };
      return ok(data);
    },
    render: formatComputerResult,
  });
}
