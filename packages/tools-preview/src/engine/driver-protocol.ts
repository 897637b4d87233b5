// The messages between the op engine and the page driver (src/engine/driver/page-driver.ts),
// typed once for both sides. Types only: the driver runs inside the artifact, not here.
import type { PreviewConsoleEntry } from "../preview-backend.js";

/** What the driver is configured with when it is injected (`__CONFIG__`). */
export interface DriverConfig {
  /** The iframe backend's postMessage channel token; empty for the Node backend. */
  channel: string;
  /** Most console entries kept between two calls. */
  maxEntries: number;
  /** Longest console entry kept, in characters. */
  maxEntryCharacters: number;
  /** The artifact's workspace path, named in error locations instead of the document's URL. */
  path?: string;
  /**
   * Where the artifact's own files are served (Node backend), so an error in `app.js` is
   * reported as `app.js`; absent when nothing is served from a URL.
   */
  assetBase?: string;
  /**
   * Whether the page's `fetch` of its own files is answered by the host over the channel (the
   * iframe backend, which has no server to answer a request).
   */
  fetchBridge?: boolean;
  /** Problems met while preparing the document (files that could not be inlined), as errors. */
  notes?: string[];
  /**
   * Where the driver was inserted in the artifact's text (1-based line, 0-based column) and the
   * inserted text's length (ten digits, a string: it is filled in after the text is built).
   */
  inserted?: { line: number; column: number; length: string };
}

/** Console output as the driver hands it out: numbered, so a lost batch is handed out again. */
export interface ConsoleBatch {
  /** The batch's number (acknowledged with the next call). */
  batch?: number;
  /** The entries, oldest first. */
  entries?: PreviewConsoleEntry[];
  /** Entries left out by the driver's cap. */
  omitted?: number;
}

/** A driver method's value with the console output since the last call (`withConsole`). */
export interface DriverAnswer {
  /** What the method returned. */
  value: unknown;
  /** The console output, in the same round trip. */
  console?: ConsoleBatch;
}

/** `summary` / `loaded`: the document at a glance. */
export interface DriverSummary {
  /** `document.title`. */
  title: string;
  /** How many `<canvas>` elements there are. */
  canvases: number;
  /** `innerWidth`. */
  width: number;
  /** `innerHeight`. */
  height: number;
  /** `document.readyState`. */
  ready?: string;
}

/** One value of a `read` match: the text (capped) and its length before the cap. */
export interface DriverReadValue {
  /** The value, cut at the answer cap. */
  text: string;
  /** Its length before the cap. */
  total: number;
}

/** One `read` query's raw answer. */
export interface DriverReadAnswer {
  /** The query's selector. */
  css: string;
  /** What was read. */
  attr: string;
  /** How many elements match. */
  count?: number;
  /** The first matches' values (`null`: the attribute is absent). */
  values?: Array<DriverReadValue | null>;
  /** Whether a value was cut. */
  cut?: boolean;
  /** An invalid selector's message. */
  error?: string;
}

/** The limits of a `read` call. */
export interface DriverReadLimits {
  /** Matches of one query whose values are returned. */
  maxMatches: number;
  /** Characters of one value. */
  maxCharacters: number;
}

/** `evaluate`'s answer. */
export interface DriverEvalResult {
  /** The value as JSON (capped), absent for `undefined`. */
  json?: string;
  /** The JSON's length before the cap. */
  total?: number;
  /** `typeof` the value (`"null"` for null). */
  type?: string;
  /** What the code threw. */
  error?: string;
  /** The thrown error's stack, capped. */
  stack?: string;
}

/** `locate`'s answer: the centre of the first match, or why there is none. */
export interface DriverLocation {
  /** x of the centre in CSS pixels. */
  x?: number;
  /** y of the centre in CSS pixels. */
  y?: number;
  /** Why the selector cannot be clicked. */
  error?: string;
}

/** `shot`'s answer: the largest canvas as PNG, or `viewport` when there is none. */
export interface DriverShot {
  /** Where the image comes from. */
  source: "canvas" | "viewport";
  /** The canvas shot (`canvas#game`). */
  selector?: string;
  /** How many canvases there are. */
  canvases: number;
  /** Image width. */
  width: number;
  /** Image height. */
  height: number;
  /** The canvas's own width. */
  canvas_width?: number;
  /** The canvas's own height. */
  canvas_height?: number;
  /** The PNG, base64. */
  data?: string;
  /** Why the canvas cannot be read. */
  error?: string;
}
