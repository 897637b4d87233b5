import {
  defineTool,
  fail,
  formatPageMarker,
  isOffsetPastEnd,
  type NextCallValue,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolContext,
  type ToolFailure,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { createUrlPolicy } from "./internal/address-policy.js";
import { type ContentExtractor, createReadabilityExtractor } from "./internal/content-extractor.js";
import type { HtmlConverter } from "./internal/converter.js";
import { type FeedEntry, parseFeed, sniffFeed } from "./internal/feed.js";
import { type ForwardOption, forwardUrl } from "./internal/forward.js";
import { extractHtmlTitle, htmlToMarkdown } from "./internal/html-to-markdown.js";
import {
  createFetchTransport,
  type HttpResponse,
  type HttpTransport,
  WebRequestError,
} from "./internal/http-transport.js";
import { listWords, mountedSet, mountedToolsOption } from "./internal/mounted.js";
import {
  createOriginHeaders,
  type OriginHeaders,
  originHeadersOption,
  transportOption,
  userAgentOption,
  warnUnguardedOnNode,
} from "./internal/options.js";
import { extractPdfWithUnpdf, type PdfTextExtractor } from "./internal/pdf.js";
import {
  createRenderFetch,
  DEFAULT_RENDER_MAX_BYTES,
  DEFAULT_RENDER_MAX_REQUESTS,
  DEFAULT_RENDER_TIMEOUT_MS,
  type PageRenderer,
  renderBudget,
  renderOptionsShape,
  responseHeadersForPage,
  runRenderer,
} from "./internal/render.js";
import {
  DEFAULT_USER_AGENT,
  decodeBody,
  performRequest,
  statusFailure,
} from "./internal/request.js";
import { formatNumber } from "./internal/text.js";
import { TtlCache } from "./internal/ttl-cache.js";

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

/** Default number of feed entries kept. */
export const DEFAULT_MAX_FEED_ENTRIES = 30;

/** Default time-to-live of cached pages: 15 minutes (`0` disables the cache). */
export const DEFAULT_FETCH_CACHE_TTL_MS = 15 * 60_000;

/** Default number of cached pages. */
export const DEFAULT_FETCH_CACHE_ENTRIES = 64;

/** Default time limit of one fetch: 30 s. */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

/** How the response was treated. */
export type WebFetchKind = "html" | "json" | "feed" | "pdf" | "text";

/** A fetched document, whole (before paging). */
export interface FetchedDocument {
  /** The URL asked for (without its fragment). */
  url: string;
  /** The URL after redirects (the target URL when reads are forwarded). */
  final_url: string;
  /** The title (HTML `<title>`, the article's, the feed's or the PDF's), or `""`. */
  title: string;
  /** The Content-Type header (or `""`). */
  content_type: string;
  /** How the response was treated. */
  kind: WebFetchKind;
  /** The readable text: Markdown, pretty JSON, feed entries, PDF text or raw text. */
  text: string;
  /** Whether only the main content of the HTML page was kept (a content extractor matched). */
  main_content: boolean;
  /** Whether the body was longer than the byte cap and was cut (only its beginning was read). */
  body_truncated: boolean;
  /** When it was fetched (ISO 8601). */
  fetched: string;
  /** Feed entries kept (for `kind: "feed"`; at most `maxFeedEntries`). */
  entries?: FeedEntry[];
  /** Entries in the whole feed (for `kind: "feed"`); more than `entries.length` when the host cap kept only the first ones. */
  entries_total?: number;
  /** PDF page count (for `kind: "pdf"`). */
  pages?: number;
  /** Whether the HTML is the page after its JavaScript ran (the `render` option). */
  rendered?: boolean;
}

/** Saves a fetched document and returns its file name (host hook; `./node` writes Markdown files). */
export type PageSaver = (
  document: FetchedDocument,
  context: ToolContext,
) => Promise<string> | string;

/** Options of {@link createWebFetchTool}. */
export interface WebFetchToolOptions {
  /** Replaces the tool's name. Default `"web_fetch"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** How requests are made. Default the global `fetch`; on Node use `createNodeWebFetchTool` (SSRF-guarded). */
  transport?: HttpTransport;
  /** Routes reads through a host proxy: `"…{url}…"`, `"…{urlEncoded}…"`, a prefix, or a function. The model only sees target URLs. */
  forward?: ForwardOption;
  /**
   * Host headers scoped to origins: `[{ origin: "https://gitlab.example.com", headers: { "private-token": "…" } }]`.
   * Each entry's headers go only to requests whose origin (scheme, host, port) is exactly that
   * origin — the URL requested, i.e. the proxy's when `forward` is set — and are dropped on any
   * redirect to another origin. Default none.
   */
  headers?: readonly OriginHeaders[];
  /** The User-Agent of every request. Default the honest `agentool-tools-web/…` one. */
  userAgent?: string;
  /**
   * Without a `transport`, let the model's URLs (and redirects) name private, loopback,
   * link-local, CGNAT and unique-local IP literals and `localhost`. Default `false`. Metadata
   * addresses stay refused.
   */
  allowPrivate?: boolean;
  /** Without a `transport`, hosts reachable whatever they are (`"127.0.0.1:8080"`, `"*.corp.example"`). Default none. */
  allowHosts?: readonly string[];
  /** Receives the one-time warning given on Node when the runtime-neutral `fetch` transport is used. Default `console.warn`. */
  onWarn?: (message: string) => void;
  /** Finds the main content of HTML pages; falls back to the full page. Default: `createReadabilityExtractor()` when `readability` is on. */
  extractor?: ContentExtractor;
  /**
   * Keep only the main content of HTML pages with Readability (optional peers `@mozilla/readability`
   * and `linkedom`; the full page when they are absent or the page has no article). Default `true`;
   * `false` converts whole pages. Ignored when `extractor` is given.
   */
  readability?: boolean;
  /** Names of the tools mounted beside this one; the default description names `web_search` / `wiki_search` only when listed (`createWebTools` passes what it mounts). Default: none. */
  mountedTools?: readonly string[];
  /** Saves every fetched document; its return value (a file name) is shown to the model. */
  save?: PageSaver;
  /** Runs Readability + HTML → Markdown where it can be stopped (`./node` injects a worker thread); used when no `extractor` is given. Default: in-thread. */
  htmlConverter?: HtmlConverter;
  /** Turns PDF bytes into text. Default `unpdf` (optional peer; `DEPENDENCY_MISSING` with an install hint when absent). */
  pdfExtractor?: PdfTextExtractor;
  /** Characters per page when the model sends no `limit`. Default {@link DEFAULT_FETCH_MAX_CHARS} (20,000). */
  defaultMaxChars?: number;
  /** Largest `limit` accepted. Default {@link MAX_FETCH_MAX_CHARS} (100,000). */
  maxMaxChars?: number;
  /** Cap on a body in decoded bytes (HTML, JSON, text, feeds). Default {@link DEFAULT_FETCH_MAX_RESPONSE_BYTES} (5 MiB). */
  maxResponseBytes?: number;
  /** Cap on a PDF body. Default {@link DEFAULT_FETCH_MAX_PDF_BYTES} (20 MiB). */
  maxPdfBytes?: number;
  /** Feed entries kept. Default {@link DEFAULT_MAX_FEED_ENTRIES} (30). */
  maxFeedEntries?: number;
  /** How long a fetched document is reused for the same URL, ms (`0` disables). Default {@link DEFAULT_FETCH_CACHE_TTL_MS} (15 min). */
  cacheTtlMs?: number;
  /** Most documents cached. Default {@link DEFAULT_FETCH_CACHE_ENTRIES} (64). */
  maxCacheEntries?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_FETCH_TIMEOUT_MS} (30 s). */
  timeoutMs?: number;
  /** The clock (for tests). Default `() => new Date()`. */
  now?: () => Date;
  /**
   * Renders HTML pages (runs their JavaScript) before they are read, when the model asks with
   * `render: true` (or always, with `renderByDefault`). The page is first fetched and checked
   * exactly as without it (the URL and every redirect); the renderer gets that response as
   * `context.document` and web_fetch's guarded fetch as `context.fetch`, through which it must
   * send every request the page makes (same address policy, transport, proxy, caps and signal).
   * The rendered HTML then goes through the usual HTML → Markdown pipeline. Only HTML responses
   * are rendered. `createChromiumRenderer` from `@agentool/tools-preview/node` is one. Default none
   * (the model sees no `render` field).
   */
  render?: PageRenderer;
  /** With `render`: render every HTML page unless the model sends `render: false`. Default `false` (the model opts in per call). */
  renderByDefault?: boolean;
  /** Time limit of one render, ms; always kept 1.5 s inside `timeoutMs`. Default 20 s. */
  renderTimeoutMs?: number;
  /** Most requests one render may make through the guarded fetch. Default 150. */
  renderMaxRequests?: number;
  /** Most bytes all requests of one render may read (each is also capped by `maxResponseBytes`). Default 20 MiB. */
  renderMaxBytes?: number;
}

