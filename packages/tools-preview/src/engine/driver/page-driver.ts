// The page driver: injected ahead of the artifact's own code in both backends. It records console
// output and uncaught errors, shims `localStorage` / `sessionStorage` when the opaque origin
// refuses them, keeps WebGL drawing buffers, cancels navigation away from the artifact, and
// answers the op engine's calls (read, eval, locate, act, shot, drain) — through
// `globalThis[Symbol.for("agentool.preview.driver")]` (Node backend, via CDP) or `postMessage`
// (iframe backend, with the session's channel token).
//
// This file never runs in Node: scripts/embed-driver.mjs strips its types and embeds it as a
// string in driver-source.generated.ts, wrapped as `(function () { …; installPreviewDriver(
// __CONFIG__); })();`. So it must stay self-contained: no runtime import, and nothing the
// TypeScript transform would need a helper for (no `#private` fields, no decorators). Its
// top-level constants are evaluated when the driver is injected, before the artifact runs.
import type {
  ConsoleBatch,
  DriverConfig,
  DriverEvalResult,
  DriverLocation,
  DriverReadAnswer,
  DriverReadLimits,
  DriverReadValue,
  DriverShot,
  DriverSummary,
} from "../driver-protocol.js";
import { artifactColumn, bridgeFetch, shortUrl, sourceName } from "./artifact-files.js";

type Entry = { level: string; text: string; count: number };
type Action = {
  type: string;
  x?: number;
  y?: number;
  selector?: string;
  key?: string;
  text?: string;
  dx?: number;
  dy?: number;
  ms?: number;
};
type DriverApi = Record<string, (...args: never[]) => unknown>;
/** The Navigation API's part the driver uses (not yet in TypeScript's DOM types). */
type NavigationLike = {
  addEventListener(
    type: "navigate",
    listener: (event: {
      hashChange: boolean;
      navigationType: string;
      cancelable: boolean;
      destination: { url: string };
      preventDefault(): void;
    }) => void,
  ): void;
};

const DRIVER_KEY = Symbol.for("agentool.preview.driver");
/** Taken before the artifact runs, so it cannot swap them. */
const hiddenPrototype = Object.getPrototypeOf;
const AsyncFunction = hiddenPrototype(async () => {}).constructor as new (
  body: string,
) => () => Promise<unknown>;
const KEY_CODES: Record<string, string> = {
  " ": "Space",
  Enter: "Enter",
  Escape: "Escape",
  Tab: "Tab",
  Backspace: "Backspace",
  ArrowUp: "ArrowUp",
  ArrowDown: "ArrowDown",
  ArrowLeft: "ArrowLeft",
  ArrowRight: "ArrowRight",
  Shift: "ShiftLeft",
  Control: "ControlLeft",
  Alt: "AltLeft",
  Meta: "MetaLeft",
};

function clip(value: unknown, limit: number): string {
  const text = String(value);
  return text.length > limit
    ? `${text.slice(0, limit)}… (${text.length - limit} more characters)`
    : text;
}

function nodeName(value: Node): string {
  return `<${(value.nodeName || "node").toLowerCase()}>`;
}

/** A value as one console line shows it. */
function describe(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return `${value.name || "Error"}: ${value.message}`;
  if (typeof value === "undefined") return "undefined";
  if (typeof value === "function") return `[function ${value.name || "anonymous"}]`;
  if (typeof value === "symbol" || typeof value === "bigint") return String(value);
  try {
    if (typeof Node !== "undefined" && value instanceof Node) return nodeName(value);
    const seen: unknown[] = [];
    const json = JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === "object" && item !== null) {
        if (seen.indexOf(item) !== -1) return "[circular]";
        seen.push(item);
      }
      if (typeof item === "bigint") return String(item);
      return item;
    });
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

/**
 * The console output since the host's last call. Output handed to the host waits here until the
 * host acknowledges it (the next call carries the number of the last batch it received): an
 * answer lost to a cut-off call (a timeout, an abort) is handed out again with the next one.
 */
class ConsoleRecorder {
  entries: Entry[] = [];
  omitted = 0;
  unacknowledged: Required<ConsoleBatch> | null = null;
  nextBatch = 1;

