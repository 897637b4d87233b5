// The page driver's part about the artifact's own files: error locations named by workspace path,
// and the iframe backend's fetch bridge. Embedded with page-driver.ts by scripts/embed-driver.mjs
// into the same script (so: no runtime import but from the driver's own files, no helper).
import type { DriverConfig } from "../driver-protocol.js";

/** Where the driver's console entries go. */
type Recorder = { record(level: string, text: string): void };

/**
 * Where an error happened, as the model wrote it: the artifact's own path for the document (its
 * inline scripts), a served file's workspace path for an external script, the URL otherwise.
 */
export function sourceName(filename: string, config: DriverConfig): string {
  const path = config.path ?? "";
  if (!filename || filename === "about:srcdoc" || filename === String(location.href).split("#")[0])
    return path;
  const base = config.assetBase;
  if (base && filename.indexOf(base) === 0) {
    try {
      return decodeURIComponent(filename.slice(base.length).split(/[?#]/)[0] as string);
    } catch {
      return filename.slice(base.length);
    }
  }
  return filename;
}

/**
 * A column of the artifact's own text: on the line where the driver was inserted, columns after
 * it are shifted by the inserted text's length, which is taken back here.
 */
export function artifactColumn(
  filename: string,
  line: number,
  column: number,
  config: DriverConfig,
): number {
  const inserted = config.inserted;
  if (!inserted || line !== inserted.line || column <= inserted.column) return column;
  if (filename && filename !== "about:srcdoc" && filename !== String(location.href).split("#")[0])
    return column;
  return Math.max(1, column - Number(inserted.length));
}

/** A served file's URL as its workspace path (other URLs as they are). */
export function shortUrl(url: string, config: DriverConfig): string {
  return config.assetBase && url.indexOf(config.assetBase) === 0 ? sourceName(url, config) : url;
}

/** A fetch answer from the host: the file's bytes and type, or why it could not be served. */
type FetchAnswer = { bytes?: ArrayBuffer; type?: string; status?: number; error?: string };

/**
 * The iframe backend's `fetch` of the artifact's own files: a URL of the artifact's origin
 * (relative URLs resolve against the artifact's own URL) is asked of the host over the channel,
 * which reads it as the Node backend serves it; any other URL goes to the real `fetch` (and its
 * policy refuses it).
 */
export function bridgeFetch(config: DriverConfig, recorder: Recorder): void {
  const base = config.assetBase;
  if (!config.fetchBridge || !base || !config.channel || window.parent === window) return;
  const parentWindow = window.parent.parent;
  const documentUrl = base + (config.path || "").split("/").map(encodeURIComponent).join("/");
  const origin = new URL(base).origin;
  const original = window.fetch;
  const waiting = new Map<number, (answer: FetchAnswer) => void>();
  let next = 1;
  addEventListener(
    "message",
    (event) => {
      const message = event.data as { channel?: string; fetch_answer?: unknown } & FetchAnswer;
      if (
        event.source !== parentWindow ||
        !message ||
        message.channel !== config.channel ||
        typeof message.fetch_answer !== "number"
      )
        return;
      event.stopImmediatePropagation();
      const settle = waiting.get(message.fetch_answer);
      waiting.delete(message.fetch_answer);
      if (settle) settle(message);
    },
    true,
  );
  window.fetch = function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    let url: URL;
    try {
      url = new URL(input instanceof Request ? input.url : String(input), documentUrl);
    } catch {
      return original.call(window, input, init);
    }
    if (url.origin !== origin) return original.call(window, input, init);
    const method = String(init?.method || (input instanceof Request ? input.method : "GET"));
    let path = "";
    try {
      path = decodeURIComponent(url.pathname.replace(/^\/+/, ""));
    } catch {
      path = "";
    }
    if ((method.toUpperCase() !== "GET" && method.toUpperCase() !== "HEAD") || !path) {
      recorder.record(
        "blocked",
        `preview could not serve ${path || url.pathname}: ${path ? `${method} is not served (the artifact's files are read-only)` : "not a workspace path"}`,
      );
      return Promise.resolve(new Response("", { status: 403 }));
    }
    const id = next++;
    return new Promise<FetchAnswer>((resolve) => {
      waiting.set(id, resolve);
      parentWindow.postMessage({ channel: config.channel, fetch: id, path }, "*");
    }).then((answer) => {
      if (answer.bytes === undefined) {
        recorder.record("error", `preview could not serve ${path}: ${answer.error || "unknown"}`);
        return new Response("", { status: answer.status || 500 });
      }
      return new Response(method.toUpperCase() === "HEAD" ? null : answer.bytes, {
        status: 200,
        headers: { "content-type": answer.type || "application/octet-stream" },
      });
    });
  };
}
