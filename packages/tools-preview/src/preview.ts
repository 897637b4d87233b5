import {
  type ContentBlock,
  defineTool,
  fail,
  formatTruncationMarker,
  isErrorCode,
  normalizeRelativePath,
  ok,
  type Tool,
  type ToolContent,
  type ToolContext,
  type ToolOverrides,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import {
  ARTIFACT_CONTENT_SECURITY_POLICY,
  prepareArtifactDocument,
} from "./internal/artifact-document.js";
import {
  type PreviewAction,
  type PreviewBackend,
  type PreviewBackendSession,
  type PreviewConsoleEntry,
  type PreviewDriverMethod,
  PreviewError,
} from "./preview-backend.js";

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
/**
 * How long before the tool's own timeout the internal deadline fires, so the preview's own
 * error (which says whether the session survived) wins over the generic `TIMEOUT`.
 */
export const PREVIEW_DEADLINE_MARGIN_MS = 1_500;
/** Time counted per action on top of its waits when the budget of an `act` call is checked. */
export const PREVIEW_ACTION_ALLOWANCE_MS = 50;

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

/** Reads an artifact: a host `read(path, signal)`. */
export type PreviewReadFunction = (
  path: string,
  signal: AbortSignal,
) => Promise<string | Uint8Array> | string | Uint8Array;

/** The part of the fs family's `FileSystem` seam the preview uses. */
export interface PreviewFileSource {
  /** The whole file. */
  readFile(path: string): Promise<Uint8Array>;
}

/** Options of the op engine, shared by both backends' factories. */
export interface PreviewEngineOptions extends ToolOverrides {
  /** Reads an artifact; give this or `fileSystem`. */
  read?: PreviewReadFunction;
  /** The fs family's `FileSystem` seam (or anything with `readFile`); give this or `read`. */
  fileSystem?: PreviewFileSource;
  /** Time limit of one call. Default {@link DEFAULT_PREVIEW_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** A session closes after this long without a call. Default {@link DEFAULT_PREVIEW_IDLE_MS}. */
  idleMs?: number;
  /** Most sessions open at once (the oldest is closed first). Default {@link DEFAULT_MAX_PREVIEW_SESSIONS}. */
  maxSessions?: number;
  /** Viewport size in CSS pixels. Default 800 × 600. */
  viewport?: { width: number; height: number };
  /** Largest artifact opened, in bytes. Default {@link DEFAULT_MAX_ARTIFACT_BYTES}. */
  maxArtifactBytes?: number;
}

/** The zod schema of the engine options (strict; backends extend it). */
export const previewEngineOptionsShape = {
  ...toolOverridesShape,
  read: z
    .custom<PreviewReadFunction>((value) => typeof value === "function", {
      message: "read must be a function (path, signal) => Promise<string | Uint8Array>",
    })
    .optional(),
  fileSystem: z
    .custom<PreviewFileSource>(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as { readFile?: unknown }).readFile === "function",
      { message: "fileSystem must have readFile(path) (the fs family's FileSystem seam)" },
    )
    .optional(),
  timeoutMs: z.number().int().min(2_000).max(600_000).optional(),
  idleMs: z.number().int().min(100).max(86_400_000).optional(),
  maxSessions: z.number().int().min(1).max(64).optional(),
  viewport: z
    .object({
      width: z.number().int().min(100).max(4_000),
      height: z.number().int().min(100).max(4_000),
    })
    .strict()
    .optional(),
  maxArtifactBytes: z
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .optional(),
};

const ACTION_TYPES = ["click", "key", "type", "scroll", "wait"] as const;
const OPS = ["open", "act", "read", "eval", "shot", "close"] as const;