  constructor(readonly config: DriverConfig) {}

  record(level: string, message: unknown): void {
    const text = clip(message, this.config.maxEntryCharacters);
    const last = this.entries[this.entries.length - 1];
    if (last && last.level === level && last.text === text) {
      last.count += 1;
      return;
    }
    if (this.entries.length >= this.config.maxEntries) {
      this.omitted += 1;
      return;
    }
    this.entries.push({ level, text, count: 1 });
  }

  drain(acknowledged?: number): Required<ConsoleBatch> {
    let pending = this.unacknowledged;
    if (pending && typeof acknowledged === "number" && acknowledged >= pending.batch)
      pending = null;
    let merged = pending ? pending.entries.concat(this.entries) : this.entries;
    let lost = (pending ? pending.omitted : 0) + this.omitted;
    if (merged.length > this.config.maxEntries) {
      lost += merged.length - this.config.maxEntries;
      merged = merged.slice(0, this.config.maxEntries);
    }
    this.unacknowledged = { batch: this.nextBatch++, entries: merged, omitted: lost };
    this.entries = [];
    this.omitted = 0;
    return this.unacknowledged;
  }
}

function hookConsole(recorder: ConsoleRecorder): void {
  const methods = console as unknown as Record<string, (...items: unknown[]) => unknown>;
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    const original = methods[level] as (...items: unknown[]) => unknown;
    methods[level] = (...items: unknown[]) => {
      recorder.record(level, items.map(describe).join(" "));
      try {
        return original.apply(console, items);
      } catch {
        return undefined;
      }
    };
  }
}

function hookErrors(recorder: ConsoleRecorder, config: DriverConfig): void {
  addEventListener(
    "error",
    (event) => {
      const target = event.target as (HTMLElement & { src?: string; href?: string }) | null;
      if (target && target !== (window as unknown) && target.tagName) {
        recorder.record(
          "error",
          `failed to load <${target.tagName.toLowerCase()}> ${shortUrl(target.src || target.href || "", config)}`,
        );
        return;
      }
      const file = sourceName(event.filename || "", config);
      const column = artifactColumn(event.filename || "", event.lineno, event.colno, config);
      const where = event.lineno
        ? ` (${file ? `${file} ` : ""}line ${event.lineno}${column ? `:${column}` : ""})`
        : "";
      recorder.record(
        "uncaught",
        (event.error ? describe(event.error) : event.message || "error") + where,
      );
    },
    true,
  );
  addEventListener("unhandledrejection", (event) => {
    recorder.record("uncaught", `unhandled rejection: ${describe(event.reason)}`);
  });
  document.addEventListener("securitypolicyviolation", (event) => {
    recorder.record(
      "blocked",
      `no network in preview: ${event.effectiveDirective} refused ${shortUrl(event.blockedURI || "(inline)", config)} — ${config.assetBase ? "only the artifact's own files (paths beside it in the workspace) load; inline anything else" : "inline the content or use a data: URL"}`,
    );
  });
}

function memoryStorage(): Storage {
  const data = new Map<string, string>();
  const storage = {
    getItem: (name: string) => {
      const key = String(name);
      return data.has(key) ? (data.get(key) as string) : null;
    },
    setItem: (name: string, value: string) => {
      data.set(String(name), String(value));
    },
    removeItem: (name: string) => {
      data.delete(String(name));
    },
    clear: () => {
      data.clear();
    },
    key: (index: number) => {
      const keys = Array.from(data.keys());
      return index < keys.length ? (keys[index] as string) : null;
    },
  };
  Object.defineProperty(storage, "length", { get: () => data.size });
  return storage as Storage;
}

/** Opaque origins throw on storage access; an in-memory shim keeps artifacts that save state working. */
function shimStorage(): void {
  for (const name of ["localStorage", "sessionStorage"]) {
    let works = false;
    try {
      works = !!(window as unknown as Record<string, unknown>)[name];
    } catch {
      works = false;
    }
    if (!works) {
      const shim = memoryStorage();
      try {
        Object.defineProperty(window, name, { configurable: true, get: () => shim });
      } catch {}
    }
  }
}