/** What `web_fetch` returns: one page of the document (every key snake_case). */
export interface WebFetchToolData {
  /** The URL asked for. */
  url: string;
  /** The URL after redirects. */
  final_url: string;
  /** The title, or `""`. */
  title: string;
  /** The Content-Type header. */
  content_type: string;
  /** How the response was treated. */
  kind: WebFetchKind;
  /** This page of the text. */
  content: string;
  /** Whether the body is returned as received (`raw: true` was asked). */
  raw: boolean;
  /** 1-based position of this page's first character in the whole text. */
  offset: number;
  /** The page size asked for (characters). */
  limit: number;
  /** Characters in the whole text (of what was read; see `body_truncated`). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether text after this page was left out (`next_offset` gets it). */
  truncated: boolean;
  /** Whether only the main content of the page was kept. */
  main_content: boolean;
  /** Whether the body hit the byte cap and was cut (not reachable by paging). */
  body_truncated: boolean;
  /** Whether this came from the cache. */
  cached: boolean;
  /** When it was fetched (ISO 8601). */
  fetched: string;
  /** Feed entries (for feeds). */
  entries?: FeedEntry[];
  /** Entries in the whole feed (for feeds). */
  entries_total?: number;
  /** PDF pages (for PDFs). */
  pages?: number;
  /** Whether the page was rendered (its JavaScript ran) before it was read; present when the host configured a renderer. */
  rendered?: boolean;
  /** The saved file's name (relative to the save directory), when saving is on. */
  saved_as?: string;
  /** Why saving failed, when it did (the content is still returned). */
  save_error?: string;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  transport: transportOption,
  forward: z
    .union([
      z.string().min(1),
      z.custom<(url: string) => string>((value) => typeof value === "function"),
    ])
    .optional(),
  headers: originHeadersOption,
  userAgent: userAgentOption,
  allowPrivate: z.boolean().optional(),
  allowHosts: z.array(z.string().min(1)).readonly().optional(),
  onWarn: z.custom<(message: string) => void>((value) => typeof value === "function").optional(),
  extractor: z
    .custom<ContentExtractor>((value) => typeof value === "function", {
      error: "expected a function (html, url) => content",
    })
    .optional(),
  save: z
    .custom<PageSaver>((value) => typeof value === "function", {
      error: "expected a function (document, context) => file name",
    })
    .optional(),
  readability: z.boolean().optional(),
  mountedTools: mountedToolsOption,
  pdfExtractor: z.custom<PdfTextExtractor>((value) => typeof value === "function").optional(),
  htmlConverter: z.custom<HtmlConverter>((value) => typeof value === "function").optional(),
  defaultMaxChars: z.number().int().min(500).max(1_000_000).optional(),
  maxMaxChars: z.number().int().min(500).max(1_000_000).optional(),
  maxResponseBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
  maxPdfBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
  maxFeedEntries: z.number().int().min(1).max(1_000).optional(),
  cacheTtlMs: z.number().int().min(0).max(86_400_000).optional(),
  maxCacheEntries: z.number().int().min(0).max(10_000).optional(),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
  now: z.custom<() => Date>((value) => typeof value === "function").optional(),
  ...renderOptionsShape,
});

