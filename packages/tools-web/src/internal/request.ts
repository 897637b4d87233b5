import { fail, type ToolFailure } from "@agentool/contract";
import {
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  WebRequestError,
} from "./http-transport.js";

/** The default User-Agent: honest and self-identifying. Hosts may replace it through headers. */
export const DEFAULT_USER_AGENT =
  "agentool-tools-web/0.1 (LLM agent tool; honours robots by policy of its host)";

/** The outcome of {@link performRequest}. */
export type RequestOutcome =
  | { ok: true; response: HttpResponse }
  | { ok: false; failure: ToolFailure };

/**
 * The message of a transport's throw with its cause's (`fetch failed (connect ECONNREFUSED …)`).
 * Not the contract's `errorMessage`: that one drops the cause and turns an empty message into the
 * error's name, and the model has always read this text.
 */
function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const causeText =
      cause instanceof Error && cause.message && cause.message !== error.message
        ? ` (${cause.message})`
        : "";
    return `${error.message}${causeText}`;
  }
  return String(error);
}

/** The hint of a network failure when the model gave the URL (web_fetch). */
export const URL_NETWORK_HINT =
  "Check the URL; if it is right, the site may be down or unreachable from here — try again later or use another source.";

/**
 * Runs a request through a transport and turns every throw into a failure envelope.
 *
 * @param transport - the transport
 * @param request - the request
 * @param what - what is being requested, for messages (e.g. "https://example.com/")
 * @param networkHint - the hint of a network failure (default: check the URL — right only when the model gave it)
 * @returns the response or a failure
 */
export async function performRequest(
  transport: HttpTransport,
  request: HttpRequest,
  what: string,
  networkHint = URL_NETWORK_HINT,
): Promise<RequestOutcome> {
  try {
    const response = await transport(request);
    return { ok: true, response };
  } catch (error) {
    // A transport's coded failure (BLOCKED, TOO_LARGE…) keeps its code and hint; the outcome is
    // returned, not thrown, because wiki_search reports one language's failure beside the others.
    const known = WebRequestError.find(error);
    if (known !== undefined) return { ok: false, failure: known.toFailure() };
    if (request.signal?.aborted) {
      return {
        ok: false,
        failure: fail("ABORTED", `The request to ${what} was cancelled.`, { retryable: true }),
      };
    }
    return {
      ok: false,
      failure: fail("NETWORK_ERROR", `Could not reach ${what}: ${describeError(error)}.`, {
        hint: networkHint,
        retryable: true,
      }),
    };
  }
}

/**
 * Describes a non-2xx status as a failure: always `NETWORK_ERROR` (the contract's code for "the
 * network answered with an error status"), naming the status; `retryable` for 429 and 5xx.
 *
 * @param response - the response
 * @param what - what was requested
 * @param hint - replaces the hint (for requests whose URL the model did not write)
 * @returns the failure
 */
export function statusFailure(response: HttpResponse, what: string, hint?: string): ToolFailure {
  const failure = describeStatus(response, what);
  if (hint !== undefined) failure.error.hint = hint;
  return failure;
}

function describeStatus(response: HttpResponse, what: string): ToolFailure {
  const status = response.status;
  const label = `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (status === 404 || status === 410) {
    return fail("NETWORK_ERROR", `${what} answered ${label}: the page does not exist.`, {
      hint: "Check the URL for typos, or search for the page's current address.",
      retryable: false,
    });
  }
  if (status === 401 || status === 403) {
    return fail("NETWORK_ERROR", `${what} answered ${label}: access is refused.`, {
      hint: "The page needs a login or blocks automated readers; use another source.",
      retryable: false,
    });
  }
  if (status === 429) {
    return fail("NETWORK_ERROR", `${what} answered ${label}: too many requests.`, {
      hint: "Wait a little before trying again, or use another source.",
      retryable: true,
    });
  }
  if (status >= 500) {
    return fail("NETWORK_ERROR", `${what} answered ${label}: the server failed.`, {
      hint: "Try again later, or use another source.",
      retryable: true,
    });
  }
  return fail("NETWORK_ERROR", `${what} answered ${label}.`, {
    hint: "Check the URL, or use another source.",
    retryable: false,
  });
}

const utf8 = new TextDecoder("utf-8");

/**
 * Decodes a body as text, using the charset of the content type when the runtime knows it.
 *
 * @param body - the bytes
 * @param contentType - the Content-Type header
 * @returns the text
 */
export function decodeBody(body: Uint8Array, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    try {
      return new TextDecoder(charset).decode(body);
    } catch {
      // unknown label: fall back to UTF-8
    }
  }
  return utf8.decode(body);
}

/**
 * Parses a JSON body, or returns `undefined` when it is not JSON.
 *
 * @param response - the response
 * @returns the parsed value or `undefined`
 */
export function parseJsonBody(response: HttpResponse): unknown {
  try {
    return JSON.parse(decodeBody(response.body, response.headers["content-type"] ?? ""));
  } catch {
    return undefined;
  }
}