/** WebGL keeps its drawing buffer so a shot after the frame still sees the pixels. */
function keepWebglBuffers(): void {
  const prototype = HTMLCanvasElement.prototype as unknown as {
    getContext: (this: HTMLCanvasElement, type: string, attributes?: object) => unknown;
  };
  const getContext = prototype.getContext;
  prototype.getContext = function (this: HTMLCanvasElement, type: string, attributes?: object) {
    if (type === "webgl" || type === "webgl2" || type === "experimental-webgl") {
      const merged = Object.assign({}, attributes || {}, { preserveDrawingBuffer: true });
      return getContext.call(this, type, merged);
    }
    // biome-ignore lint/complexity/noArguments: every argument the page passed goes through
    return getContext.apply(this, arguments as unknown as [string, object?]);
  };
}

/**
 * Navigation away from the artifact, popups and form submissions are cancelled (the network
 * layer refuses them as well); fragment links still work.
 */
function cancelNavigation(recorder: ConsoleRecorder): void {
  document.addEventListener(
    "click",
    (event) => {
      let node = event.target as (Node & { tagName?: string }) | null;
      while (node?.nodeType === 1 && node.tagName !== "A" && node.tagName !== "AREA")
        node = node.parentNode;
      if (node?.nodeType !== 1) return;
      const href = (node as Element).getAttribute("href");
      if (href === null || href.charAt(0) === "#") return;
      event.preventDefault();
      recorder.record(
        "blocked",
        `navigation to ${href} cancelled: the preview shows only this artifact`,
      );
    },
    true,
  );
  document.addEventListener(
    "submit",
    (event) => {
      event.preventDefault();
      recorder.record("blocked", "form submission cancelled: the preview has no network");
    },
    true,
  );
  try {
    window.open = (url?: string | URL) => {
      recorder.record(
        "blocked",
        `window.open(${describe(url)}) refused: the preview has no network`,
      );
      return null;
    };
  } catch {}
  const navigation = (globalThis as { navigation?: NavigationLike }).navigation;
  if (navigation?.addEventListener) {
    navigation.addEventListener("navigate", (event) => {
      if (event.hashChange || event.navigationType === "reload") return;
      if (event.cancelable) {
        event.preventDefault();
        recorder.record(
          "blocked",
          `navigation to ${event.destination.url} cancelled: the preview shows only this artifact`,
        );
      }
    });
  }
}

function readValue(element: Element, attr: string, limit: number): DriverReadValue | null {
  let value: unknown;
  if (attr === "text") {
    // biome-ignore lint/performance/useDomNodeTextContent: the text as rendered is what the model asked for
    const text = (element as HTMLElement).innerText;
    value = text !== undefined && text !== null ? text : element.textContent;
  } else if (attr === "html") value = element.outerHTML;
  else if (attr === "value")
    value =
      "value" in element ? (element as HTMLInputElement).value : element.getAttribute("value");
  else value = element.getAttribute(attr);
  if (value === null || value === undefined) return null;
  const text = String(value);
  return text.length > limit
    ? { text: text.slice(0, limit), total: text.length }
    : { text, total: text.length };
}

function read(
  queries: Array<{ css: string; attr?: string }>,
  limits: DriverReadLimits,
): DriverReadAnswer[] {
  return queries.map((query) => {
    const attr = query.attr || "text";
    let list: NodeListOf<Element>;
    try {
      list = document.querySelectorAll(query.css);
    } catch (error) {
      return { css: query.css, attr, error: `invalid CSS selector: ${(error as Error).message}` };
    }
    const values: Array<DriverReadValue | null> = [];
    let cut = false;
    for (let index = 0; index < list.length && index < limits.maxMatches; index++) {
      const item = readValue(list[index] as Element, attr, limits.maxCharacters);
      if (item && item.total > item.text.length) cut = true;
      values.push(item);
    }
    return { css: query.css, attr, count: list.length, values, cut };
  });
}

