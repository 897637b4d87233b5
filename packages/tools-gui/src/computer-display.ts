/** A mouse button. */
export type MouseButton = "left" | "middle" | "right";

/** A scroll direction. */
export type ScrollDirection = "up" | "down" | "left" | "right";

/** A rectangle on the display, in display pixels. */
export interface DisplayRegion {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What {@link ComputerDisplay.capture} is asked for. */
export interface CaptureRequest {
  /** The part of the display to capture; the whole display when absent. */
  region?: DisplayRegion;
  /** The width of the image to return (the region scaled to it). */
  width: number;
  /** The height of the image to return. */
  height: number;
}

/**
 * The seam the `computer` tool drives: one display, in display pixels. Every method rejects with
 * a `ToolFailureError` (or any error, reported as `INTERNAL`) when the display cannot do it, and
 * stops when `signal` aborts. `@agentool/tools-gui/node` has the X11 implementation
 * (`startXvfbDisplay`, `connectX11Display`).
 */
export interface ComputerDisplay {
  /** The display's width in pixels. */
  readonly width: number;
  /** The display's height in pixels. */
  readonly height: number;
  /** A PNG of the display (or a region of it) scaled to `width`×`height`, base64-encoded. */
  capture(request: CaptureRequest, signal: AbortSignal): Promise<string>;
  /** Moves the pointer to a display pixel. */
  movePointer(x: number, y: number, signal: AbortSignal): Promise<void>;
  /** Clicks a button `count` times (1 to 3) where the pointer is. */
  click(button: MouseButton, count: number, signal: AbortSignal): Promise<void>;
  /** Presses (`down`) or releases (`up`) a button where the pointer is. */
  pressButton(button: MouseButton, state: "down" | "up", signal: AbortSignal): Promise<void>;
  /** Scrolls `amount` wheel clicks where the pointer is. */
  scroll(direction: ScrollDirection, amount: number, signal: AbortSignal): Promise<void>;
  /**
   * Presses chords of X keysym names, one after the other (`[["ctrl", "s"]]`, `[["Return"]]`),
   * or only holds (`down`) or releases (`up`) them. Rejects an unknown key name with `INVALID_INPUT`.
   */
  keys(
    chords: readonly (readonly string[])[],
    state: "press" | "down" | "up",
    signal: AbortSignal,
  ): Promise<void>;
  /** Types text as keystrokes (the text is data, never a command line). */
  type(text: string, signal: AbortSignal): Promise<void>;
  /** Where the pointer is, in display pixels. */
  pointerPosition(signal: AbortSignal): Promise<{ x: number; y: number }>;
}
