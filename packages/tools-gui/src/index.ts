export {
  COMPUTER_TOOL_NAME,
  type ComputerTool,
  type ComputerToolData,
  type ComputerToolOptions,
  computerInputSchema,
  createComputerTool,
  DEFAULT_COMPUTER_TIMEOUT_MS,
  DEFAULT_MAX_SCREENSHOT_HEIGHT,
  DEFAULT_MAX_SCREENSHOT_WIDTH,
  DEFAULT_MAX_SCROLL_AMOUNT,
  DEFAULT_MAX_TEXT_CHARACTERS,
  DEFAULT_MAX_WAIT_SECONDS,
  DEFAULT_MAX_WINDOW_CHARACTERS,
  DEFAULT_MAX_WINDOW_ELEMENTS,
  DEFAULT_SETTLE_MS,
  formatComputerResult,
  SCREENSHOT_SIZE_TAG_PREFIX,
} from "./computer.js";
export {
  COMPUTER_ACTIONS,
  type ComputerAction,
  type ComputerToolAction,
  READ_WINDOW_ACTION,
} from "./computer-actions.js";
export type {
  AccessibilityReader,
  AccessibleElement,
  AccessibleWindow,
  CaptureRequest,
  ComputerDisplay,
  DisplayRegion,
  MouseButton,
  ScrollDirection,
} from "./computer-display.js";
export type { WindowElement } from "./window-element.js";
