import { mountedToolsOption, toolOverridesShape } from "@agentool/contract";
import { z } from "zod";
import { createUrlPolicy } from "../internal/address-policy.js";
import {
  type ContentExtractor,
  createReadabilityExtractor,
} from "../internal/content-extractor.js";
import type { HtmlConverter } from "../internal/converter.js";
import type { ForwardOption } from "../internal/forward.js";
import { createFetchTransport } from "../internal/http-transport.js";
import {
  createOriginHeaders,
  originHeadersOption,
  transportOption,
  userAgentOption,
  warnUnguardedOnNode,
} from "../internal/options.js";
import { extractPdfWithUnpdf, type PdfTextExtractor } from "../internal/pdf.js";
import {
  DEFAULT_RENDER_MAX_BYTES,
  DEFAULT_RENDER_MAX_REQUESTS,
  DEFAULT_RENDER_TIMEOUT_MS,
  renderOptionsShape,
} from "../internal/render.js";
import { DEFAULT_USER_AGENT } from "../internal/request.js";
import {
  DEFAULT_FETCH_MAX_PDF_BYTES,
  DEFAULT_FETCH_MAX_RESPONSE_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_FEED_ENTRIES,
  MAX_FEED_ENTRIES_PER_CALL,
  WEB_FETCH_TOOL_NAME,
} from "./defaults.js";
import type { FetchSettings } from "./fetch-document.js";
import type { PageSaver } from "./fetched-document.js";
import { RobotsGate } from "./robots-gate.js";

/** The strict schema of `createWebFetchTool`'s options. */
export const webFetchOptionsSchema = z.object({
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
  pdf: z.boolean().optional(),
  robots: z.enum(["obey", "ignore"]).optional(),
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

/** The options as parsed. */
export type ParsedWebFetchOptions = z.output<typeof webFetchOptionsSchema>;

const ACCEPT =
  "text/html,application/xhtml+xml,application/json;q=0.9,application/rss+xml,application/atom+xml,application/pdf,text/*;q=0.8,*/*;q=0.5";

/**
 * The settings of every fetch, from the tool's options.
 *
 * @param parsed - the parsed options
 * @returns the settings
 */
export function resolveFetchSettings(parsed: ParsedWebFetchOptions): FetchSettings {
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
  const name = parsed.name ?? WEB_FETCH_TOOL_NAME;
  const headersFor = createOriginHeaders(parsed.headers, {
    "user-agent": userAgent,
    accept: ACCEPT,
  });
  return {
    name,
    maxPdfBytes: parsed.maxPdfBytes ?? DEFAULT_FETCH_MAX_PDF_BYTES,
    maxFeedEntries: feedEntryLimits(parsed).most,
    pdf: parsed.pdf !== false,
    pdfExtractor: parsed.pdfExtractor ?? extractPdfWithUnpdf,
    htmlConverter: parsed.htmlConverter,
    hostExtractor: parsed.extractor,
    extractor:
      parsed.extractor ?? (parsed.readability === false ? undefined : createReadabilityExtractor()),
    readability: parsed.readability !== false,
    transport,
    urlPolicy,
    forward,
    headersFor,
    userAgent,
    maxResponseBytes,
    renderer: parsed.render,
    renderMaxRequests: parsed.renderMaxRequests ?? DEFAULT_RENDER_MAX_REQUESTS,
    renderMaxBytes: parsed.renderMaxBytes ?? DEFAULT_RENDER_MAX_BYTES,
    renderTimeoutMs: parsed.renderTimeoutMs ?? DEFAULT_RENDER_TIMEOUT_MS,
    toolTimeoutMs: parsed.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS,
    robots:
      parsed.robots === "obey"
        ? new RobotsGate({ name, transport, forward, headersFor, userAgent })
        : undefined,
    now: parsed.now ?? (() => new Date()),
  };
}

/**
 * Feed entries listed without `max_entries`, and the most a call may ask for.
 *
 * @param parsed - the parsed options
 * @returns both numbers
 */
export function feedEntryLimits(parsed: ParsedWebFetchOptions): {
  byDefault: number;
  most: number;
} {
  const byDefault = parsed.maxFeedEntries ?? DEFAULT_MAX_FEED_ENTRIES;
  return { byDefault, most: Math.max(MAX_FEED_ENTRIES_PER_CALL, byDefault) };
}