/** JSON of an eval's value: functions, symbols, bigints, nodes, errors, cycles, maps and sets named. */
function safeJson(value: unknown, limit: number): { json: string | undefined; total: number } {
  const seen: unknown[] = [];
  let json: string | undefined;
  try {
    json = JSON.stringify(value, (_key, item: unknown) => {
      if (typeof item === "bigint") return `${String(item)}n`;
      if (typeof item === "function") return `[function ${item.name || "anonymous"}]`;
      if (typeof item === "symbol") return String(item);
      if (typeof item === "number" && !Number.isFinite(item)) return String(item);
      if (typeof item === "object" && item !== null) {
        if (typeof Node !== "undefined" && item instanceof Node) return nodeName(item);
        if (item instanceof Error) return `${item.name || "Error"}: ${item.message}`;
        if (seen.indexOf(item) !== -1) return "[circular]";
        seen.push(item);
        if (item instanceof Map) return { "[map]": Array.from(item.entries()) };
        if (item instanceof Set) return { "[set]": Array.from(item.values()) };
      }
      return item;
    });
  } catch {
    json = JSON.stringify(describe(value));
  }
  if (json === undefined) return { json: undefined, total: 0 };
  return json.length > limit
    ? { json: json.slice(0, limit), total: json.length }
    : { json, total: json.length };
}

/**
 * The code as a function: a bare expression (`document.title`) answers its value, as a developer
 * console does; anything that is not one expression runs as a function body (`return` answers).
 */
function compileEval(code: string): () => Promise<unknown> {
  try {
    return new AsyncFunction(`return (\n${code}\n);`);
  } catch {
    return new AsyncFunction(code);
  }
}

function evaluate(code: string, limit: number): Promise<DriverEvalResult> {
  let run: () => Promise<unknown>;
  try {
    run = compileEval(code);
  } catch (error) {
    return Promise.resolve({ error: `SyntaxError: ${(error as Error).message}` });
  }
  return Promise.resolve()
    .then(() => run.call(window))
    .then(
      (value) => {
        const out = safeJson(value, limit);
        return { json: out.json, total: out.total, type: value === null ? "null" : typeof value };
      },
      (error: { stack?: unknown } | undefined) => ({
        error: describe(error),
        stack: error?.stack ? clip(error.stack, 2000) : undefined,
      }),
    ) as Promise<DriverEvalResult>;
}

function locate(selector: string): DriverLocation {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch (error) {
    return { error: `invalid CSS selector: ${(error as Error).message}` };
  }
  if (!element) return { error: `no element matches ${selector}` };
  if (element.scrollIntoView) element.scrollIntoView({ block: "center", inline: "center" });
  const rect = element.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0)
    return { error: `${selector} matches an element with no size (hidden?)` };
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

function codeOf(name: string): string {
  if (KEY_CODES[name]) return KEY_CODES[name];
  if (/^[a-zA-Z]$/.test(name)) return `Key${name.toUpperCase()}`;
  if (/^[0-9]$/.test(name)) return `Digit${name}`;
  return name;
}

function keyTarget(): HTMLElement {
  return (document.activeElement || document.body || document.documentElement) as HTMLElement;
}

function pointer(x: number, y: number): void {
  const target = (document.elementFromPoint(x, y) || document.body) as HTMLElement;
  const init = {
    bubbles: true,
    cancelable: true,
    composed: true,
    clientX: x,
    clientY: y,
    button: 0,
    view: window,
  };
  target.dispatchEvent(
    new PointerEvent(
      "pointerdown",
      Object.assign({ pointerId: 1, isPrimary: true, buttons: 1 }, init),
    ),
  );
  target.dispatchEvent(new MouseEvent("mousedown", Object.assign({ buttons: 1 }, init)));
  if (target.focus) target.focus();
  target.dispatchEvent(
    new PointerEvent("pointerup", Object.assign({ pointerId: 1, isPrimary: true }, init)),
  );
  target.dispatchEvent(new MouseEvent("mouseup", init));
  target.dispatchEvent(new MouseEvent("click", init));
}

