/** The default name of the fetch tool. */
export const WEB_FETCH_TOOL_NAME = "web_fetch";

/** Characters per page when the model sends no `limit`. */
export const DEFAULT_FETCH_MAX_CHARS = 20_000;

/** Largest `limit` (characters per page) a model may ask for. */
export const MAX_FETCH_MAX_CHARS = 100_000;

/** Default cap on a response body (decoded bytes): 5 MiB. */
export const DEFAULT_FETCH_MAX_RESPONSE_BYTES = 5 * 1_048_576;

/** Default cap on a PDF body: 20 MiB (real PDFs are larger than pages). */
export const DEFAULT_FETCH_MAX_PDF_BYTES = 20 * 1_048_576;

/** Default number of feed entries kept (when the model sends no `max_entries`). */
export const DEFAULT_MAX_FEED_ENTRIES = 30;

/** Largest `max_entries` a model may ask for (or the host's `maxFeedEntries`, when larger). */
export const MAX_FEED_ENTRIES_PER_CALL = 100;

/** Default time-to-live of cached pages: 15 minutes (`0` disables the cache). */
export const DEFAULT_FETCH_CACHE_TTL_MS = 15 * 60_000;

/** Default number of cached pages. */
export const DEFAULT_FETCH_CACHE_ENTRIES = 64;

/** Default time limit of one fetch: 30 s. */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
