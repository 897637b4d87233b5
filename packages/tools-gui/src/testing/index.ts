export { type ColorPixelCount, countColorPixels } from "./count-color-pixels.js";
export { type SizedTestDisplayOptions, sizedTestDisplay } from "./sized-test-display.js";
export {
  type StartTkTestAppOptions,
  startTkTestApp,
  TK_TEST_APP,
  tkTestApp,
} from "./tk-test-app.js";
export {
  missingX11TestPrerequisites,
  type X11TestPrerequisitesOptions,
  type X11TestSkipOptions,
  x11TestSkipReason,
} from "./x11-test-prerequisites.js";