function insertText(target: HTMLElement, text: string): void {
  if (target.isContentEditable) {
    target.textContent += text;
    target.dispatchEvent(
      new InputEvent("input", { bubbles: true, data: text, inputType: "insertText" }),
    );
    return;
  }
  if (target.tagName === "INPUT" || target.tagName === "TEXTAREA") {
    (target as HTMLInputElement).value += text;
    target.dispatchEvent(
      new InputEvent("input", { bubbles: true, data: text, inputType: "insertText" }),
    );
  }
}

function press(recorder: ConsoleRecorder, name: string): void {
  const target = keyTarget();
  const init = { key: name, code: codeOf(name), bubbles: true, cancelable: true, composed: true };
  const allowed = target.dispatchEvent(new KeyboardEvent("keydown", init));
  if (allowed && name.length === 1) insertText(target, name);
  if (
    allowed &&
    name === "Enter" &&
    (target as HTMLInputElement).form &&
    target.tagName === "INPUT"
  )
    recorder.record("blocked", "form submission cancelled: the preview has no network");
  target.dispatchEvent(new KeyboardEvent("keyup", init));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}

/** The next animation frame (or 50 ms, when frames are throttled). */
function frame(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      resolve();
    });
    setTimeout(resolve, 50);
  });
}

function scroll(dx: number | undefined, dy: number | undefined): void {
  const at = document.elementFromPoint(innerWidth / 2, innerHeight / 2) || document.body;
  at.dispatchEvent(
    new WheelEvent("wheel", {
      bubbles: true,
      cancelable: true,
      deltaX: dx as number,
      deltaY: dy as number,
      clientX: innerWidth / 2,
      clientY: innerHeight / 2,
    }),
  );
  window.scrollBy(dx as number, dy as number);
}

async function act(recorder: ConsoleRecorder, actions: Action[]) {
  for (let index = 0; index < actions.length; index++) {
    const action = actions[index] as Action;
    if (action.type === "click") {
      let x = action.x as number;
      let y = action.y as number;
      if (action.selector !== undefined) {
        const found = locate(action.selector);
        if (found.error) return { completed: index, failed: { index, message: found.error } };
        x = found.x as number;
        y = found.y as number;
      }
      pointer(x, y);
    } else if (action.type === "key") {
      press(recorder, action.key as string);
    } else if (action.type === "type") {
      const text = action.text as string;
      for (let character = 0; character < text.length; character++)
        press(recorder, text.charAt(character));
    } else if (action.type === "scroll") {
      scroll(action.dx, action.dy);
    } else if (action.type === "wait") {
      await sleep(action.ms as number);
    }
    await frame();
  }
  return { completed: actions.length };
}

function largestCanvas(): { canvas: HTMLCanvasElement | null; count: number } {
  let best: HTMLCanvasElement | null = null;
  const canvases = document.querySelectorAll("canvas");
  for (let index = 0; index < canvases.length; index++) {
    const canvas = canvases[index] as HTMLCanvasElement;
    if (!best || canvas.width * canvas.height > best.width * best.height) best = canvas;
  }
  return { canvas: best, count: canvases.length };
}

function label(element: HTMLCanvasElement): string {
  if (element.id) return `canvas#${element.id}`;
  const all = Array.prototype.indexOf.call(document.querySelectorAll("canvas"), element);
  return `canvas:nth-of-type(${all + 1})`;
}

function shot(maxSide: number): DriverShot | { source: "canvas"; error: string } {
  const found = largestCanvas();
  const canvas = found.canvas;
  if (!canvas || canvas.width === 0 || canvas.height === 0)
    return { source: "viewport", canvases: found.count, width: innerWidth, height: innerHeight };
  const width = canvas.width;
  const height = canvas.height;
  const scale = Math.min(1, maxSide / Math.max(width, height));
  let target = canvas;
  if (scale < 1) {
    target = document.createElement("canvas");
    target.width = Math.max(1, Math.round(width * scale));
    target.height = Math.max(1, Math.round(height * scale));
    (target.getContext("2d") as CanvasRenderingContext2D).drawImage(
      canvas,
      0,
      0,
      target.width,
      target.height,
    );
  }
  let url: string;
  try {
    url = target.toDataURL("image/png");
  } catch (error) {
    return { source: "canvas", error: `the canvas cannot be read: ${(error as Error).message}` };
  }
  return {
    source: "canvas",
    selector: label(canvas),
    canvases: found.count,
    width: target.width,
    height: target.height,
    canvas_width: width,
    canvas_height: height,
    data: url.slice(url.indexOf(",") + 1),
  };
}

