import { ToolFailureError } from "@agentool/contract";
import type { HttpResponse, HttpTransport } from "@agentool/tools-web";

/**
 * The Figma REST client: the host's token goes only to the configured origin (Figma's,
 * `https://api.figma.com`, unless the host set `baseUrl`); every request has a time limit and a
 * byte cap; HTTP failures become the contract's codes with a next step.
 *
 * @internal
 */

/** Figma's API origin. */
export const FIGMA_API_ORIGIN = "https://api.figma.com";

/** What the client needs. */
export interface FigmaClientSettings {
  /** The host's personal access token or OAuth token. */
  token: string;
  /** `Bearer` for an OAuth token, `X-Figma-Token` for a personal access token. */
  tokenKind: "personal" | "oauth";
  /** The API origin (default Figma's). */
  baseUrl: string;
  /** How requests travel (the SSRF-guarded transport by default). */
  transport: HttpTransport;
  /** Time limit per request, ms. */
  requestTimeoutMs: number;
  /** Most bytes of one JSON response. */
  maxResponseBytes: number;
}

function timeoutSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
}

function figmaMessage(response: HttpResponse): string {
  try {
    const body = JSON.parse(new TextDecoder().decode(response.body)) as {
      err?: unknown;
      message?: unknown;
    };
    const text =
      typeof body.err === "string"
        ? body.err
        : typeof body.message === "string"
          ? body.message
          : "";
    return text.slice(0, 300);
  } catch {
    return "";
  }
}

/**
 * The failure for a Figma API answer that is not 2xx.
 *
 * @param response - Figma's answer
 * @param what - what was asked (`file abc123`)
 * @returns the error to throw
 */
export function figmaStatusError(response: HttpResponse, what: string): ToolFailureError {
  const status = response.status;
  const detail = figmaMessage(response);
  const said = detail === "" ? "" : ` ("${detail}")`;
  if (status === 429) {
    const retryAfter = Number.parseInt(response.headers["retry-after"] ?? "", 10);
    const wait = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : 60;
    return new ToolFailureError(
      "NETWORK_ERROR",
      `Figma is rate-limiting this token (HTTP 429) for ${what}.`,
      {
        hint: `Wait ${wait} seconds (Figma's Retry-After) and call again; ask for one frame (node_id) rather than the whole file to spend fewer requests.`,
        retryable: true,
      },
    );
  }
  if (status === 401) {
    return new ToolFailureError(
      "NOT_CONFIGURED",
      `Figma refused the host's token (HTTP 401)${said}.`,
      {
        hint: "Ask the user to give the host a valid Figma access token (Figma → Settings → Security → Personal access tokens).",
        retryable: false,
      },
    );
  }
  if (status === 403) {
    return new ToolFailureError(
      "PERMISSION_DENIED",
      `Figma refused access to ${what} (HTTP 403)${said}.`,
      {
        hint: "Ask the user to share the file with the token's account, or to give the host a token with the file_content:read scope (variables also need file_variables:read on an Enterprise plan).",
        retryable: false,
      },
    );
  }
  if (status === 404) {
    return new ToolFailureError("FILE_NOT_FOUND", `Figma has no ${what} (HTTP 404)${said}.`, {
      hint: "Check the file key: it is the part after /file/ or /design/ in the Figma URL (or pass the whole URL as url).",
      retryable: false,
    });
  }
  if (status === 400) {
    return new ToolFailureError(
      "INVALID_INPUT",
      `Figma refused the request for ${what} (HTTP 400)${said}.`,
      {
        hint: "Check node ids (written 1:23, as in the URL's node-id=1-23) and the other arguments.",
        retryable: false,
      },
    );
  }
  return new ToolFailureError(
    "NETWORK_ERROR",
    `Figma answered HTTP ${status} for ${what}${said}.`,
    {
      hint:
        status >= 500
          ? "Figma's servers failed; try again in a minute."
          : "Check the arguments and try again.",
      retryable: status >= 500,
    },
  );
}

/** A client of Figma's REST API for one host token. */
export class FigmaClient {
  readonly #settings: FigmaClientSettings;
  readonly #origin: string;

  /** @param settings - token, origin, transport and limits */
  constructor(settings: FigmaClientSettings) {
    this.#settings = settings;
    this.#origin = new URL(settings.baseUrl).origin;
  }

  /** The API origin requests go to. */
  get origin(): string {
    return this.#origin;
  }

  /**
   * GETs one API path and parses its JSON.
   *
   * @param path - `/v1/files/KEY` (query included)
   * @param what - what is asked, for messages (`file KEY`)
   * @param signal - the call's signal
   * @returns the parsed body
   */
  async getJson<T>(path: string, what: string, signal?: AbortSignal): Promise<T> {
    const url = new URL(path, this.#origin);
    if (url.origin !== this.#origin) {
      throw new ToolFailureError("BLOCKED", `Refused to send the Figma token to ${url.origin}.`, {
        hint: "This is a bug in the caller: API paths must stay on the configured origin.",
      });
    }
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.#settings.tokenKind === "oauth")
      headers.authorization = `Bearer ${this.#settings.token}`;
    else headers["x-figma-token"] = this.#settings.token;
    let response: HttpResponse;
    try {
      response = await this.#settings.transport({
        url: url.href,
        headers,
        signal: timeoutSignal(signal, this.#settings.requestTimeoutMs),
        maxBytes: this.#settings.maxResponseBytes,
      });
    } catch (error) {
      throw requestError(error, signal, what, this.#settings.requestTimeoutMs);
    }
    if (response.status < 200 || response.status >= 300) throw figmaStatusError(response, what);
    if (response.truncated) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `Figma's answer for ${what} is larger than ${this.#settings.maxResponseBytes} bytes, the most read at once.`,
        {
          hint: "Read fewer levels (depth=1 lists the node's children and their node_ids), then read one of them by node_id.",
        },
      );
    }
    try {
      return JSON.parse(new TextDecoder().decode(response.body)) as T;
    } catch {
      throw new ToolFailureError("NETWORK_ERROR", `Figma's answer for ${what} is not JSON.`, {
        hint: "The host's baseUrl may not point at Figma's API; ask the host to check it.",
        retryable: false,
      });
    }
  }
}

/**
 * Maps a failed request (transport error, abort, timeout) to a coded error.
 *
 * @param error - what the transport threw
 * @param signal - the call's own signal
 * @param what - what was asked
 * @param timeoutMs - the per-request limit
 * @returns the error to throw
 */
export function requestError(
  error: unknown,
  signal: AbortSignal | undefined,
  what: string,
  timeoutMs: number,
): unknown {
  if (signal?.aborted) return error;
  if (ToolFailureError.find(error) !== undefined) return error;
  const name = (error as { name?: string } | undefined)?.name;
  if (name === "TimeoutError" || name === "AbortError") {
    return new ToolFailureError(
      "TIMEOUT",
      `Figma did not answer within ${timeoutMs} ms for ${what}.`,
      {
        hint: "Try again; for a large file read one frame (node_id) or fewer levels (depth).",
        retryable: true,
      },
    );
  }
  return new ToolFailureError(
    "NETWORK_ERROR",
    `Could not reach Figma for ${what} (${error instanceof Error ? error.message : String(error)}).`,
    {
      hint: "Check the network; try again in a moment.",
      retryable: true,
      cause: error,
    },
  );
}
