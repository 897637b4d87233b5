import type { ComputerDisplay } from "../computer-display.js";

/** Options of {@link sizedTestDisplay}. */
export interface SizedTestDisplayOptions {
  /** The display's width in pixels. */
  width: number;
  /** The display's height in pixels. */
  height: number;
}

/**
 * A display that is only a size: enough to create the `computer` tool and read its definition
 * (name, description, the screenshot size it states) without X. Every action rejects.
 *
 * @param options - the display's size
 * @returns the display
 * @example
 * const computer = createComputerTool({ display: sizedTestDisplay({ width: 1280, height: 800 }) });
 * computer.description; // states the 1280×800 screenshot the model will see
 */
export function sizedTestDisplay(options: SizedTestDisplayOptions): ComputerDisplay {
  const notRun = (): Promise<never> =>
    Promise.reject(new Error("sizedTestDisplay runs nothing: only its size is read"));
  return {
    width: options.width,
    height: options.height,
    capture: notRun,
    movePointer: notRun,
    click: notRun,
    pressButton: notRun,
    scroll: notRun,
    keys: notRun,
    type: notRun,
    pointerPosition: notRun,
  };
}
