import {
  defineTool,
  isOffsetPastEnd,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolContext,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { cleanUrl } from "./web-fetch/clean-url.js";
import { cutPage } from "./web-fetch/cut-page.js";
import { defaultDescription } from "./web-fetch/default-description.js";
import {
  DEFAULT_FETCH_CACHE_ENTRIES,
  DEFAULT_FETCH_CACHE_TTL_MS,
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_FETCH_MAX_PDF_BYTES,
  DEFAULT_FETCH_MAX_RESPONSE_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_FEED_ENTRIES,
  MAX_FETCH_MAX_CHARS,
  WEB_FETCH_TOOL_NAME,
} from "./web-fetch/defaults.js";
import { type FetchSettings, fetchDocument } from "./web-fetch/fetch-document.js";
import type { FetchedDocument, WebFetchToolData } from "./web-fetch/fetched-document.js";
import { formatFetchedPage } from "./web-fetch/format-fetched-page.js";

export {
  DEFAULT_FETCH_CACHE_ENTRIES,
  DEFAULT_FETCH_CACHE_TTL_MS,
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_FETCH_MAX_PDF_BYTES,
  DEFAULT_FETCH_MAX_RESPONSE_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_FEED_ENTRIES,
  MAX_FETCH_MAX_CHARS,
  WEB_FETCH_TOOL_NAME,
} from "./web-fetch/defaults.js";
export type {
  FetchedDocument,
  WebFetchKind,
  WebFetchToolData,
} from "./web-fetch/fetched-document.js";
export { formatFetchedPage } from "./web-fetch/format-fetched-page.js";

import { mountedTools, mountedToolsOption } from "@agentool/contract";
import { createUrlPolicy } from "./internal/address-policy.js";
import { type ContentExtractor, createReadabilityExtractor } from "./internal/content-extractor.js";
import type { HtmlConverter } from "./internal/converter.js";
import type { ForwardOption } from "./internal/forward.js";
import { createFetchTransport, type HttpTransport } from "./internal/http-transport.js";
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
  DEFAULT_RENDER_MAX_BYTES,
  DEFAULT_RENDER_MAX_REQUESTS,
  DEFAULT_RENDER_TIMEOUT_MS,
  type PageRenderer,
  renderOptionsShape,
} from "./internal/render.js";
import { DEFAULT_USER_AGENT } from "./internal/request.js";
import { TtlCache } from "./internal/ttl-cache.js";

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
   * addresses stay refused. The default description says so (with a `transport` too, so a host
   * transport that allows them can say it).
   */
  allowPrivate?: boolean;
  /** Without a `transport`, hosts reachable whatever they are (`"127.0.0.1:8080"`, `"*.corp.example"`). Default none. The default description names them (with a `transport` too). */
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
  /**
   * Saves every fetched document; its return value (a file name) is shown to the model. With it
   * the tool is annotated `readOnly: false`, `destructive: false` and tagged `web:save`: the hook
   * must only add files and refresh its own copy of the same URL, never replace other data (as
   * `createDirectorySaver` does). Default none (read-only).
   */
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
  .describe("Run the page's JavaScript in a browser before reading it (slower; HTML only).");

function createWebFetchInputSchema(
  defaultMaxChars: number,
  maxMaxChars: number,
  render?: { byDefault: boolean },
) {
  const schema = z.object({
    url: z.string().describe("Absolute http(s) URL."),
    ...pagingInputShape({
      unit: "character",
      defaultLimit: defaultMaxChars,
      maxLimit: maxMaxChars,
    }),
    raw: z
      .boolean()
      .optional()
      .describe("Return the body as received, unconverted (default false)."),
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

const ACCEPT =
  "text/html,application/xhtml+xml,application/json;q=0.9,application/rss+xml,application/atom+xml,application/pdf,text/*;q=0.8,*/*;q=0.5";

/** The settings of every fetch, from the tool's options. */
function resolveFetchSettings(parsed: z.output<typeof optionsSchema>): FetchSettings {
  const maxResponseBytes = parsed.maxResponseBytes ?? DEFAULT_FETCH_MAX_RESPONSE_BYTES;
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
  return {
    name: parsed.name ?? WEB_FETCH_TOOL_NAME,
    maxPdfBytes: parsed.maxPdfBytes ?? DEFAULT_FETCH_MAX_PDF_BYTES,
    maxFeedEntries: parsed.maxFeedEntries ?? DEFAULT_MAX_FEED_ENTRIES,
    pdfExtractor: parsed.pdfExtractor ?? extractPdfWithUnpdf,
    htmlConverter: parsed.htmlConverter,
    hostExtractor: parsed.extractor,
    extractor:
      parsed.extractor ?? (parsed.readability === false ? undefined : createReadabilityExtractor()),
    readability: parsed.readability !== false,
    transport,
    urlPolicy,
    forward,
    headersFor: createOriginHeaders(parsed.headers, { "user-agent": userAgent, accept: ACCEPT }),
    userAgent,
    maxResponseBytes,
    renderer: parsed.render,
    renderMaxRequests: parsed.renderMaxRequests ?? DEFAULT_RENDER_MAX_REQUESTS,
    renderMaxBytes: parsed.renderMaxBytes ?? DEFAULT_RENDER_MAX_BYTES,
    renderTimeoutMs: parsed.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
    toolTimeoutMs: parsed.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
    now: parsed.now ?? (() => new Date()),
  };
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
  const settings = resolveFetchSettings(parsed);
  const { name, renderer } = settings;
  const mounted = mountedTools(parsed.mountedTools, name);
  const save = parsed.save;
  const saving = save !== undefined;
  const cache = new TtlCache<FetchedDocument>(
    parsed.cacheTtlMs ?? DEFAULT_FETCH_CACHE_TTL_MS,
    parsed.maxCacheEntries ?? DEFAULT_FETCH_CACHE_ENTRIES,
  );
  const renderByDefault = parsed.renderByDefault === true;
  const renderSetting = renderer === undefined ? undefined : { byDefault: renderByDefault };

  return defineTool({
    name,
    description:
      parsed.description ??
      defaultDescription(saving, mounted, renderSetting, {
        allowPrivate: parsed.allowPrivate === true,
        allowHosts: parsed.allowHosts ?? [],
      }),
    input: createWebFetchInputSchema(defaultMaxChars, maxMaxChars, renderSetting),
    aliases: WEB_FETCH_ALIASES,
    // Saving writes files, so the tool is no longer read-only; it stays non-destructive because a
    // saver only adds files and refreshes its own copy of the same URL (see `save`).
    annotations: {
      title: "Fetch a web page",
      readOnly: !saving,
      destructive: false,
      openWorld: true,
    },
    tags: saving ? ["web", "web:fetch", "network", "web:save"] : ["web", "web:fetch", "network"],
    timeoutMs: settings.toolTimeoutMs,
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
        const fetched = await fetchDocument(settings, {
          url,
          raw,
          render: wantsRender,
          signal: context.signal,
          startedAt,
        });
        if (!fetched.success) return fetched;
        document = fetched.data;
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
