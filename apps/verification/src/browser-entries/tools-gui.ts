// @agentool/tools-gui root in the browser: the computer tool on a display a page implements
// itself — a 1280×800 canvas with a red square, input recorded, accessibility text from the page —
// scaled to 1024×640 screenshots; a click at read_window's point for the square lands inside it.
import {
  type AccessibleWindow,
  type CaptureRequest,
  type ComputerDisplay,
  createComputerTool,
} from "@agentool/tools-gui";
import { type BrowserToolCall, callTool } from "./call-tool.js";

const SQUARE = { x: 1000, y: 500, width: 40, height: 40 };

/** A display drawn on a canvas; clicks and typing are recorded in display pixels. */
class CanvasDisplay implements ComputerDisplay {
  readonly width = 1280;
  readonly height = 800;
  readonly clicks: Array<[string, number, number, number]> = [];
  readonly typed: string[] = [];
  readonly #canvas = document.createElement("canvas");
  #pointer = { x: 0, y: 0 };
  readonly accessibility = {
    readWindow: async (): Promise<AccessibleWindow> => ({
      title: "Canvas",
      application: "page",
      focused: true,
      elements: [
        { depth: 0, role: "push button", name: "Red square", states: [], box: { ...SQUARE } },
      ],
      incomplete: false,
      otherWindows: [],
    }),
  };

  constructor() {
    this.#canvas.width = this.width;
    this.#canvas.height = this.height;
    const context = this.#canvas.getContext("2d");
    if (context === null) throw new Error("no 2d context");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, this.width, this.height);
    context.fillStyle = "#ff0000";
    context.fillRect(SQUARE.x, SQUARE.y, SQUARE.width, SQUARE.height);
  }

  async capture(request: CaptureRequest): Promise<string> {
    const region = request.region ?? { x: 0, y: 0, width: this.width, height: this.height };
    const out = document.createElement("canvas");
    out.width = request.width;
    out.height = request.height;
    out
      .getContext("2d")
      ?.drawImage(
        this.#canvas,
        region.x,
        region.y,
        region.width,
        region.height,
        0,
        0,
        request.width,
        request.height,
      );
    return out.toDataURL("image/png").split(",")[1] ?? "";
  }
  async movePointer(x: number, y: number): Promise<void> {
    this.#pointer = { x, y };
  }
  async click(button: string, count: number): Promise<void> {
    this.clicks.push([button, count, this.#pointer.x, this.#pointer.y]);
  }
  async pressButton(): Promise<void> {}
  async scroll(): Promise<void> {}
  async keys(): Promise<void> {}
  async type(text: string): Promise<void> {
    this.typed.push(text);
  }
  async pointerPosition(): Promise<{ x: number; y: number }> {
    return this.#pointer;
  }
}

/**
 * Takes a screenshot, reads the window, clicks the square at the point read_window gave, types,
 * and reads the pointer back.
 *
 * @returns the calls and what the display recorded (display pixels)
 */
export default async function run(): Promise<{
  calls: Record<string, BrowserToolCall>;
  clicks: Array<[string, number, number, number]>;
  typed: string[];
}> {
  const display = new CanvasDisplay();
  const computer = createComputerTool({ display, maxScreenshotWidth: 1024, settleMs: 0 });
  const screenshot = await callTool(computer, { action: "screenshot" });
  const window = await callTool(computer, { action: "read_window" });
  const elements = (window.result as { data?: { elements?: Array<{ center?: number[] }> } }).data
    ?.elements;
  const click = await callTool(computer, {
    action: "left_click",
    coordinate: elements?.[0]?.center,
  });
  const type = await callTool(computer, { action: "type", text: "hello" });
  const pointer = await callTool(computer, { action: "cursor_position" });
  return {
    calls: { screenshot, window, click, type, pointer },
    clicks: display.clicks,
    typed: display.typed,
  };
}
