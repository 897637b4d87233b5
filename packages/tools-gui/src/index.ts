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
  DEFAULT_SETTLE_MS,
  formatComputerResult,
  SCREENSHOT_SIZE_TAG_PREFIX,
} from "./computer.js";
export { COMPUTER_ACTIONS, type ComputerAction } from "./computer-actions.js";
export type {
  CaptureRequest,
  ComputerDisplay,
  DisplayRegion,
  MouseButton,
  ScrollDirection,
} from "./computer-display.js";
