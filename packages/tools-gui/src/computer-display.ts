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

/** One element of a window's accessibility tree, as the display reads it (display pixels). */
export interface AccessibleElement {
  /** Nesting level among the elements kept (0 = a child of the window). */
  depth: number;
  /** The AT-SPI role name: "push button", "check box", "text", "label", "menu item"… */
  role: string;
  /** The accessible name (a button's label, a field's label); may be empty. */
  name: string;
  /** The text of a field, or a slider's value; absent when there is none or it is hidden (passwords). */
  value?: string;
  /** Whether `value` was cut short by the reader. */
  valueTruncated?: boolean;
  /** States worth knowing: "focused", "checked", "mixed", "disabled", "selected", "expanded", "collapsed", "pressed", "password". */
  states: string[];
  /** The element's box on the display, when it has one: left, top, width, height. */
  box?: DisplayRegion;
}

/** The focused window's accessibility tree (or, when no window has the focus, the first visible one). */
export interface AccessibleWindow {
  /** The window's title. */
  title: string;
  /** The application's name. */
  application: string;
  /** Whether the window has the focus (false: no window had it; this is the first visible one). */
  focused: boolean;
  /** The window's box on the display. */
  box?: DisplayRegion;
  /** Its elements, depth first, in reading order. */
  elements: AccessibleElement[];
  /** Whether the reader stopped at its cap: there are more elements than `elements`. */
  incomplete: boolean;
  /** The titles of the other top-level windows. */
  otherWindows: string[];
}

/**
 * Reads accessibility text of a display (AT-SPI on X11). A display that has one offers the
 * `computer` tool's `read_window` action.
 */
export interface AccessibilityReader {
  /**
   * Reads the focused window's tree.
   *
   * @throws ToolFailureError `UNSUPPORTED` when no window speaks AT-SPI (or the bindings are missing), `TIMEOUT`
   */
  readWindow(signal: AbortSignal): Promise<AccessibleWindow>;
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
  /** Accessibility text of the display's windows, when the display was started with it. */
  readonly accessibility?: AccessibilityReader | undefined;
}