const RENDER_FIELD = z
  .boolean()
  .optional()
  .describe(
    "Optional: true runs the page's JavaScript in a browser before reading it — for pages built by JavaScript that come back nearly empty. Slower; HTML pages only.",
  );

function createWebFetchInputSchema(
  defaultMaxChars: number,
  maxMaxChars: number,
  render?: { byDefault: boolean },
) {
  const schema = z.object({
    url: z
      .string()
      .describe("The absolute http(s) URL to read, e.g. a link from a page or the user."),
    ...pagingInputShape({
      unit: "character",
      defaultLimit: defaultMaxChars,
      maxLimit: maxMaxChars,
    }),
    raw: z
      .boolean()
      .optional()
      .describe(
        "Optional: true returns the body as received (HTML source, XML) instead of converting it. Default false.",
      ),
    render: RENDER_FIELD,
  });
  if (render === undefined) return schema.omit({ render: true }) as unknown as typeof schema;
  return schema.extend({
    render: RENDER_FIELD.describe(
      `${RENDER_FIELD.description ?? ""} Default ${render.byDefault ? "true: false reads the page as served, faster" : "false"}.`,
    ),
  });
}

/** The fetch tool's input schema (with the default limits in its descriptions). */
export const webFetchInputSchema = createWebFetchInputSchema(
  DEFAULT_FETCH_MAX_CHARS,
  MAX_FETCH_MAX_CHARS,
);

/** The fetch tool's type. */
export type WebFetchTool = Tool<typeof webFetchInputSchema, WebFetchToolData>;

/**
 * Field names other toolsets use for `web_fetch`'s fields, accepted silently: `uri`, `link`,
 * `href` → `url`; `max_chars`, `max_characters` → `limit` (characters per page).
 */