function summary(): DriverSummary {
  const found = largestCanvas();
  return {
    title: document.title,
    canvases: found.count,
    width: innerWidth,
    height: innerHeight,
    ready: document.readyState,
  };
}

/**
 * The load event, or 1 s after the DOM is parsed when a cancelled navigation stopped the
 * document's loading (its load event then never comes); then the summary.
 */
function loaded(): Promise<DriverSummary> {
  return new Promise<void>((resolve) => {
    if (document.readyState === "complete") return resolve();
    addEventListener(
      "load",
      () => {
        resolve();
      },
      { once: true },
    );
    const afterParse = () => {
      setTimeout(resolve, 1000);
    };
    if (document.readyState === "interactive") afterParse();
    else document.addEventListener("DOMContentLoaded", afterParse, { once: true });
  }).then(summary);
}

function createApi(recorder: ConsoleRecorder): DriverApi {
  const api: Record<string, (...args: never[]) => unknown> = {
    loaded,
    withConsole: (method: string, args: unknown[] | undefined, acknowledged?: number) =>
      Promise.resolve(
        (api[method] as (...items: unknown[]) => unknown).apply(null, args || []),
      ).then((value) => ({ value, console: recorder.drain(acknowledged) })),
    drain: (acknowledged?: number) => recorder.drain(acknowledged),
    read,
    evaluate,
    locate,
    act: (actions: Action[]) => act(recorder, actions),
    shot,
    summary,
    ping: () => true,
    settle: frame,
  };
  return api;
}

/** The iframe backend: calls arrive over postMessage from the host (host → shell frame → this frame). */
function listenOnChannel(config: DriverConfig, api: DriverApi): void {
  if (!config.channel || !window.parent || window.parent === window) return;
  if (window.parent.parent === window.parent) return;
  const parentWindow = window.parent.parent;
  addEventListener(
    "message",
    (event) => {
      const message = event.data as {
        channel?: string;
        method?: unknown;
        id?: unknown;
        args?: unknown[];
      };
      if (
        event.source !== parentWindow ||
        !message ||
        message.channel !== config.channel ||
        typeof message.method !== "string"
      )
        return;
      event.stopImmediatePropagation();
      const method = api[message.method] as (...items: unknown[]) => unknown;
      Promise.resolve()
        .then(() => method.apply(null, message.args || []))
        .then(
          (value) => {
            parentWindow.postMessage({ channel: config.channel, id: message.id, value }, "*");
          },
          (error: unknown) => {
            parentWindow.postMessage(
              { channel: config.channel, id: message.id, error: describe(error) },
              "*",
            );
          },
        );
    },
    true,
  );
}

/**
 * Installs the driver in the page (once: a second call does nothing).
 *
 * @param config - the channel token and the console caps
 */
export function installPreviewDriver(config: DriverConfig): void {
  if ((globalThis as Record<symbol, unknown>)[DRIVER_KEY]) return;
  const recorder = new ConsoleRecorder(config);
  hookConsole(recorder);
  hookErrors(recorder, config);
  shimStorage();
  keepWebglBuffers();
  cancelNavigation(recorder);
  // Frozen, and held by a non-writable, non-configurable property: the artifact can neither
  // swap the driver nor its methods. It can still forge answers by patching the built-ins the
  // driver and the host's page call use, so the host checks and caps every answer
  // (src/engine/driver-answers.ts).
  const api = Object.freeze(createApi(recorder));
  Object.defineProperty(globalThis, DRIVER_KEY, {
    value: api,
    enumerable: false,
    configurable: false,
    writable: false,
  });
  listenOnChannel(config, api);
  bridgeFetch(config, recorder);
  for (const note of config.notes || []) recorder.record("error", note);
}
