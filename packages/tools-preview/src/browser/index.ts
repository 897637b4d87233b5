export type { BrowserToolData } from "./browser-data.js";
export type { BrowserEvent } from "./browser-events.js";
export {
  type BrowserAction,
  type BrowserInput,
  browserInputSchema,
  DEFAULT_SNAPSHOT_LINES,
  MAX_BROWSER_ACTIONS,
} from "./browser-input.js";
export type {
  BrowserHttpRequest,
  BrowserHttpResponse,
  BrowserTransport,
} from "./browser-network.js";
export type { HtmlToMarkdown } from "./browser-ops.js";
export { MAX_BROWSER_TABS } from "./browser-session.js";
export { compactSnapshot, snapshotChanges } from "./compact-snapshot.js";
export {
  BROWSER_TOOL_NAME,
  type BrowserTool,
  type BrowserToolOptions,
  createBrowserTool,
  DEFAULT_BROWSER_IDLE_MS,
  DEFAULT_MAX_BROWSER_SESSIONS,
} from "./create-browser-tool.js";
export { formatBrowserResult } from "./format-browser-result.js";
