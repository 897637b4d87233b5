import { fail, ok } from "@agentool/contract";
import type { HtmlConverter } from "../internal/converter.js";
import { extractHtmlTitle, htmlToMarkdown } from "../internal/html-to-markdown.js";
import { WebRequestError } from "../internal/http-transport.js";
import { HTML_START } from "./content-kind.js";
import type { Converter } from "./conversion-job.js";

/**
 * HTML → Markdown: in the host's converter (the `./node` worker) when there is one and no host
 * extractor, else in-thread after the main-content extractor (falling back to the whole page).
 *
 * @param job - the response
 * @param settings - the converter and extractors
 * @returns the document, a failure, or `undefined` when the body is not HTML
 */
export const convertHtml: Converter = async (job, settings) => {
  const isHtml = job.htmlType || (!job.jsonType && HTML_START.test(job.trimmed));
  if (!isHtml) return undefined;
  const text = job.text;
  let title = extractHtmlTitle(text) ?? "";
  if (settings.htmlConverter !== undefined && settings.hostExtractor === undefined) {
    let converted: Awaited<ReturnType<HtmlConverter>>;
    try {
      converted = await settings.htmlConverter(
        { html: text, url: job.finalUrl, readability: settings.readability },
        job.signal,
      );
    } catch (error) {
      if (job.signal.aborted) throw error;
      // Kept rather than left to run's mapping: a converter's coded failure without a hint gets
      // this one, and the envelope has never carried `retryable`.
      const known = WebRequestError.find(error);
      return fail(
        known?.code ?? "UNSUPPORTED",
        known?.message ??
          `Could not convert ${job.finalUrl}: ${error instanceof Error ? error.message : String(error)}.`,
        { hint: known?.hint ?? "Use another source for this content, or raw=true." },
      );
    }
    return ok({
      ...job.base,
      title: converted.title || title,
      kind: "html",
      text: converted.markdown,
      main_content: converted.mainContent,
    });
  }
  let html = text;
  let mainContent = false;
  if (settings.extractor !== undefined) {
    try {
      const extracted = await settings.extractor(text, job.finalUrl);
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
    ...job.base,
    title,
    kind: "html",
    text: htmlToMarkdown(html, job.finalUrl),
    main_content: mainContent,
  });
};