export const WEB_FETCH_ALIASES: Readonly<Record<string, string>> = {
  uri: "url",
  link: "url",
  href: "url",
  max_chars: "limit",
  max_characters: "limit",
};

function defaultDescription(
  defaultMaxChars: number,
  saving: boolean,
  mounted: ReadonlySet<string>,
  render: { byDefault: boolean } | undefined,
): string {
  const sources = ["web_search", "wiki_search"].filter((tool) => mounted.has(tool));
  return [
    "Read a web page or file by URL. The response decides the treatment: HTML becomes Markdown (links absolute; the main article when one is found), JSON is pretty-printed, RSS/Atom feeds become entries (title, url, date, summary), PDFs become text, other text comes raw; binary files are refused.",
    `Long documents come in pages of ${formatNumber(defaultMaxChars)} characters: a cut page ends with the exact call for the next one (offset).`,
    `Use it on URLs ${sources.length > 0 ? `from ${listWords(sources)} results, ` : ""}the user gives, or links from a page. Only public http(s) URLs work.`,
    render === undefined
      ? "Static pages work best; pages built by JavaScript may come back nearly empty — then use another source."
      : render.byDefault
        ? "HTML pages are rendered in a browser (their JavaScript runs) before they are read; render=false reads a page as served, which is faster."
        : "Pages built by JavaScript may come back nearly empty or say JavaScript is needed — then call again with render=true, which runs the page's scripts in a browser first (slower; use it only then).",
    saving
      ? "Every fetched document is also saved as a Markdown file; the result names it so you can search or re-read it later."
      : "",
  ]
    .filter(Boolean)
    .join("\n");
}

const ACCEPT =
  "text/html,application/xhtml+xml,application/json;q=0.9,application/rss+xml,application/atom+xml,application/pdf,text/*;q=0.8,*/*;q=0.5";