/** The preview tool's input schema. */
export const previewInputSchema = z.object({
  op: z
    .enum(OPS)
    .describe(
      "open: load the HTML artifact at path in a fresh session. act: run actions. read: query the DOM. eval: run JavaScript inside the artifact. shot: PNG of the largest canvas (or the viewport). close: end the session.",
    ),
  path: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .describe("open only: the artifact's path in the workspace, e.g. snake.html."),
  actions: z
    .array(
      z.object({
        type: z.enum(ACTION_TYPES).describe("click, key, type, scroll or wait."),
        x: z
          .number()
          .min(0)
          .max(10_000)
          .optional()
          .describe("click: x in CSS pixels from the left."),
        y: z
          .number()
          .min(0)
          .max(10_000)
          .optional()
          .describe("click: y in CSS pixels from the top."),
        selector: z
          .string()
          .max(500)
          .optional()
          .describe("click: CSS selector; clicks the centre of the first match (instead of x, y)."),
        key: z
          .string()
          .min(1)
          .max(32)
          .optional()
          .describe("key: a key name such as ArrowLeft, Enter, Escape, a, or a space."),
        text: z
          .string()
          .max(2_000)
          .optional()
          .describe("type: text typed into the focused element."),
        dx: z.number().min(-100_000).max(100_000).optional().describe("scroll: horizontal pixels."),
        dy: z.number().min(-100_000).max(100_000).optional().describe("scroll: vertical pixels."),
        ms: z.number().int().min(0).max(600_000).optional().describe("wait: milliseconds."),
      }),
    )
    .min(1)
    .max(MAX_PREVIEW_ACTIONS)
    .optional()
    .describe(`act only: 1 to ${MAX_PREVIEW_ACTIONS} actions, run in order.`),
  queries: z
    .array(
      z.object({
        css: z.string().min(1).max(500).describe("A CSS selector."),
        attr: z
          .string()
          .min(1)
          .max(100)
          .optional()
          .describe("text (default), html, value, or any attribute name."),
      }),
    )
    .min(1)
    .max(MAX_PREVIEW_QUERIES)
    .optional()
    .describe(`read only: 1 to ${MAX_PREVIEW_QUERIES} queries.`),
  code: z
    .string()
    .min(1)
    .max(MAX_PREVIEW_CODE_CHARACTERS)
    .optional()
    .describe(
      "eval only: a function body run inside the artifact; `return` a JSON-safe value. May await.",
    ),
});

type PreviewInput = z.output<typeof previewInputSchema>;

/** The preview tool: a contract tool plus `dispose()`, which closes every session. */
export type PreviewTool = Tool<typeof previewInputSchema, PreviewToolData> & {
  /** Closes every session and releases the backend (the shared browser closes with its last tool). */
  dispose(): Promise<void>;
  /** How many sessions are open now. */
  sessionCount(): number;
};

const DEFAULT_DESCRIPTION = [
  "Opens an HTML artifact you wrote in a sandboxed browser so you can check it works: write it, open it, act/read/eval/shot, fix, repeat.",
  'Ops: {op:"open", path} loads a fresh session (always reloads). {op:"act", actions:[{type:"click",x,y} | {type:"click",selector} | {type:"key",key:"ArrowRight"} | {type:"type",text} | {type:"scroll",dx,dy} | {type:"wait",ms}]}. {op:"read", queries:[{css:"#score", attr?}]} (text by default). {op:"eval", code:"return game.state"}. {op:"shot"} returns a PNG of the largest canvas, or the viewport. {op:"close"}.',
  "Every response ends with the console output and uncaught errors since the last call.",
  "The sandbox has no network: inline scripts, styles and images (data: URLs); external files and fetches fail.",
  "The session lasts between calls and closes after a while idle; then open again.",
].join(" ");

interface Session {
  thread: string;
  path: string;
  backend: PreviewBackendSession;
  calls: number;
  idleTimer: ReturnType<typeof setTimeout> | undefined;
  queue: Promise<unknown>;
  closed: boolean;
  busy: number;
  /** Console output the driver handed back with the last call's value (one round trip for both). */
  drained?: ConsoleBatch | undefined;
  /** The number of the last console batch received from the driver (acknowledged with the next call). */
  consoleBatch: number;
}

/** Console output as the driver hands it out: numbered, so a lost batch is handed out again. */
interface ConsoleBatch {
  batch?: number;
  entries?: PreviewConsoleEntry[];
  omitted?: number;
}

const textDecoder = new TextDecoder();

function formatNumber(value: number): string {
  return new Intl.NumberFormat("en-US").format(value);
}

