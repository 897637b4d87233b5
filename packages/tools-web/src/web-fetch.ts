import {
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  type ToolContext,
  type ToolFailure,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import type { ContentExtractor } from "./internal/content-extractor.js";
import { type FeedEntry, parseFeed, sniffFeed } from "./internal/feed.js";
import { type ForwardOption, forwardUrl } from "./internal/forward.js";
import { extractHtmlTitle, htmlToMarkdown } from "./internal/html-to-markdown.js";
import {
  createFetchTransport,
  type HttpResponse,
  type HttpTransport,
  WebRequestError,
} from "./internal/http-transport.js";
import { buildHeaders, headersOption, transportOption } from "./internal/options.js";
import { extractPdfWithUnpdf, type PdfTextExtractor } from "./internal/pdf.js";
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

/** Characters per page when the model sends no `max_chars`. */
export const DEFAULT_FETCH_MAX_CHARS = 20_000;

/** Largest `max_chars` a model may ask for. */
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
  finalUrl: string;
  /** The title (HTML `<title>`, the article's, the feed's or the PDF's), or `""`. */
  title: string;
  /** The Content-Type header (or `""`). */
  contentType: string;
  /** How the response was treated. */
  kind: WebFetchKind;
  /** The readable text: Markdown, pretty JSON, feed entries, PDF text or raw text. */
  text: string;
  /** Whether only the main content of the HTML page was kept (a content extractor matched). */
  mainContent: boolean;
  /** Whether the body was longer than the byte cap and was cut. */
  truncatedBody: boolean;
  /** When it was fetched (ISO 8601). */
  fetched: string;
  /** Feed entries (for `kind: "feed"`). */
  entries?: FeedEntry[];
  /** PDF page count (for `kind: "pdf"`). */
  pages?: number;
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
  /** Headers sent with every request (host configuration). A `user-agent` here replaces the honest default. */
  headers?: Record<string, string>;
  /** Finds the main content of HTML pages (e.g. `createReadabilityExtractor()`); falls back to the full page. Default none. */
  extractor?: ContentExtractor;
  /** Saves every fetched document; its return value (a file name) is shown to the model. */
  save?: PageSaver;
  /** Turns PDF bytes into text. Default `unpdf` (optional peer; `DEPENDENCY_MISSING` with an install hint when absent). */
  pdfExtractor?: PdfTextExtractor;
  /** Characters per page when the model sends no `max_chars`. Default {@link DEFAULT_FETCH_MAX_CHARS} (20,000). */
  defaultMaxChars?: number;
  /** Largest `max_chars` accepted. Default {@link MAX_FETCH_MAX_CHARS} (100,000). */
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
}

/** What `web_fetch` returns: one page of the document. */
export interface WebFetchToolData {
  /** The URL asked for. */
  url: string;
  /** The URL after redirects. */
  finalUrl: string;
  /** The title, or `""`. */
  title: string;
  /** The Content-Type header. */
  contentType: string;
  /** How the response was treated. */
  kind: WebFetchKind;
  /** This page of the text. */
  content: string;
  /** Where this page starts (characters). */
  offset: number;
  /** Characters in the whole text. */
  totalChars: number;
  /** The `offset` of the next page, when text remains. */
  nextOffset?: number;
  /** Whether only the main content of the page was kept. */
  mainContent: boolean;
  /** Whether the body hit the byte cap and was cut. */
  truncatedBody: boolean;
  /** Whether this came from the cache. */
  cached: boolean;
  /** When it was fetched (ISO 8601). */
  fetched: string;
  /** Feed entries (for feeds). */
  entries?: FeedEntry[];
  /** PDF pages (for PDFs). */
  pages?: number;
  /** The saved file's name (relative to the save directory), when saving is on. */
  savedAs?: string;
  /** Why saving failed, when it did (the content is still returned). */
  saveError?: string;
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
  headers: headersOption,
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
  pdfExtractor: z.custom<PdfTextExtractor>((value) => typeof value === "function").optional(),
  defaultMaxChars: z.number().int().min(500).max(1_000_000).optional(),
  maxMaxChars: z.number().int().min(500).max(1_000_000).optional(),
  maxResponseBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
  maxPdfBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
  maxFeedEntries: z.number().int().min(1).max(1_000).optional(),
  cacheTtlMs: z.number().int().min(0).max(86_400_000).optional(),
  maxCacheEntries: z.number().int().min(0).max(10_000).optional(),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
  now: z.custom<() => Date>((value) => typeof value === "function").optional(),
});

