import { fail, ok, type ToolResult } from "@agentool/contract";
import { type ForwardOption, forwardUrl } from "../internal/forward.js";
import type { HttpResponse, HttpTransport } from "../internal/http-transport.js";
import {
  createRenderFetch,
  type PageRenderer,
  renderBudget,
  responseHeadersForPage,
  runRenderer,
} from "../internal/render.js";
import { performRequest, statusFailure } from "../internal/request.js";
import { isHtmlResponse } from "./content-kind.js";
import type { ConverterSettings } from "./conversion-job.js";
import type { FetchedDocument } from "./fetched-document.js";
import type { RobotsGate } from "./robots-gate.js";
import { toDocument } from "./to-document.js";

/** What fetching one document needs from the tool's options, resolved once. */
export interface FetchSettings extends ConverterSettings {
  /** Sends the requests. */
  transport: HttpTransport;
  /** Checks the model's URL by address literal and name (without a host transport). */
  urlPolicy: ((url: URL) => void) | undefined;
  /** Where reads are forwarded (a proxy), if anywhere. */
  forward: ForwardOption | undefined;
  /** The request headers for a URL (user agent, accept, the host's per-origin headers). */
  headersFor: (url: string) => Record<string, string>;
  /** The user agent, for the renderer's own requests. */
  userAgent: string;
  /** The body cap of a response. */
  maxResponseBytes: number;
  /** Runs a page's JavaScript (the `render` option), if the host gave one. */
  renderer: PageRenderer | undefined;
  /** The renderer's request cap. */
  renderMaxRequests: number;
  /** The renderer's byte cap. */
  renderMaxBytes: number;
  /** The renderer's time limit. */
  renderTimeoutMs: number;
  /** The tool's time limit (a render stays inside it). */
  toolTimeoutMs: number;
  /** Checks the model's URL against its origin's robots.txt (the `robots: "obey"` option). */
  robots: RobotsGate | undefined;
  /** The clock. */
  now: () => Date;
}

/** One fetch: what the model asked for. */
export interface FetchRequest {
  /** The cleaned URL. */
  url: string;
  /** Keep the body as it is. */
  raw: boolean;
  /** Run the page's JavaScript first. */
  render: boolean;
  /** The call's signal. */
  signal: AbortSignal;
  /** When the call started (for the render budget). */
  startedAt: number;
}

/**
 * Fetches a URL (through the forward proxy when set; after its robots.txt when the host obeys
 * it), renders an HTML page when asked, and
 * converts the response into a whole document.
 *
 * @param settings - the tool's settings
 * @param request - the URL and the model's choices
 * @returns the document, or the failure to report
 */
export async function fetchDocument(
  settings: FetchSettings,
  request: FetchRequest,
): Promise<ToolResult<FetchedDocument>> {
  const { url, signal } = request;
  const { forward, urlPolicy, maxResponseBytes, maxPdfBytes } = settings;
  // A refused address throws a BLOCKED WebRequestError; the tool's run reports it as it is.
  urlPolicy?.(new URL(url));
  const refusal = await settings.robots?.check(url, signal);
  if (refusal !== undefined) return refusal;
  let target: string;
  try {
    target = forwardUrl(forward, url);
  } catch (error) {
    return fail(
      "NOT_CONFIGURED",
      `The host's forward option failed: ${error instanceof Error ? error.message : String(error)}.`,
      { hint: "Ask the host to fix the web_fetch forward option." },
    );
  }
  const outcome = await performRequest(
    settings.transport,
    {
      url: target,
      headers: settings.headersFor(target),
      signal,
      maxBytes: maxResponseBytes,
      maxBytesForType: (contentType) =>
        settings.pdf && contentType.toLowerCase().includes("application/pdf")
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
  if (request.render && settings.renderer !== undefined && isHtmlResponse(response)) {
    const page = await renderResponse(settings, request, response);
    if (!page.success) return page;
    response = page.data;
    rendered = true;
  }
  const converted = await toDocument(
    url,
    forward === undefined ? response.url || url : url,
    response,
    { raw: request.raw, signal, fetched: settings.now().toISOString() },
    settings,
  );
  if (!converted.success) return converted;
  if (settings.renderer !== undefined) converted.data.rendered = rendered;
  return converted;
}

/** Runs the page's JavaScript in the host's renderer: the response, its body now the rendered HTML. */
async function renderResponse(
  settings: FetchSettings,
  request: FetchRequest,
  response: HttpResponse,
): Promise<ToolResult<HttpResponse>> {
  const { forward, maxResponseBytes } = settings;
  const renderer = settings.renderer as PageRenderer;
  const pageUrl = forward === undefined ? response.url || request.url : request.url;
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
        transport: settings.transport,
        urlPolicy: forward === undefined ? settings.urlPolicy : undefined,
        forward,
        userAgent: settings.userAgent,
        maxResponseBytes,
        maxRequests: settings.renderMaxRequests,
        maxBytes: settings.renderMaxBytes,
        signal,
      }),
      document: pageDocument,
    }),
    {
      signal: request.signal,
      budgetMs: renderBudget(
        settings.renderTimeoutMs,
        settings.toolTimeoutMs,
        request.startedAt,
        Date.now(),
      ),
      toolName: settings.name,
    },
  );
  if (!outcomeOfRender.ok) return outcomeOfRender.failure;
  let html = new TextEncoder().encode(outcomeOfRender.value.html);
  const cut = html.byteLength > maxResponseBytes;
  if (cut) html = html.subarray(0, maxResponseBytes);
  return ok({
    ...response,
    url: forward === undefined ? (outcomeOfRender.value.url ?? pageUrl) : response.url,
    headers: { ...response.headers, "content-type": "text/html; charset=utf-8" },
    body: html,
    truncated: response.truncated || cut,
  });
}