function randomChannel(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return `agentool-preview-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

function describeAction(action: PreviewAction): string {
  switch (action.type) {
    case "click":
      return action.selector !== undefined
        ? `click ${action.selector}`
        : `click (${action.x}, ${action.y})`;
    case "key":
      return `key ${JSON.stringify(action.key)}`;
    case "type":
      return `type ${JSON.stringify((action.text ?? "").slice(0, 40))}`;
    case "scroll":
      return `scroll (${action.dx ?? 0}, ${action.dy ?? 0})`;
    default:
      return `wait ${action.ms} ms`;
  }
}

function checkActions(actions: readonly PreviewAction[]): string[] {
  const problems: string[] = [];
  actions.forEach((action, index) => {
    const at = `actions[${index}] (${action.type})`;
    if (action.type === "click") {
      const hasPoint = action.x !== undefined && action.y !== undefined;
      if (!hasPoint && action.selector === undefined)
        problems.push(`${at} needs x and y, or selector`);
      if (hasPoint && action.selector !== undefined)
        problems.push(`${at} takes x and y or selector, not both`);
    } else if (action.type === "key" && action.key === undefined) problems.push(`${at} needs key`);
    else if (action.type === "type" && (action.text === undefined || action.text.length === 0))
      problems.push(`${at} needs text`);
    else if (action.type === "scroll" && action.dx === undefined && action.dy === undefined)
      problems.push(`${at} needs dx or dy`);
    else if (action.type === "wait" && action.ms === undefined) problems.push(`${at} needs ms`);
  });
  return problems;
}

/** Collapses consecutive duplicates across the driver's batch and the network layer's, and caps. */
function mergeConsole(
  batches: PreviewConsoleEntry[][],
  omittedBefore: number,
): { entries: PreviewConsoleEntry[]; omitted: number } {
  const entries: PreviewConsoleEntry[] = [];
  let omitted = omittedBefore;
  for (const batch of batches) {
    for (const entry of batch) {
      const last = entries[entries.length - 1];
      if (last !== undefined && last.level === entry.level && last.text === entry.text) {
        last.count += entry.count;
        continue;
      }
      if (entries.length >= MAX_CONSOLE_ENTRIES) {
        omitted += 1;
        continue;
      }
      const text =
        entry.text.length > MAX_CONSOLE_ENTRY_CHARACTERS
          ? `${entry.text.slice(0, MAX_CONSOLE_ENTRY_CHARACTERS)}…`
          : entry.text;
      entries.push({ level: entry.level, text, count: entry.count });
    }
  }
  return { entries, omitted };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sessionLine(session: PreviewSessionData): string {
  return `session: ${session.path} · ${session.state} · ${session.calls} call${session.calls === 1 ? "" : "s"} · ${session.backend} · closes after ${formatNumber(Math.round(session.idle_timeout_ms / 1000))} s idle`;
}

/**
 * The model-facing text of a preview result: the op's outcome, the session line and the console.
 *
 * @param data - a preview result
 * @returns text, or a text block and an image block for a shot
 */
export function formatPreviewResult(data: PreviewToolData): ToolContent {
  const lines: string[] = [];
  switch (data.op) {
    case "open":
      lines.push(
        `Opened ${data.session.path} (${formatNumber(data.characters ?? 0)} characters${data.title ? `, title ${JSON.stringify(data.title)}` : ""}; viewport ${data.width}×${data.height}; ${data.canvases ?? 0} canvas${data.canvases === 1 ? "" : "es"}).`,
      );
      break;
    case "act":
      lines.push(
        data.failed === undefined
          ? `Did ${data.completed} of ${data.requested} action${data.requested === 1 ? "" : "s"}.`
          : `Did ${data.completed} of ${data.requested} actions; actions[${data.failed.index}] (${data.failed.type}) failed: ${data.failed.message}. The rest were not run — read the DOM to find the right target.`,
      );
      break;
    case "read":
      for (const answer of data.answers ?? []) {
        const head = `${answer.css}${answer.attr === "text" ? "" : ` [${answer.attr}]`}`;
        if (answer.error !== undefined) {
          lines.push(`${head}: ${answer.error}`);
          continue;
        }
        if (answer.count === 0) {
          lines.push(`${head}: no element matches`);
          continue;
        }
        const shown = answer.values.map((value) =>
          value === null ? "(absent)" : JSON.stringify(value),
        );
        const more =
          answer.count > answer.values.length
            ? ` (first ${answer.values.length} of ${answer.count} matches)`
            : answer.count > 1
              ? ` (${answer.count} matches)`
              : "";
        lines.push(`${head}${more}: ${shown.join(", ")}`);
        if (answer.truncated)
          lines.push(
            formatTruncationMarker({
              omitted: answer.omitted_characters ?? 0,
              unit: "characters",
              next: "query a narrower selector, or eval to read a part",
            }),
          );
      }
      break;
    case "eval":
      if (data.thrown !== undefined) lines.push(`The code threw: ${data.thrown}`);
      else {
        lines.push(
          data.value_json === null
            ? `Returned ${data.value_type === "undefined" ? "undefined (use return to yield a value)" : data.value_type}.`
            : `Returned (${data.value_type}): ${data.value_json}`,
        );
        if (data.value_truncated)
          lines.push(
            formatTruncationMarker({
              omitted: (data.value_characters ?? 0) - (data.value_json?.length ?? 0),
              unit: "characters",
              next: "return a smaller part of the value",
            }),
          );
      }
      break;
    case "shot":
      lines.push(
        `Shot of the ${data.source === "canvas" ? `largest canvas (${data.selector}, ${data.canvases} in the document)` : "viewport"}: ${data.width}×${data.height} PNG, ${formatNumber(data.bytes ?? 0)} bytes.`,
      );
      break;
    case "close":
      lines.push(data.closed ? "Closed the session." : "No session was open.");
      break;
  }
  lines.push(sessionLine(data.session));
  if (data.console.length === 0 && data.console_omitted === 0)
    lines.push("console: (nothing since the last call)");
  else {
    lines.push(`console (since the last call):`);
    for (const entry of data.console)
      lines.push(`[${entry.level}] ${entry.text}${entry.count > 1 ? ` ×${entry.count}` : ""}`);
    if (data.console_omitted > 0)
      lines.push(
        formatTruncationMarker({
          omitted: data.console_omitted,
          unit: "entries",
          next: "log less, or read the state with eval",
        }),
      );
  }
  const text = lines.join("\n");
  if (data.op === "shot" && data.image_base64 !== undefined) {
    const blocks: ContentBlock[] = [
      { type: "text", text },
      { type: "image", data: data.image_base64, mimeType: data.mime_type ?? "image/png" },
    ];
    return blocks;
  }
  return text;
}

/**
 * Builds the preview tool over a backend: the op engine both backends share (validation, wait
 * budgets, sessions per conversation with idle-out and a FIFO cap, deadlines inside the tool's
 * timeout, console collection, rendering).
 *
 * @param backend - where artifacts run
 * @param options - artifact source, limits, overrides (already validated by the factory)
 * @returns the tool, with `dispose()`
 * @example
 * const tool = createPreviewToolFromBackend(myBackend, { read: async (path) => files[path] });
 */
export function createPreviewToolFromBackend(
  backend: PreviewBackend,
  options: PreviewEngineOptions,
): PreviewTool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PREVIEW_TIMEOUT_MS;
  const idleMs = options.idleMs ?? DEFAULT_PREVIEW_IDLE_MS;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_PREVIEW_SESSIONS;
  const viewport = options.viewport ?? { width: 800, height: 600 };
  const maxArtifactBytes = options.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES;
  const deadlineMs = timeoutMs - PREVIEW_DEADLINE_MARGIN_MS;
  const name = options.name ?? PREVIEW_TOOL_NAME;
  const sessions = new Map<string, Session>();
  const endings = new Map<string, string>();
  let disposed = false;

  function remember(thread: string, why: string): void {
    endings.delete(thread);
    endings.set(thread, why);
    if (endings.size > 256) {
      const oldest = endings.keys().next().value;
      if (oldest !== undefined) endings.delete(oldest);
    }
  }

  function endSession(session: Session, why: string | undefined): Promise<void> {
    if (session.closed) return Promise.resolve();
    session.closed = true;
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    if (sessions.get(session.thread) === session) sessions.delete(session.thread);
    if (why !== undefined) remember(session.thread, why);
    return session.backend.close().catch(() => {});
  }

  function touch(session: Session): void {
    if (session.idleTimer !== undefined) clearTimeout(session.idleTimer);
    session.idleTimer = setTimeout(() => {
      if (session.busy > 0) {
        touch(session);
        return;
      }
      void endSession(
        session,
        `the session on ${session.path} closed after ${formatNumber(idleMs)} ms without a call`,
      );
    }, idleMs);
    (session.idleTimer as { unref?: () => void }).unref?.();
  }

  function sessionData(session: Session, state: "open" | "closed"): PreviewSessionData {
    return {
      path: session.path,
      state,
      calls: session.calls,
      idle_timeout_ms: idleMs,
      backend: backend.kind,
    };
  }

  async function readArtifact(path: string, signal: AbortSignal): Promise<string> {
    let content: string | Uint8Array;
    if (options.read !== undefined) content = await options.read(path, signal);
    else if (options.fileSystem !== undefined) content = await options.fileSystem.readFile(path);
    else
      throw new PreviewError(
        "NOT_CONFIGURED",
        "preview has no artifact source.",
        "The host must pass read or fileSystem (or root on Node).",
      );
    const size = typeof content === "string" ? content.length : content.byteLength;
    if (size > maxArtifactBytes)
      throw new PreviewError(
        "TOO_LARGE",
        `${path} is ${formatNumber(size)} bytes; preview opens artifacts up to ${formatNumber(maxArtifactBytes)} bytes.`,
        "Make the artifact smaller (move large data out, or generate it in code).",
      );
    return typeof content === "string" ? content : textDecoder.decode(content);
  }

  /** A signal aborted by the caller's or at the internal deadline, with which one it was. */
  function callSignal(context: ToolContext): {
    signal: AbortSignal;
    reason: () => "deadline" | "aborted" | undefined;
    done: () => void;
  } {
    const controller = new AbortController();
    let why: "deadline" | "aborted" | undefined;
    const timer = setTimeout(() => {
      why ??= "deadline";
      controller.abort(new Error("preview deadline"));
    }, deadlineMs);
    const outer = context.signal;
    const onAbort = () => {
      why ??= "aborted";
      controller.abort(new Error("aborted"));
    };
    if (outer.aborted) onAbort();
    else outer.addEventListener("abort", onAbort, { once: true });
    return {
      signal: controller.signal,
      reason: () => why,
      done: () => {
        clearTimeout(timer);
        outer.removeEventListener("abort", onAbort);
      },
    };
  }

  async function drainConsole(
    session: Session,
  ): Promise<{ entries: PreviewConsoleEntry[]; omitted: number }> {
    let driver: ConsoleBatch | undefined = session.drained;
    session.drained = undefined;
    if (driver === undefined) {
      try {
        driver = (await session.backend.call(
          "drain",
          [session.consoleBatch],
          AbortSignal.timeout(2_000),
        )) as ConsoleBatch | undefined;
      } catch {
        driver = undefined;
      }
    }
    if (typeof driver?.batch === "number") session.consoleBatch = driver.batch;
    return mergeConsole(
      [driver?.entries ?? [], session.backend.takeBlocked()],
      driver?.omitted ?? 0,
    );
  }

  /**
   * Calls a driver method and takes the console output since the last call in the same round
   * trip; the drained output waits on the session for the response.
   */
  async function callDriver(
    session: Session,
    method: PreviewDriverMethod,
    args: readonly unknown[],
    signal: AbortSignal,
  ): Promise<unknown> {
    const answer = (await session.backend.call(
      "withConsole",
      [method, args, session.consoleBatch],
      signal,
    )) as { value: unknown; console?: ConsoleBatch };
    session.drained = answer.console;
    if (typeof answer.console?.batch === "number") session.consoleBatch = answer.console.batch;
    return answer.value;
  }

  async function cutOff(
    session: Session,
    why: "deadline" | "aborted" | undefined,
    what: string,
  ): Promise<ToolResult<PreviewToolData>> {
    const state = session.closed
      ? "closed"
      : await session.backend.recover().catch(() => "closed" as const);
    if (state === "closed")
      void endSession(
        session,
        `the session on ${session.path} was closed after ${what} was cut off`,
      );
    if (why === "aborted")
      return fail(
        "ABORTED",
        `${name} ${what} was cancelled; the session is ${state === "usable" ? "still open" : "closed"}.`,
        { retryable: true },
      );
    const survived =
      state === "usable"
        ? "its running script was stopped and the session is still open — read or eval to inspect it"
        : `the session had to be closed — fix the artifact and call ${name} with op "open" again`;
    return fail(
      "TIMEOUT",
      `${name} ${what} did not finish within ${formatNumber(deadlineMs)} ms (a long or infinite loop in the artifact or the code?); ${survived}.`,
      {
        hint: "Look for loops that never yield (while(true), a missing exit condition), and keep waits short.",
        retryable: true,
      },
    );
  }

  async function withSession(
    thread: string,
    op: PreviewInput["op"],
    work: (session: Session, signal: AbortSignal) => Promise<Partial<PreviewToolData>>,
    context: ToolContext,
  ): Promise<ToolResult<PreviewToolData>> {
    const session = sessions.get(thread);
    if (session === undefined) {
      const why = endings.get(thread);
      return fail(
        "INVALID_INPUT",
        `No preview session is open${why === undefined ? "" : ` (${why})`}.`,
        { hint: `Call ${name} with op "open" and the artifact's path first, then ${op} again.` },
      );
    }
    const run = session.queue.then(async () => {
      if (session.closed) {
        return fail(
          "INVALID_INPUT",
          `The preview session was closed (${endings.get(thread) ?? "closed"}).`,
          {
            hint: `Call ${name} with op "open" again.`,
          },
        );
      }
      session.calls += 1;
      session.busy += 1;
      touch(session);
      const call = callSignal(context);
      try {
        const partial = await work(session, call.signal);
        const output = await drainConsole(session);
        return ok({
          op,
          session: sessionData(session, session.closed ? "closed" : "open"),
          ...partial,
          console: output.entries,
          console_omitted: output.omitted,
        } as PreviewToolData);
      } catch (error) {
        if (call.signal.aborted) return await cutOff(session, call.reason(), op);
        return failure(error, op);
      } finally {
        call.done();
        session.busy -= 1;
        if (!session.closed) touch(session);
      }
    });
    session.queue = run.catch(() => {});
    return run;
  }

  function failure(error: unknown, op: string): ToolResult<PreviewToolData> {
    if (PreviewError.isInstance(error))
      return fail(error.code, error.message, error.hint === undefined ? {} : { hint: error.hint });
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === "string" && isErrorCode(code))
      return fail(code, `${name} ${op}: ${errorMessage(error)}`, {
        hint: (error as { hint?: string }).hint ?? "Check the path, then call again.",
      });
    return fail("INTERNAL", `${name} ${op} failed: ${errorMessage(error)}`, {
      hint: `Call ${name} with op "open" to start over; if it keeps failing, report it.`,
    });
  }

  async function open(
    thread: string,
    rawPath: string,
    context: ToolContext,
  ): Promise<ToolResult<PreviewToolData>> {
    const normalized = normalizeRelativePath(rawPath, { rootName: "workspace" });
    if (normalized.path === undefined)
      return fail("INVALID_PATH", normalized.problem, {
        hint: "Give the artifact's path relative to the workspace, e.g. game/index.html.",
      });
    const path = normalized.path;
    const unavailable = backend.unavailable();
    if (unavailable !== undefined)
      return fail(unavailable.code, unavailable.message, { hint: unavailable.hint });
    const previous = sessions.get(thread);
    if (previous !== undefined) await endSession(previous, undefined);
    const call = callSignal(context);
    let session: Session | undefined;
    try {
      const html = await readArtifact(path, call.signal);
      while (sessions.size >= maxSessions) {
        const oldest = sessions.values().next().value as Session | undefined;
        if (oldest === undefined) break;
        await endSession(
          oldest,
          `it was closed to make room: at most ${maxSessions} preview sessions stay open and it was the oldest`,
        );
      }
      const channel = randomChannel();
      const backendSession = await backend.open({
        path,
        document: prepareArtifactDocument(html, {
          channel,
          maxEntries: MAX_CONSOLE_ENTRIES * 5,
          maxEntryCharacters: MAX_CONSOLE_ENTRY_CHARACTERS,
        }),
        channel,
        contentSecurityPolicy: ARTIFACT_CONTENT_SECURITY_POLICY,
        viewport,
        signal: call.signal,
      });
      session = {
        thread,
        path,
        backend: backendSession,
        calls: 1,
        idleTimer: undefined,
        queue: Promise.resolve(),
        closed: false,
        busy: 1,
        consoleBatch: 0,
      };
      endings.delete(thread);
      sessions.set(thread, session);
      touch(session);
      if (disposed) {
        await endSession(session, "the tool was disposed");
        return fail("ABORTED", `${name} was disposed while opening ${path}.`);
      }
      await backendSession.load(call.signal);
      const summary = (await callDriver(session, "loaded", [], call.signal)) as {
        title: string;
        canvases: number;
        width: number;
        height: number;
      };
      const output = await drainConsole(session);
      session.busy -= 1;
      touch(session);
      return ok({
        op: "open",
        session: sessionData(session, "open"),
        title: summary.title,
        characters: html.length,
        width: summary.width,
        height: summary.height,
        canvases: summary.canvases,
        console: output.entries,
        console_omitted: output.omitted,
      });
    } catch (error) {
      if (call.signal.aborted) {
        if (session === undefined)
          return call.reason() === "aborted"
            ? fail("ABORTED", `${name} open was cancelled.`, { retryable: true })
            : fail(
                "TIMEOUT",
                `${name} could not read or start ${path} within ${formatNumber(deadlineMs)} ms.`,
                { retryable: true },
              );
        session.busy -= 1;
        return cutOff(session, call.reason(), `open of ${path}`);
      }
      if (session !== undefined) await endSession(session, `opening ${path} failed`);
      if (PreviewError.isInstance(error)) return failure(error, "open");
      const code = (error as { code?: unknown } | null)?.code;
      if (code === "ENOENT" || code === "FILE_NOT_FOUND")
        return fail("FILE_NOT_FOUND", `${path} does not exist.`, {
          hint: "Write the artifact first, or check the path (list the workspace to find it).",
        });
      return failure(error, "open");
    } finally {
      call.done();
    }
  }

  async function execute(
    input: PreviewInput,
    context: ToolContext,
  ): Promise<ToolResult<PreviewToolData>> {
    if (disposed)
      return fail("NOT_CONFIGURED", `${name} has been disposed by the host.`, {
        hint: "The host must create the preview tool again.",
      });
    const thread = context.threadId ?? "default";
    switch (input.op) {
      case "open":
        if (input.path === undefined)
          return fail("INVALID_INPUT", `Invalid input for ${name}: op "open" needs path.`, {
            hint: 'Send {op:"open", path:"your-artifact.html"}.',
          });
        return open(thread, input.path, context);
      case "act": {
        const actions = (input.actions ?? []) as PreviewAction[];
        if (actions.length === 0)
          return fail(
            "INVALID_INPUT",
            `Invalid input for ${name}: op "act" needs actions (1 to ${MAX_PREVIEW_ACTIONS}).`,
            { hint: 'Send {op:"act", actions:[{type:"key", key:"ArrowRight"}]}.' },
          );
        const problems = checkActions(actions);
        if (problems.length > 0)
          return fail("INVALID_INPUT", `Invalid input for ${name}: ${problems.join("; ")}.`, {
            hint: "Fix the actions named above and call again.",
          });
        const waits = actions.reduce(
          (sum, action) => sum + (action.type === "wait" ? (action.ms ?? 0) : 0),
          0,
        );
        const budget = waits + actions.length * PREVIEW_ACTION_ALLOWANCE_MS;
        if (budget > deadlineMs)
          return fail(
            "INVALID_INPUT",
            `The waits of this act add up to ${formatNumber(waits)} ms (plus ${PREVIEW_ACTION_ALLOWANCE_MS} ms for each of the ${actions.length} actions: ${formatNumber(budget)} ms), more than the ${formatNumber(deadlineMs)} ms one call may take (timeout ${formatNumber(timeoutMs)} ms, ${formatNumber(PREVIEW_DEADLINE_MARGIN_MS)} ms kept to report back).`,
            {
              hint: "Split the waits over several act calls; the session keeps running between calls.",
            },
          );
        return withSession(
          thread,
          "act",
          async (session, signal) => {
            const outcome = await session.backend.act(actions, signal);
            // One frame for the artifact to draw what the actions changed, with the console.
            await callDriver(session, "settle", [], signal);
            const failedAction =
              outcome.failed === undefined ? undefined : actions[outcome.failed.index];
            return {
              requested: actions.length,
              completed: outcome.completed,
              ...(outcome.failed !== undefined && failedAction !== undefined
                ? {
                    failed: {
                      index: outcome.failed.index,
                      type: describeAction(failedAction),
                      message: outcome.failed.message,
                    },
                  }
                : {}),
            };
          },
          context,
        );
      }
      case "read": {
        const queries = input.queries ?? [];
        if (queries.length === 0)
          return fail(
            "INVALID_INPUT",
            `Invalid input for ${name}: op "read" needs queries (1 to ${MAX_PREVIEW_QUERIES}).`,
            { hint: 'Send {op:"read", queries:[{css:"#score"}]}.' },
          );
        return withSession(
          thread,
          "read",
          async (session, signal) => {
            const raw = (await callDriver(
              session,
              "read",
              [
                queries,
                { maxMatches: MAX_READ_MATCHES, maxCharacters: MAX_READ_ANSWER_CHARACTERS },
              ],
              signal,
            )) as Array<{
              css: string;
              attr: string;
              count?: number;
              values?: Array<{ text: string; total: number } | null>;
              cut?: boolean;
              error?: string;
            }>;
            const answers: PreviewReadAnswer[] = raw.map((answer) => {
              let budget = MAX_READ_ANSWER_CHARACTERS;
              let omitted = 0;
              const values = (answer.values ?? []).map((value) => {
                if (value === null) return null;
                const text = value.text.slice(0, Math.max(0, budget));
                omitted += value.total - text.length;
                budget -= text.length;
                return text;
              });
              return {
                css: answer.css,
                attr: answer.attr,
                count: answer.count ?? 0,
                values,
                truncated: omitted > 0,
                ...(omitted > 0 ? { omitted_characters: omitted } : {}),
                ...(answer.error === undefined ? {} : { error: answer.error }),
              };
            });
            return { answers };
          },
          context,
        );
      }
      case "eval": {
        const code = input.code;
        if (code === undefined)
          return fail("INVALID_INPUT", `Invalid input for ${name}: op "eval" needs code.`, {
            hint: 'Send {op:"eval", code:"return document.title"}.',
          });
        return withSession(
          thread,
          "eval",
          async (session, signal) => {
            const result = (await callDriver(
              session,
              "evaluate",
              [code, MAX_EVAL_VALUE_CHARACTERS],
              signal,
            )) as {
              json?: string;
              total?: number;
              type?: string;
              error?: string;
            };
            if (result.error !== undefined) return { thrown: result.error };
            return {
              value_json: result.json ?? null,
              value_type: result.type ?? "undefined",
              value_characters: result.total ?? 0,
              value_truncated: (result.total ?? 0) > (result.json?.length ?? 0),
            };
          },
          context,
        );
      }
      case "shot":
        return withSession(
          thread,
          "shot",
          async (session, signal) => {
            const shot = (await callDriver(session, "shot", [MAX_SHOT_SIDE], signal)) as {
              source: "canvas" | "viewport";
              selector?: string;
              canvases: number;
              width: number;
              height: number;
              data?: string;
              error?: string;
            };
            if (shot.error !== undefined)
              throw new PreviewError(
                "UNSUPPORTED",
                shot.error,
                "Draw without cross-origin images, or read the state with eval.",
              );
            let data = shot.data;
            let width = shot.width;
            let height = shot.height;
            if (shot.source === "viewport") {
              const image = await session.backend.screenshotViewport(signal);
              if (image === undefined)
                throw new PreviewError(
                  "UNSUPPORTED",
                  `The artifact has no <canvas>, and the ${backend.kind} backend can only shoot canvases.`,
                  "Use read or eval to check the page, or draw what you want to see into a canvas.",
                );
              data = image.data;
              width = image.width;
              height = image.height;
            }
            const base64 = data ?? "";
            const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
            return {
              source: shot.source,
              ...(shot.selector === undefined ? {} : { selector: shot.selector }),
              canvases: shot.canvases,
              width,
              height,
              bytes: Math.floor((base64.length * 3) / 4) - padding,
              mime_type: "image/png",
              image_base64: base64,
            };
          },
          context,
        );
      case "close": {
        const session = sessions.get(thread);
        if (session === undefined)
          return ok({
            op: "close",
            session: {
              path: "(none)",
              state: "closed",
              calls: 0,
              idle_timeout_ms: idleMs,
              backend: backend.kind,
            },
            closed: false,
            busy: 1,
            console: [],
            console_omitted: 0,
          });
        session.calls += 1;
        const output = await drainConsole(session);
        await endSession(session, "it was closed by op close");
        return ok({
          op: "close",
          session: sessionData(session, "closed"),
          closed: true,
          console: output.entries,
          console_omitted: output.omitted,
        });
      }
    }
  }

  const tool = defineTool({
    name,
    description: options.description ?? DEFAULT_DESCRIPTION,
    input: previewInputSchema,
    annotations: {
      title: "Preview an HTML artifact",
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: false,
    },
    tags: ["preview"],
    timeoutMs,
    execute,
    render: formatPreviewResult,
  });

  async function dispose(): Promise<void> {
    if (disposed) return;
    disposed = true;
    await Promise.all(
      [...sessions.values()].map((session) => endSession(session, "the tool was disposed")),
    );
    await backend.dispose();
  }

  function wrap(inner: Tool<typeof previewInputSchema, PreviewToolData>): PreviewTool {
    return Object.freeze({
      ...inner,
      withOverrides: (overrides: ToolOverrides) => wrap(inner.withOverrides(overrides)),
      dispose,
      sessionCount: () => sessions.size,
    }) as PreviewTool;
  }
  return wrap(tool);
}
