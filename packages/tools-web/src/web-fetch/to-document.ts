import type { ToolResult } from "@agentool/contract";
import type { HttpResponse } from "../internal/http-transport.js";
import { ConversionJob, type Converter, type ConverterSettings } from "./conversion-job.js";
import { convertFeed } from "./feed-converter.js";
import type { FetchedDocument } from "./fetched-document.js";
import { convertHtml } from "./html-converter.js";
import { convertPdf } from "./pdf-converter.js";
import { convertJson, convertRaw, convertText, refuseBinary } from "./text-converters.js";

/**
 * The content-type dispatch, in order: the first converter that takes the response decides.
 * PDF first (by bytes too), binary refused, `raw` kept as it is, then JSON, feeds, HTML, text.
 */
const CONVERTERS: readonly Converter[] = [
  convertPdf,
  refuseBinary,
  convertRaw,
  convertJson,
  convertFeed,
  convertHtml,
  convertText,
];

/**
 * Turns a response into a whole document (before paging) through {@link CONVERTERS}.
 *
 * @param url - the URL asked for
 * @param finalUrl - the URL after redirects (the target URL when reads are forwarded)
 * @param response - the response
 * @param options - `raw`, the call's signal, the fetch time
 * @param settings - the converters' settings
 * @returns the document, or the failure of the converter that took it
 */
export async function toDocument(
  url: string,
  finalUrl: string,
  response: HttpResponse,
  options: { raw: boolean; signal: AbortSignal; fetched: string },
  settings: ConverterSettings,
): Promise<ToolResult<FetchedDocument>> {
  const base = {
    url,
    final_url: finalUrl,
    content_type: response.headers["content-type"] ?? "",
    main_content: false,
    body_truncated: response.truncated,
    fetched: options.fetched,
  };
  const job = new ConversionJob(response, finalUrl, base, options.raw, options.signal);
  for (const converter of CONVERTERS) {
    const result = await converter(job, settings);
    if (result !== undefined) return result;
  }
  // convertText takes every response; this is never reached.
  return (await convertText(job, settings)) as ToolResult<FetchedDocument>;
}
