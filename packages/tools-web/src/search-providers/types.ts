import { fail, type ToolResult } from "@agentool/contract";
import type { HttpTransport } from "../internal/http-transport.js";
import { parseJsonBody, performRequest } from "../internal/request.js";
import { clip, httpUrl, stripTags } from "../internal/text.js";

/** One web search result. */
export interface SearchResult {
  /** The page title (plain text). */
  title: string;
  /** The page URL (absolute http/https). */
  url: string;
  /** A short extract (plain text; may be empty). */
  snippet: string;
}

/** What a provider found. */
export interface SearchResponse {
  /** Results in rank order, malformed items dropped. */
  results: SearchResult[];
  /** Direct answers (answer boxes, instant answers), when the engine gives any. */
  answers: string[];
  /** Suggested other queries, when the engine gives any. */
  suggestions: string[];
  /** How many malformed items were dropped. */
  dropped: number;
}

/** What a provider's `search` receives. */
export interface SearchRequest {
  /** The query as the model wrote it (trimmed). */
  query: string;
  /** How many results to ask for (1–10). */
  limit: number;
  /** Cancels the request. */
  signal: AbortSignal;
  /** The transport to use. */
  transport: HttpTransport;
  /** Headers the host configured for every request (User-Agent…). */
  headers: Record<string, string>;
  /** Cap on the response body, bytes. */
  maxBytes: number;
  /**
   * Only results from these hosts or their subdomains (bare, lower-case host names; absent for
   * any). A provider maps them to its engine's syntax where it has one; `web_search` filters the
   * results afterwards either way.
   */
  allowedDomains?: readonly string[];
  /** Never results from these hosts or their subdomains (mapped and filtered like `allowedDomains`). */
  blockedDomains?: readonly string[];
}

/** A search engine behind `web_search`. Keys live in the provider (host configuration). */
export interface SearchProvider {
  /** A short name shown in results and messages, e.g. `"serper"`. */
  readonly name: string;
  /** Runs one search; never throws (failures are envelopes). */
  search(request: SearchRequest): Promise<ToolResult<SearchResponse>>;
}

/** Most characters kept of one snippet. */
export const MAX_SNIPPET_CHARACTERS = 500;

/**
 * Normalises one raw result item; `undefined` when it is malformed (no usable http(s) URL).
 *
 * @param title - the raw title
 * @param url - the raw URL
 * @param snippet - the raw snippet (may hold HTML such as `<strong>`)
 * @returns the result or `undefined`
 */
export function normalizeResult(
  title: unknown,
  url: unknown,
  snippet: unknown,
): SearchResult | undefined {
  const href = httpUrl(url);
  if (href === undefined) return undefined;
  const cleanTitle = typeof title === "string" ? stripTags(title) : "";
  const cleanSnippet =
    typeof snippet === "string" ? clip(stripTags(snippet), MAX_SNIPPET_CHARACTERS) : "";
  return { title: cleanTitle || href, url: href, snippet: cleanSnippet };
}

/**
 * Maps a list of raw items to results, dropping malformed ones one by one.
 *
 * @param items - the raw list (anything)
 * @param pick - reads title, url and snippet of one item
 * @returns the results and how many were dropped
 */
export function collectResults(
  items: unknown,
  pick: (item: Record<string, unknown>) => [unknown, unknown, unknown],
): { results: SearchResult[]; dropped: number } {
  const results: SearchResult[] = [];
  let dropped = 0;
  if (!Array.isArray(items)) return { results, dropped };
  for (const item of items) {
    if (typeof item !== "object" || item === null) {
      dropped += 1;
      continue;
    }
    const result = normalizeResult(...pick(item as Record<string, unknown>));
    if (result === undefined) dropped += 1;
    else results.push(result);
  }
  return { results, dropped };
}

/**
 * Sends a provider request and parses its JSON, mapping HTTP and protocol failures to envelopes:
 * 401/403 → `NOT_CONFIGURED` (the host's key), 429 and 5xx → retryable `NETWORK_ERROR`.
 *
 * @param provider - the provider's name (for messages)
 * @param request - the search request
 * @param http - URL, method, headers and body
 * @returns the parsed JSON or a failure
 */
export async function requestProviderJson(
  provider: string,
  request: SearchRequest,
  http: { url: string; method?: "GET" | "POST"; headers?: Record<string, string>; body?: string },
  notConfiguredHint = "Ask the host to check the search provider's API key and endpoint.",
): Promise<ToolResult<unknown>> {
  const outcome = await performRequest(
    request.transport,
    {
      url: http.url,
      method: http.method ?? "GET",
      headers: { accept: "application/json", ...request.headers, ...http.headers },
      ...(http.body === undefined ? {} : { body: http.body }),
      signal: request.signal,
      maxBytes: request.maxBytes,
    },
    `the ${provider} search service`,
    "The search service may be down or unreachable from here; try again in a moment.",
  );
  if (!outcome.ok) return outcome.failure;
  const { response } = outcome;
  if (response.status === 401 || response.status === 403) {
    return fail(
      "NOT_CONFIGURED",
      `The ${provider} search service refused the request (HTTP ${response.status}).`,
      {
        hint: notConfiguredHint,
        retryable: false,
      },
    );
  }
  if (response.status === 429) {
    return fail(
      "NETWORK_ERROR",
      `The ${provider} search service is rate-limiting requests (HTTP 429).`,
      {
        hint: "Wait a little and search again.",
        retryable: true,
      },
    );
  }
  if (response.status < 200 || response.status >= 300) {
    return fail(
      "NETWORK_ERROR",
      `The ${provider} search service answered HTTP ${response.status}.`,
      {
        hint:
          response.status >= 500
            ? "Try again in a moment."
            : "Ask the host to check the search provider's endpoint.",
        retryable: response.status >= 500,
      },
    );
  }
  if (response.truncated) {
    return fail(
      "TOO_LARGE",
      `The ${provider} search response was larger than ${request.maxBytes} bytes.`,
      {
        hint: "Search again with a smaller limit.",
      },
    );
  }
  const json = parseJsonBody(response);
  if (typeof json !== "object" || json === null) {
    return fail(
      "NOT_CONFIGURED",
      `The ${provider} search service did not answer with JSON: its endpoint does not speak the ${provider} API.`,
      {
        hint: "Ask the host to check the search provider's endpoint (it must speak the provider's JSON API).",
        retryable: false,
      },
    );
  }
  return { success: true, data: json };
}
