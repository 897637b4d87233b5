import type { PreviewConsoleEntry } from "../preview-backend.js";

/** The session line of every response. */
export interface PreviewSessionData {
  /** The artifact's path. */
  path: string;
  /** `"open"`, or `"closed"` after `close` or when it had to be closed. */
  state: "open" | "closed";
  /** Calls made on this session, this one included. */
  calls: number;
  /** The session closes after this long without a call. */
  idle_timeout_ms: number;
  /** The backend: `"chromium"` or `"iframe"`. */
  backend: string;
}

/** One `read` answer. */
export interface PreviewReadAnswer {
  /** The query's selector. */
  css: string;
  /** What was read: `text`, `html`, `value` or an attribute name. */
  attr: string;
  /** How many elements match. */
  count: number;
  /** The value of each of the first matches (`null`: the attribute is absent). */
  values: Array<string | null>;
  /** Whether a value was cut at the answer cap. */
  truncated: boolean;
  /** Characters left out of the values by the cap. */
  omitted_characters?: number;
  /** An invalid selector's message. */
  error?: string;
}

/** What `preview` returns. Only the fields of the op that ran are set. */
export interface PreviewToolData {
  /** The op that ran. */
  op: "open" | "act" | "read" | "eval" | "shot" | "close";
  /** The session after the call. */
  session: PreviewSessionData;
  /** open: the document's title. */
  title?: string;
  /** open: the artifact's size in characters. */
  characters?: number;
  /** open / shot: viewport or image width in pixels. */
  width?: number;
  /** open / shot: viewport or image height in pixels. */
  height?: number;
  /** open / shot: how many `<canvas>` elements the document has. */
  canvases?: number;
  /** act: actions asked for. */
  requested?: number;
  /** act: actions done. */
  completed?: number;
  /** act: the first action that could not be done. */
  failed?: { index: number; type: string; message: string };
  /** read: one answer per query. */
  answers?: PreviewReadAnswer[];
  /** eval: the returned value as JSON (capped), or `null` for `undefined`. */
  value_json?: string | null;
  /** eval: `typeof` the returned value. */
  value_type?: string;
  /** eval: the value's JSON length before the cap. */
  value_characters?: number;
  /** eval: whether the JSON was cut. */
  value_truncated?: boolean;
  /** eval: what the code threw. */
  thrown?: string;
  /** shot: `"canvas"` (the largest one) or `"viewport"`. */
  source?: "canvas" | "viewport";
  /** shot: the canvas shot (`canvas#game`). */
  selector?: string;
  /** shot: the PNG's size in bytes. */
  bytes?: number;
  /** shot: `"image/png"`. */
  mime_type?: string;
  /** shot: the PNG, base64 (also sent to the model as an image block). */
  image_base64?: string;
  /** close: whether a session was open. */
  closed?: boolean;
  /** Console output and uncaught errors since the last call, consecutive duplicates collapsed. */
  console: PreviewConsoleEntry[];
  /** Console entries left out by the cap. */
  console_omitted: number;
}