function createWebFetchInputSchema(defaultMaxChars: number, maxMaxChars: number) {
  return z.object({
    url: z.string().describe("The absolute http(s) URL to read, e.g. a search result's URL."),
    max_chars: z
      .number()
      .int()
      .min(500)
      .max(maxMaxChars)
      .optional()
      .describe(
        `Optional: most characters to return (default ${defaultMaxChars}, at most ${maxMaxChars}).`,
      ),
    offset: z
      .number()
      .int()
      .min(0)
      .max(1_000_000_000)
      .optional()
      .describe(
        "Optional: the character offset to start at (default 0). Use the offset a previous page names to continue.",
      ),
    raw: z
      .boolean()
      .optional()
      .describe(
        "Optional: true returns the body as received (HTML source, XML) instead of converting it. Default false.",
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

function defaultDescription(defaultMaxChars: number, saving: boolean): string {
  return [
    "Read a web page or file by URL. The response decides the treatment: HTML becomes Markdown (links absolute), JSON is pretty-printed, RSS/Atom feeds become entries (title, url, date, summary), PDFs become text, other text comes raw; binary files are refused.",
    `Long documents come in pages of ${formatNumber(defaultMaxChars)} characters: the page ends with the offset to pass next.`,
    "Use it on URLs from web_search or wiki_search, or ones the user gives. Only public http(s) URLs work.",
    "Static pages work best; pages built by JavaScript may come back nearly empty — then use another source.",
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

function cutPage(text: string, offset: number, maxChars: number): { content: string; end: number } {
  let end = Math.min(text.length, offset + maxChars);
  if (end < text.length) {
    const newline = text.lastIndexOf("\n", end);
    if (newline > offset + maxChars * 0.8) end = newline + 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  }
  return { content: text.slice(offset, end), end };
}

/**
 * Renders one page of a fetched document: a header (title, final URL, treatment, size, saved
 * file), the content, and the standard marker with the next offset when text remains.
 *
 * @param data - the fetch tool's data
 * @param toolName - the tool's name, for the marker
 * @returns model-facing text
 */
export function formatFetchedPage(data: WebFetchToolData, toolName = WEB_FETCH_TOOL_NAME): string {
  const lines: string[] = [];
  if (data.title) lines.push(`# ${data.title}`);
  lines.push(
    `URL: ${data.finalUrl}${data.finalUrl !== data.url ? ` (redirected from ${data.url})` : ""}`,
  );
  const treatment: Record<WebFetchKind, string> = {
    html: data.mainContent ? "HTML → Markdown (main content)" : "HTML → Markdown",
    json: "JSON",
    feed: `feed, ${data.entries?.length ?? 0} entries`,
    pdf: `PDF → text, ${data.pages ?? 0} pages`,
    text: data.contentType ? `text (${data.contentType.split(";")[0]})` : "text",
  };
  const range =
    data.totalChars === 0
      ? "0 characters"
      : `characters ${formatNumber(data.offset)}–${formatNumber(data.offset + data.content.length)} of ${formatNumber(data.totalChars)}`;
  lines.push(`Type: ${treatment[data.kind]} · ${range}${data.cached ? " · cached" : ""}`);
  if (data.savedAs !== undefined) lines.push(`Saved as: ${data.savedAs}`);
  if (data.saveError !== undefined) lines.push(`Not saved: ${data.saveError}`);
  if (data.truncatedBody)
    lines.push("Note: the response was larger than the size cap; only its beginning was read.");
  lines.push("");
  if (data.totalChars === 0) {
    lines.push(
      `(The document is empty: ${data.finalUrl} returned no readable text. It may be built by JavaScript or need a login; try another source.)`,
    );
  } else {
    lines.push(data.content);
    if (data.nextOffset !== undefined) {
      lines.push(
        formatTruncationMarker({
          omitted: data.totalChars - data.nextOffset,
          unit: "characters",
          next: `call ${toolName} again with the same url and offset=${data.nextOffset}`,
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
 * binary refused. Long output is paged by `offset`; documents are cached per URL for a TTL.
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
  const transport = parsed.transport ?? createFetchTransport();
  const headers = { ...buildHeaders(parsed.headers, DEFAULT_USER_AGENT) };
  headers.accept ??= ACCEPT;
  const extractor = parsed.extractor;
  const save = parsed.save;
  const pdfExtractor = parsed.pdfExtractor ?? extractPdfWithUnpdf;
  const now = parsed.now ?? (() => new Date());
  const cache = new TtlCache<FetchedDocument>(
    parsed.cacheTtlMs ?? DEFAULT_FETCH_CACHE_TTL_MS,
    parsed.maxCacheEntries ?? DEFAULT_FETCH_CACHE_ENTRIES,
  );
  const name = parsed.name ?? WEB_FETCH_TOOL_NAME;
  const forward = parsed.forward as ForwardOption | undefined;

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
      finalUrl,
      contentType: response.headers["content-type"] ?? "",
      mainContent: false,
      truncatedBody: response.truncated,
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
        `${finalUrl} is a binary file (${contentType || "unknown type"}), which web_fetch cannot read.`,
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
        if (feed.entries.length > entries.length) {
          lines.push(
            formatTruncationMarker({
              omitted: feed.entries.length - entries.length,
              unit: "entries",
              next: "only the newest entries are listed",
            }),
          );
        }
        return ok({ ...base, title: feed.title, kind: "feed", text: lines.join("\n"), entries });
      }
    }
    const isHtml =
      htmlType ||
      (!jsonType && /^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(trimmed));
    if (isHtml) {
      let title = extractHtmlTitle(text) ?? "";
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
        mainContent,
      });
    }
    return ok({ ...base, title: "", kind: "text", text });
  }

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(defaultMaxChars, save !== undefined),
    input: createWebFetchInputSchema(defaultMaxChars, maxMaxChars),
    annotations: { title: "Fetch a web page", readOnly: true, openWorld: true },
    tags: ["web", "web:fetch", "network"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
    async execute(input, context) {
      const cleaned = cleanUrl(input.url);
      if ("failure" in cleaned) return cleaned.failure;
      const url = cleaned.url;
      const raw = input.raw ?? false;
      const cacheKey = `${raw ? "raw" : "doc"} ${url}`;
      let document = cache.get(cacheKey);
      const cached = document !== undefined;
      if (document === undefined) {
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
            headers,
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
        const converted = await toDocument(url, outcome.response, raw, context.signal);
        if (!converted.success) return converted;
        document = converted.data;
        cache.set(cacheKey, document);
      }
      const offset = input.offset ?? 0;
      const maxChars = input.max_chars ?? defaultMaxChars;
      if (offset > 0 && offset >= document.text.length) {
        return fail(
          "INVALID_INPUT",
          `offset=${offset} is past the end of the document (${formatNumber(document.text.length)} characters).`,
          {
            hint: `Call ${name} again with an offset below ${document.text.length}, or offset=0 for the start.`,
          },
        );
      }
      const page = cutPage(document.text, offset, maxChars);
      const data: WebFetchToolData = {
        url: document.url,
        finalUrl: document.finalUrl,
        title: document.title,
        contentType: document.contentType,
        kind: document.kind,
        content: page.content,
        offset,
        totalChars: document.text.length,
        mainContent: document.mainContent,
        truncatedBody: document.truncatedBody,
        cached,
        fetched: document.fetched,
      };
      if (page.end < document.text.length) data.nextOffset = page.end;
      if (document.entries !== undefined) data.entries = document.entries;
      if (document.pages !== undefined) data.pages = document.pages;
      if (save !== undefined && !raw) {
        try {
          data.savedAs = await save(document, context);
        } catch (error) {
          data.saveError = error instanceof Error ? error.message : String(error);
        }
      }
      return ok(data);
    },
    render: (data) => formatFetchedPage(data, name),
  });
}
