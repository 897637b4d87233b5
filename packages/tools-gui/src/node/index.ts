export { ATSPI_PACKAGES, missingAccessibility } from "./atspi-reader.js";
export {
  describeMissingX11Programs,
  type MissingX11ProgramsOptions,
  missingX11Programs,
  type X11Program,
} from "./missing-x11-programs.js";
export {
  connectX11Display,
  DEFAULT_X11_COMMAND_TIMEOUT_MS,
  X11Display,
  type X11DisplayOptions,
} from "./x11-display.js";
export {
  startXvfbDisplay,
  type XvfbApp,
  XvfbDisplay,
  type XvfbDisplayOptions,
} from "./xvfb-display.js";
