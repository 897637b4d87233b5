// A fake ComputerDisplay for the provider-fit mapping tests: it records every call in display
// pixels and returns a 1×1 PNG, so the computer tool of @agentool/tools-gui runs without X.
import {
  type CaptureRequest,
  type ComputerDisplay,
  createComputerTool,
  type MouseButton,
  type ScrollDirection,
} from "@agentool/tools-gui";
import { PIXEL_PNG } from "./test-fixtures.js";

/** A display that only records: `calls` lists what the tool asked of it. */
export class RecordingDisplay implements ComputerDisplay {
  readonly width: number;
  readonly height: number;
  readonly calls: string[] = [];
  #pointer = { x: 0, y: 0 };

  constructor(width = 1280, height = 800) {
    this.width = width;
    this.height = height;
  }

  async capture(request: CaptureRequest): Promise<string> {
    const region = request.region;
    this.calls.push(
      region === undefined
        ? `capture ${request.width}x${request.height}`
        : `capture ${region.x},${region.y} ${region.width}x${region.height} as ${request.width}x${request.height}`,
    );
    return PIXEL_PNG;
  }
  async movePointer(x: number, y: number): Promise<void> {
    this.#pointer = { x, y };
    this.calls.push(`move ${x},${y}`);
  }
  async click(button: MouseButton, count: number): Promise<void> {
    this.calls.push(`click ${button} ${count}`);
  }
  async pressButton(button: MouseButton, state: "down" | "up"): Promise<void> {
    this.calls.push(`button ${button} ${state}`);
  }
  async scroll(direction: ScrollDirection, amount: number): Promise<void> {
    this.calls.push(`scroll ${direction} ${amount}`);
  }
  async keys(
    chords: readonly (readonly string[])[],
    state: "press" | "down" | "up",
  ): Promise<void> {
    this.calls.push(`keys ${state} ${chords.map((chord) => chord.join("+")).join(" ")}`);
  }
  async type(text: string): Promise<void> {
    this.calls.push(`type ${text}`);
  }
  async pointerPosition(): Promise<{ x: number; y: number }> {
    return this.#pointer;
  }

  /** The input calls (captures left out), then cleared. */
  take(): string[] {
    const input = this.calls.filter((call) => !call.startsWith("capture "));
    this.calls.length = 0;
    return input;
  }
}

/** The computer tool on a recording 1280×800 display, screenshots 1024×640 (scale 0.8). */
export function recordingComputer(): {
  display: RecordingDisplay;
  computer: ReturnType<typeof createComputerTool>;
} {
  const display = new RecordingDisplay();
  const computer = createComputerTool({ display, maxScreenshotWidth: 1024, settleMs: 0 });
  return { display, computer };
}
