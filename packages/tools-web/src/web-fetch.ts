import {
  defineTool,
  isOffsetPastEnd,
  mountedTools,
  offsetPastEnd,
  ok,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import type { ContentExtractor } from "./internal/content-extractor.js";
import type { HtmlConverter } from "./internal/converter.js";
import type { ForwardOption } from "./internal/forward.js";
import type { HttpTransport } from "./internal/http-transport.js";
import type { OriginHeaders } from "./internal/options.js";
import type { PdfTextExtractor } from "./internal/pdf.js";
import type { PageRenderer } from "./internal/render.js";
import { TtlCache } from "./internal/ttl-cache.js";
import { cleanUrl } from "./web-fetch/clean-url.js";
import { cutPage } from "./web-fetch/cut-page.js";
import { defaultDescription } from "./web-fetch/default-description.js";
import {
  DEFAULT_FETCH_CACHE_ENTRIES,
  DEFAULT_FETCH_CACHE_TTL_MS,
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_MAX_FEED_ENTRIES,
  MAX_FEED_ENTRIES_PER_CALL,
  MAX_FETCH_MAX_CHARS,
} from "./web-fetch/defaults.js";
import { limitFeedEntries } from "./web-fetch/feed-converter.js";
import { fetchDocument } from "./web-fetch/fetch-document.js";
import type { FetchedDocument, PageSaver, WebFetchToolData } from "./web-fetch/fetched-document.js";
import { formatFetchedPage } from "./web-fetch/format-fetched-page.js";
import { createWebFetchInputSchema } from "./web-fetch/input-schema.js";
import { pageData } from "./web-fetch/page-data.js";
import {
  feedEntryLimits,
  resolveFetchSettings,
  webFetchOptionsSchema,
} from "./web-fetch/settings.js";

export {
  DEFAULT_FETCH_CACHE_ENTRIES,
  DEFAULT_FETCH_CACHE_TTL_MS,
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_FETCH_MAX_PDF_BYTES,
  DEFAULT_FETCH_MAX_RESPONSE_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_FEED_ENTRIES,
  MAX_FEED_ENTRIES_PER_CALL,
  MAX_FETCH_MAX_CHARS,
  WEB_FETCH_TOOL_NAME,
} from "./web-fetch/defaults.js";
export type {
  FetchedDocument,
  PageSaver,
  WebFetchKind,
  WebFetchToolData,
} from "./web-fetch/fetched-document.js";
export { formatFetchedPage } from "./web-fetch/format-fetched-page.js";
export { ROBOTS_CACHE_TTL_MS, ROBOTS_MAX_BYTES } from "./web-fetch/robots-gate.js";

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
  /** Convert PDFs to text. Default `true`; `false` answers a PDF with `UNSUPPORTED` (and reads at most `maxResponseBytes` of it). */
  pdf?: boolean;
  /**
   * `"obey"`: before fetching a model's URL, read its origin's `/robots.txt` (same transport,
   * kept per origin for an hour) and refuse a disallowed URL with `BLOCKED` naming the rule and
   * its user-agent group; the group is picked by the User-Agent's product token. A 4xx or
   * unreachable robots.txt allows everything; a 5xx disallows the whole site (RFC 9309). Default
   * `"ignore"`.
   */
  robots?: "obey" | "ignore";
  /** Characters per page when the model sends no `limit`. Default {@link DEFAULT_FETCH_MAX_CHARS} (20,000). */
  defaultMaxChars?: number;
  /** Largest `limit` accepted. Default {@link MAX_FETCH_MAX_CHARS} (100,000). */
  maxMaxChars?: number;
  /** Cap on a body in decoded bytes (HTML, JSON, text, feeds). Default {@link DEFAULT_FETCH_MAX_RESPONSE_BYTES} (5 MiB). */
  maxResponseBytes?: number;
  /** Cap on a PDF body. Default {@link DEFAULT_FETCH_MAX_PDF_BYTES} (20 MiB). */
  maxPdfBytes?: number;
  /** Feed entries listed when the model sends no `max_entries`. Default {@link DEFAULT_MAX_FEED_ENTRIES} (30); the model may ask for up to {@link MAX_FEED_ENTRIES_PER_CALL} (100), or this when larger. */
  maxFeedEntries?: number;
  /**
   * How long a fetched document serves the later pages of one page walk (the same URL with
   * `offset` > 1), ms; a call for the first page always fetches afresh. `0` disables. Default
   * {@link DEFAULT_FETCH_CACHE_TTL_MS} (15 min).
   */
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

/** The fetch tool's input schema (with the default limits in its descriptions). */
export const webFetchInputSchema = createWebFetchInputSchema({
  defaultMaxChars: DEFAULT_FETCH_MAX_CHARS,
  maxMaxChars: MAX_FETCH_MAX_CHARS,
  defaultFeedEntries: DEFAULT_MAX_FEED_ENTRIES,
  maxFeedEntries: MAX_FEED_ENTRIES_PER_CALL,
});

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

/**
 * Creates `web_fetch`: one tool that reads a URL and lets the response decide the treatment —
 * HTML → Markdown (node-html-markdown; optional main-content extractor with full-page fallback),
 * JSON pretty-printed, RSS/Atom → entries, PDF → text (`unpdf`, optional peer), other text raw,
 * binary refused. Long output is paged by `offset` / `limit` (characters, 1-based); a call for
 * the first page fetches afresh and keeps the document for a TTL, so the later pages of that walk
 * (`offset` > 1) read the same copy. Readability keeps the main article by default when its
 * optional peers are installed (`readability: false` converts whole pages). Opt-in: robots.txt
 * (`robots: "obey"`); opt-out: PDF conversion (`pdf: false`).
 *
 * This root factory uses the global `fetch` and does **not** check addresses: on Node, use
 * `createNodeWebFetchTool` from `@agentool/tools-web/node` (SSRF-guarded, saving to a folder).
 *
 * @param options - transport, forward, caps, cache, extractor, saver, robots, pdf
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const webFetch = createWebFetchTool({ forward: "/api/proxy?url={urlEncoded}" });
 * await webFetch.run({ url: "https://example.com/" });
 */
export function createWebFetchTool(options?: WebFetchToolOptions): WebFetchTool {
  const parsed = parseOptions("createWebFetchTool", webFetchOptionsSchema, options);
  const defaultMaxChars = parsed.defaultMaxChars ?? DEFAULT_FETCH_MAX_CHARS;
  const maxMaxChars = Math.max(parsed.maxMaxChars ?? MAX_FETCH_MAX_CHARS, defaultMaxChars);
  const feedEntries = feedEntryLimits(parsed);
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
  const inputLimits = {
    defaultMaxChars,
    maxMaxChars,
    defaultFeedEntries: feedEntries.byDefault,
    maxFeedEntries: feedEntries.most,
  };

  return defineTool({
    name,
    description:
      parsed.description ??
      defaultDescription(
        saving,
        mounted,
        renderSetting,
        { allowPrivate: parsed.allowPrivate === true, allowHosts: parsed.allowHosts ?? [] },
        settings.pdf,
      ),
    input: createWebFetchInputSchema(inputLimits, renderSetting),
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
      const offset = input.offset ?? 1;
      const limit = input.limit ?? defaultMaxChars;
      const maxEntries = input.max_entries ?? feedEntries.byDefault;
      const cacheKey = `${raw ? "raw" : "doc"}${wantsRender ? " rendered" : ""} ${url}`;
      // The cache serves the later pages of one walk; asking for the first page fetches afresh.
      let whole = offset > 1 ? cache.get(cacheKey) : undefined;
      const cached = whole !== undefined;
      if (whole === undefined) {
        const fetched = await fetchDocument(settings, {
          url,
          raw,
          render: wantsRender,
          signal: context.signal,
          startedAt,
        });
        if (!fetched.success) return fetched;
        whole = fetched.data;
        cache.set(cacheKey, whole);
      }
      const document = limitFeedEntries(whole, maxEntries);
      const total = document.text.length;
      if (isOffsetPastEnd(offset, total)) {
        return offsetPastEnd({ tool: name, offset, total, unit: "characters" });
      }
      const page = cutPage(document.text, offset - 1, limit);
      const data = pageData(document, { ...page, offset, limit, raw, cached, maxEntries });
      if (save !== undefined && !raw) {
        try {
          data.saved_as = await save(document, context);
        } catch (error) {
          data.save_error = error instanceof Error ? error.message : String(error);
        }
      }
      return ok(data);
    },
    render: (data) =>
      formatFetchedPage(data, name, defaultMaxChars, renderByDefault, {
        defaultEntries: feedEntries.byDefault,
        maxEntries: feedEntries.most,
      }),
  });
}
