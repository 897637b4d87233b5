/** The default name of the preview tool. */
export const PREVIEW_TOOL_NAME = "preview";
/** Default time limit of one call: 30 seconds. */
export const DEFAULT_PREVIEW_TIMEOUT_MS = 30_000;
/** Default idle time after which a session is closed: 2 minutes. */
export const DEFAULT_PREVIEW_IDLE_MS = 120_000;
/** Default cap on open sessions (one per conversation); the oldest is closed first. */
export const DEFAULT_MAX_PREVIEW_SESSIONS = 8;
/** Default cap on an artifact's size: 5 MiB. */
export const DEFAULT_MAX_ARTIFACT_BYTES = 5 * 1024 * 1024;
/** Most actions of one `act` call. */
export const MAX_PREVIEW_ACTIONS = 32;
/** Most queries of one `read` call. */
export const MAX_PREVIEW_QUERIES = 20;
/** Longest `eval` code, in characters. */
export const MAX_PREVIEW_CODE_CHARACTERS = 8_000;
/** Characters of one query's answer (all its matches together). */
export const MAX_READ_ANSWER_CHARACTERS = 2_000;
/** Matches of one query whose values are returned. */
export const MAX_READ_MATCHES = 5;
/** Characters of an `eval` value's JSON. */
export const MAX_EVAL_VALUE_CHARACTERS = 10_000;
/** Console entries returned with one response. */
export const MAX_CONSOLE_ENTRIES = 40;
/** Characters of one console entry. */
export const MAX_CONSOLE_ENTRY_CHARACTERS = 500;
/** Longest side of a shot, in pixels (larger canvases are scaled down). */
export const MAX_SHOT_SIDE = 1_600;
/** Largest canvas shot the driver may hand back, in PNG bytes (a noisy 1600 × 1600 canvas fits). */
export const MAX_SHOT_BYTES = 12 * 1024 * 1024;
/** Characters of any other text a driver answer carries (a title, a selector, an error). */
export const MAX_DRIVER_TEXT_CHARACTERS = 2_000;
/** Console entries one driver answer may carry (the driver keeps this many between calls). */
export const MAX_DRIVER_CONSOLE_ENTRIES = 200;
/**
 * How long before the tool's own timeout the internal deadline fires, so the preview's own
 * error (which says whether the session survived) wins over the generic `TIMEOUT`.
 */
export const PREVIEW_DEADLINE_MARGIN_MS = 1_500;
/** Time counted per action on top of its waits when the budget of an `act` call is checked. */
export const PREVIEW_ACTION_ALLOWANCE_MS = 50;
/** How long draining the console after a call may take before it is given up, ms. */
export const CONSOLE_DRAIN_TIMEOUT_MS = 2_000;
/** Endings (why a conversation's session closed) remembered for the next call's message. */
export const REMEMBERED_ENDINGS = 256;