function isPdf(body: Uint8Array, contentType: string): boolean {
  if (contentType.includes("application/pdf")) return true;
  // %PDF- within the first 1 KiB (some servers prepend junk).
  const head = body.subarray(0, 1_024);
  for (let index = 0; index + 4 < head.length; index += 1) {
    if (
      head[index] === 0x25 &&
      head[index + 1] === 0x50 &&
      head[index + 2] === 0x44 &&
      head[index + 3] === 0x46 &&
      head[index + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

function looksBinary(body: Uint8Array): boolean {
  const head = body.subarray(0, 4_096);
  let control = 0;
  for (const byte of head) {
    if (byte === 0) return true;
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control += 1;
  }
  return head.length > 0 && control / head.length > 0.1;
}

/** Whether a response will be treated as HTML (what a renderer is given). */
function isHtmlResponse(response: HttpResponse): boolean {
  const contentType = (response.headers["content-type"] ?? "").toLowerCase();
  if (isPdf(response.body, contentType)) return false;
  if (contentType.includes("html")) return true;
  if (/[/+](json|xml)\b/.test(contentType) || contentType.includes("pdf")) return false;
  if (contentType !== "" && !contentType.startsWith("text/")) return false;
  const head = decodeBody(response.body.subarray(0, 1_024), contentType).trimStart();
  return /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head);
}

const MEDIA_TYPES = /^(image|audio|video|font)\//;
const TEXT_TYPES =
  /^text\/|[/+](json|xml|javascript|ecmascript|x-sh|x-yaml|yaml|toml|csv|markdown)\b|^application\/x-www-form-urlencoded/;

function cleanUrl(raw: string): { url: string } | { failure: ToolFailure } {
  const trimmed = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return {
      failure: fail("INVALID_INPUT", `"${trimmed.slice(0, 200)}" is not an absolute URL.`, {
        hint: /^[\w.-]+\.[a-z]{2,}/i.test(trimmed)
          ? `Add the scheme: https://${trimmed.slice(0, 200)}`
          : "Pass a full http(s) URL, e.g. https://example.com/page.",
      }),
    };
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    return {
      failure: fail(
        "BLOCKED",
        `Only http: and https: URLs can be fetched, not ${parsed.protocol}.`,
        {
          hint: "Pass an http(s) URL; local files are read with the file tools, if any.",
        },
      ),
    };
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return {
      failure: fail("BLOCKED", "URLs with embedded credentials (user:password@) are not fetched.", {
        hint: "Remove the credentials from the URL; authenticated access is host configuration.",
      }),
    };
  }
  parsed.hash = "";
  return { url: parsed.href };
}

/** Cuts one page at a 0-based `start`: at a line break near the end when there is one, never inside a surrogate pair, never empty. */
function cutPage(text: string, start: number, maxChars: number): { content: string; end: number } {
  let end = Math.min(text.length, start + maxChars);
  if (end < text.length) {
    const newline = text.lastIndexOf("\n", end - 1);
    if (newline >= start && newline + 1 > start + maxChars * 0.8) end = newline + 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
  }
  return { content: text.slice(start, end), end };
}

/** The arguments the next call must repeat besides `offset`: the url, `raw`, and a non-default `limit`. */
function nextCallArgs(
  data: WebFetchToolData,
  defaultLimit: number,
  renderByDefault: boolean,
): Record<string, NextCallValue> {
  const args: Record<string, NextCallValue> = { url: data.url };
  if (data.raw) args.raw = true;
  if (data.rendered === true && !renderByDefault) args.render = true;
  if (data.rendered === false && renderByDefault && data.kind === "html") args.render = false;
  if (data.limit !== defaultLimit) args.limit = data.limit;
  return args;
}

/**
 * Renders one page of a fetched document: a header (title, final URL, treatment, range, saved
 * file), the content, and the contract's page marker naming the exact next call when text
 * remains (`…[truncated: 64,112 more characters — call web_fetch again with url="…", offset=20001]`).
 *
 * @param data - the fetch tool's data
 * @param toolName - the tool's name, for the marker
 * @param defaultLimit - the tool's default page size (a different `limit` is repeated in the next call)
 * @param renderByDefault - whether the tool renders pages when `render` is not sent (the next call repeats a different choice)
 * @returns model-facing text
 */
export function formatFetchedPage(
  data: WebFetchToolData,
  toolName = WEB_FETCH_TOOL_NAME,
  defaultLimit = DEFAULT_FETCH_MAX_CHARS,
  renderByDefault = false,
): string {
  const rendered = data.rendered === true ? ", rendered" : "";
  const lines: string[] = [];
  if (data.title) lines.push(`# ${data.title}`);
  lines.push(
    `URL: ${data.final_url}${data.final_url !== data.url ? ` (redirected from ${data.url})` : ""}`,
  );
  const feedEntries =
    data.entries_total !== undefined && data.entries_total > (data.entries?.length ?? 0)
      ? `feed, the first ${data.entries?.length ?? 0} of ${data.entries_total} entries (the host keeps no more)`
      : `feed, ${data.entries?.length ?? 0} entries`;
  const treatment: Record<WebFetchKind, string> = {
    html: data.main_content
      ? `HTML → Markdown (main content${rendered})`
      : `HTML → Markdown${rendered ? " (rendered)" : ""}`,
    json: "JSON",
    feed: feedEntries,
    pdf: `PDF → text, ${data.pages ?? 0} pages`,
    text: data.raw
      ? data.rendered === true
        ? "rendered HTML as received"
        : "as received"
      : data.content_type
        ? `text (${data.content_type.split(";")[0]})`
        : "text",
  };
  const range =
    data.total === 0
      ? "0 characters"
      : `characters ${formatNumber(data.offset)}–${formatNumber(data.offset + data.content.length - 1)} of ${formatNumber(data.total)}`;
  lines.push(`Type: ${treatment[data.kind]} · ${range}${data.cached ? " · cached" : ""}`);
  if (data.saved_as !== undefined) lines.push(`Saved as: ${data.saved_as}`);
  if (data.save_error !== undefined) lines.push(`Not saved: ${data.save_error}`);
  if (data.body_truncated)
    lines.push("Note: the response was larger than the size cap; only its beginning was read.");
  lines.push("");
  if (data.total === 0) {
    lines.push(
      data.rendered === false && data.kind === "html"
        ? `(The document is empty: ${data.final_url} returned no readable text. It may be built by JavaScript — call ${toolName} again with render=true — or need a login.)`
        : `(The document is empty: ${data.final_url} returned no readable text. It may be built by JavaScript or need a login; try another source.)`,
    );
  } else {
    lines.push(data.content);
    if (data.next_offset !== undefined) {
      lines.push(
        formatPageMarker({
          tool: toolName,
          nextOffset: data.next_offset,
          omitted: data.total - data.next_offset + 1,
          unit: "characters",
          args: nextCallArgs(data, defaultLimit, renderByDefault),
        }),
      );
    }
  }
  return lines.join("\n");
}

/**
 * Creates `web_fetch`: one tool that reads a URL and lets the response decide the treatment —
 * HTML → Markdown (node-html-markdown; optional main-content extractor with full-page fallback),
 * JSON pretty-printed, RSS/Atom → entries, PDF → text (`unpdf`, optional peer), other text raw,
 * binary refused. Long output is paged by `offset` / `limit` (characters, 1-based); documents
 * are cached per URL for a TTL. Readability keeps the main article by default when its optional
 * peers are installed (`readability: false` converts whole pages).
 *
 * This root factory uses the global `fetch` and does **not** check addresses: on Node, use
 * `createNodeWebFetchTool` from `@agentool/tools-web/node` (SSRF-guarded, saving to a folder).
 *
 * @param options - transport, forward, caps, cache, extractor, saver
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const webFetch = createWebFetchTool({ forward: "/api/proxy?url={urlEncoded}" });
 * await webFetch.run({ url: "https://example.com/" });
 */
export function createWebFetchTool(options?: WebFetchToolOptions): WebFetchTool {
  const parsed = parseOptions("createWebFetchTool", optionsSchema, options);
  const defaultMaxChars = parsed.defaultMaxChars ?? DEFAULT_FETCH_MAX_CHARS;
  const maxMaxChars = Math.max(parsed.maxMaxChars ?? MAX_FETCH_MAX_CHARS, defaultMaxChars);
  const maxResponseBytes = parsed.maxResponseBytes ?? DEFAULT_FETCH_MAX_RESPONSE_BYTES;
  const maxPdfBytes = parsed.maxPdfBytes ?? DEFAULT_FETCH_MAX_PDF_BYTES;
  const maxFeedEntries = parsed.maxFeedEntries ?? DEFAULT_MAX_FEED_ENTRIES;
  const forward = parsed.forward as ForwardOption | undefined;
  // Without a host transport, the model's URL (and, without a proxy, every redirect hop) is
  // checked by address literal and name; a guarded transport checks the connected address.
  const urlPolicy =
    parsed.transport === undefined
      ? createUrlPolicy({
          ...(parsed.allowPrivate === undefined ? {} : { allowPrivate: parsed.allowPrivate }),
          ...(parsed.allowHosts === undefined ? {} : { allowHosts: parsed.allowHosts }),
        })
      : undefined;
  if (parsed.transport === undefined && forward === undefined) warnUnguardedOnNode(parsed.onWarn);
  const transport =
    parsed.transport ??
    createFetchTransport(
      forward === undefined && urlPolicy !== undefined ? { checkUrl: urlPolicy } : {},
    );
  const userAgent = parsed.userAgent ?? DEFAULT_USER_AGENT;
  const headersFor = createOriginHeaders(parsed.headers, {
    "user-agent": userAgent,
    accept: ACCEPT,
  });
  const extractor =
    parsed.extractor ?? (parsed.readability === false ? undefined : createReadabilityExtractor());
  const mounted = mountedSet(parsed.name ?? WEB_FETCH_TOOL_NAME, parsed.mountedTools);
  const save = parsed.save;
  const pdfExtractor = parsed.pdfExtractor ?? extractPdfWithUnpdf;
  const htmlConverter = parsed.htmlConverter;
  const now = parsed.now ?? (() => new Date());
  const cache = new TtlCache<FetchedDocument>(
    parsed.cacheTtlMs ?? DEFAULT_FETCH_CACHE_TTL_MS,
    parsed.maxCacheEntries ?? DEFAULT_FETCH_CACHE_ENTRIES,
  );
  const name = parsed.name ?? WEB_FETCH_TOOL_NAME;
  const renderer = parsed.render;
  const renderByDefault = parsed.renderByDefault === true;
  const renderSetting = renderer === undefined ? undefined : { byDefault: renderByDefault };
  const toolTimeoutMs = parsed.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;

  async function toDocument(
    url: string,
    response: HttpResponse,
    raw: boolean,
    signal: AbortSignal,
  ): Promise<ToolResult<FetchedDocument>> {
    const contentType = (response.headers["content-type"] ?? "").toLowerCase();
    const finalUrl = forward === undefined ? response.url || url : url;
    const base = {
      url,
      final_url: finalUrl,
      content_type: response.headers["content-type"] ?? "",
      main_content: false,
      body_truncated: response.truncated,
      fetched: now().toISOString(),
    };
    const body = response.body;
    if (isPdf(body, contentType)) {
      if (response.truncated) {
        return fail(
          "TOO_LARGE",
          `The PDF at ${finalUrl} is larger than ${formatNumber(maxPdfBytes)} bytes.`,
          {
            hint: "Look for an HTML version of the document, or ask the host to raise maxPdfBytes.",
          },
        );
      }
      try {
        const pdf = await pdfExtractor(body, signal);
        return ok({
          ...base,
          title: pdf.title ?? "",
          kind: "pdf",
          text: pdf.text.trim(),
          pages: pdf.pages,
        });
      } catch (error) {
        const known = WebRequestError.find(error);
        if (known !== undefined)
          return fail(
            known.code,
            known.message,
            known.hint === undefined ? {} : { hint: known.hint },
          );
        return fail(
          "UNSUPPORTED",
          `Could not read the PDF at ${finalUrl}: ${error instanceof Error ? error.message : String(error)}.`,
          {
            hint: "The file may be damaged, encrypted or scanned images without text; use another source.",
          },
        );
      }
    }
    const textual = TEXT_TYPES.test(contentType) || contentType.includes("html");
    if (!textual && (MEDIA_TYPES.test(contentType) || looksBinary(body))) {
      return fail(
        "UNSUPPORTED",
        `${finalUrl} is a binary file (${contentType || "unknown type"}), which ${name} cannot read.`,
        {
          hint: "Only HTML, JSON, feeds, PDFs and text can be read; look for a text version of this content.",
        },
      );
    }
    const text = decodeBody(body, contentType);
    if (raw) return ok({ ...base, title: "", kind: "text", text });
    const trimmed = text.trimStart();
    const jsonType = /[/+]json\b/.test(contentType);
    const htmlType = contentType.includes("html");
    if (jsonType || (!htmlType && /^[[{]/.test(trimmed))) {
      try {
        const value: unknown = JSON.parse(text);
        return ok({ ...base, title: "", kind: "json", text: JSON.stringify(value, null, 2) });
      } catch {
        if (jsonType) return ok({ ...base, title: "", kind: "text", text });
      }
    }
    const feedFormat = sniffFeed(trimmed);
    if (feedFormat !== undefined || /(rss|atom)\+xml/.test(contentType)) {
      const feed = parseFeed(text, { baseUrl: finalUrl });
      if (feed !== undefined) {
        const entries = feed.entries.slice(0, maxFeedEntries);
        const lines = entries.map(
          (entry, index) =>
            `${index + 1}. ${entry.title}${entry.url ? `\n   ${entry.url}` : ""}${entry.date ? `\n   ${entry.date}` : ""}${entry.summary ? `\n   ${entry.summary}` : ""}`,
        );
        return ok({
          ...base,
          title: feed.title,
          kind: "feed",
          text: lines.join("\n"),
          entries,
          entries_total: feed.entries.length,
        });
      }
    }
    const isHtml =
      htmlType ||
      (!jsonType && /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(trimmed));
    if (isHtml) {
      let title = extractHtmlTitle(text) ?? "";
      if (htmlConverter !== undefined && parsed.extractor === undefined) {
        let converted: Awaited<ReturnType<HtmlConverter>>;
        try {
          converted = await htmlConverter(
            { html: text, url: finalUrl, readability: parsed.readability !== false },
            signal,
          );
        } catch (error) {
          if (signal.aborted) throw error;
          const known = WebRequestError.find(error);
          return fail(
            known?.code ?? "UNSUPPORTED",
            known?.message ??
              `Could not convert ${finalUrl}: ${error instanceof Error ? error.message : String(error)}.`,
            { hint: known?.hint ?? "Use another source for this content, or raw=true." },
          );
        }
        return ok({
          ...base,
          title: converted.title || title,
          kind: "html",
          text: converted.markdown,
          main_content: converted.mainContent,
        });
      }
      let html = text;
      let mainContent = false;
      if (extractor !== undefined) {
        try {
          const extracted = await extractor(text, finalUrl);
          if (extracted !== undefined && extracted.html.trim().length > 0) {
            html = extracted.html;
            mainContent = true;
            if (extracted.title) title = extracted.title;
          }
        } catch {
          // the extractor failed: fall back to the full page
        }
      }
      return ok({
        ...base,
        title,
        kind: "html",
        text: htmlToMarkdown(html, finalUrl),
        main_content: mainContent,
      });
    }
    return ok({ ...base, title: "", kind: "text", text });
  }

  return defineTool({
    name,
    description:
      parsed.description ??
      defaultDescription(defaultMaxChars, save !== undefined, mounted, renderSetting),
    input: createWebFetchInputSchema(defaultMaxChars, maxMaxChars, renderSetting),
    aliases: WEB_FETCH_ALIASES,
    annotations: { title: "Fetch a web page", readOnly: true, openWorld: true },
    tags: ["web", "web:fetch", "network"],
    timeoutMs: toolTimeoutMs,
    async execute(input, context) {
      const startedAt = Date.now();
      const cleaned = cleanUrl(input.url);
      if ("failure" in cleaned) return cleaned.failure;
      const url = cleaned.url;
      const raw = input.raw ?? false;
      const wantsRender = renderer !== undefined && (input.render ?? renderByDefault);
      const cacheKey = `${raw ? "raw" : "doc"}${wantsRender ? " rendered" : ""} ${url}`;
      let document = cache.get(cacheKey);
      const cached = document !== undefined;
      if (document === undefined) {
        if (urlPolicy !== undefined) {
          try {
            urlPolicy(new URL(url));
          } catch (error) {
            const known = WebRequestError.find(error);
            if (known === undefined) throw error;
            return fail(known.code, known.message, {
              ...(known.hint === undefined ? {} : { hint: known.hint }),
              retryable: false,
            });
          }
        }
        let target: string;
        try {
          target = forwardUrl(forward, url);
        } catch (error) {
          return fail(
            "NOT_CONFIGURED",
            `The host's forward option failed: ${error instanceof Error ? error.message : String(error)}.`,
            {
              hint: "Ask the host to fix the web_fetch forward option.",
            },
          );
        }
        const outcome = await performRequest(
          transport,
          {
            url: target,
            headers: headersFor(target),
            signal: context.signal,
            maxBytes: maxResponseBytes,
            maxBytesForType: (contentType) =>
              contentType.toLowerCase().includes("application/pdf")
                ? maxPdfBytes
                : maxResponseBytes,
          },
          url,
        );
        if (!outcome.ok) return outcome.failure;
        const status = outcome.response.status;
        if (status < 200 || status >= 300) return statusFailure(outcome.response, url);
        let response = outcome.response;
        let rendered = false;
        if (wantsRender && renderer !== undefined && isHtmlResponse(response)) {
          const pageUrl = forward === undefined ? response.url || url : url;
          const pageDocument = {
            url: pageUrl,
            status: response.status,
            statusText: response.statusText ?? "",
            headers: responseHeadersForPage(response.headers),
            body: response.body,
          };
          const outcomeOfRender = await runRenderer(
            renderer,
            pageUrl,
            (signal) => ({
              fetch: createRenderFetch({
                transport,
                urlPolicy: forward === undefined ? urlPolicy : undefined,
                forward,
                userAgent,
                maxResponseBytes,
                maxRequests: parsed.renderMaxRequests ?? DEFAULT_RENDER_MAX_REQUESTS,
                maxBytes: parsed.renderMaxBytes ?? DEFAULT_RENDER_MAX_BYTES,
                signal,
              }),
              document: pageDocument,
            }),
            {
              signal: context.signal,
              budgetMs: renderBudget(
                parsed.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
                toolTimeoutMs,
                startedAt,
                Date.now(),
              ),
              toolName: name,
            },
          );
          if (!outcomeOfRender.ok) return outcomeOfRender.failure;
          let html = new TextEncoder().encode(outcomeOfRender.value.html);
          const cut = html.byteLength > maxResponseBytes;
          if (cut) html = html.subarray(0, maxResponseBytes);
          response = {
            ...response,
            url: forward === undefined ? (outcomeOfRender.value.url ?? pageUrl) : response.url,
            headers: { ...response.headers, "content-type": "text/html; charset=utf-8" },
            body: html,
            truncated: response.truncated || cut,
          };
          rendered = true;
        }
        const converted = await toDocument(url, response, raw, context.signal);
        if (!converted.success) return converted;
        document = converted.data;
        if (renderer !== undefined) document.rendered = rendered;
        cache.set(cacheKey, document);
      }
      const offset = input.offset ?? 1;
      const limit = input.limit ?? defaultMaxChars;
      const total = document.text.length;
      if (isOffsetPastEnd(offset, total)) {
        return offsetPastEnd({ tool: name, offset, total, unit: "characters" });
      }
      const page = cutPage(document.text, offset - 1, limit);
      const data: WebFetchToolData = {
        url: document.url,
        final_url: document.final_url,
        title: document.title,
        content_type: document.content_type,
        kind: document.kind,
        raw,
        content: page.content,
        offset,
        limit,
        total,
        truncated: page.end < total,
        main_content: document.main_content,
        body_truncated: document.body_truncated,
        cached,
        fetched: document.fetched,
      };
      if (page.end < total) data.next_offset = page.end + 1;
      if (document.entries !== undefined) data.entries = document.entries;
      if (document.entries_total !== undefined) data.entries_total = document.entries_total;
      if (document.pages !== undefined) data.pages = document.pages;
      if (document.rendered !== undefined) data.rendered = document.rendered;
      if (save !== undefined && !raw) {
        try {
          data.saved_as = await save(document, context);
        } catch (error) {
          data.save_error = error instanceof Error ? error.message : String(error);
        }
      }
      return ok(data);
    },
    render: (data) => formatFetchedPage(data, name, defaultMaxChars, renderByDefault),
  });
}
