export { type ClosestNamesOptions, closestNames, editDistance } from "./closest-names.js";
export { type MountedTools, mountedTools, mountedToolsOption } from "./mounted-tools.js";
export { givenCallArguments, nextCallArguments } from "./next-call-arguments.js";
export {
  PROXIED_REQUEST_DROPPED_HEADERS,
  PROXIED_RESPONSE_DROPPED_HEADERS,
} from "./proxied-headers.js";
export { errorMessage, formatCount, formatCountOf, joinSentences, listWords } from "./text.js";
export { type RetryOptions, raceSignal, retryWithBackoff, sleep } from "./timing.js";
export {
  ToolFailureError,
  type ToolFailureErrorOptions,
} from "./tool-failure-error.js";
export { type ToolOptions, toolOptionsShape } from "./tool-options.js";
