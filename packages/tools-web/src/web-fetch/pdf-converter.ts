import { fail, formatCount, ok } from "@agentool/contract";
import { WebRequestError } from "../internal/http-transport.js";
import { isPdf } from "./content-kind.js";
import type { Converter } from "./conversion-job.js";

/**
 * PDF → its text and page count (refused when the PDF was cut by the byte cap, or when the host
 * turned PDF conversion off).
 *
 * @param job - the response
 * @param settings - the PDF switch, cap and extractor
 * @returns the document, a failure, or `undefined` when the body is not a PDF
 */
export const convertPdf: Converter = async (job, settings) => {
  if (!isPdf(job.response.body, job.contentType)) return undefined;
  if (!settings.pdf) {
    return fail(
      "UNSUPPORTED",
      `${job.finalUrl} is a PDF (${job.contentType || "no content type"}), and this host does not convert PDFs to text.`,
      {
        hint: "Look for an HTML version of the document (often the page that links to it), or ask the user for its text.",
      },
    );
  }
  if (job.response.truncated) {
    return fail(
      "TOO_LARGE",
      `The PDF at ${job.finalUrl} is larger than ${formatCount(settings.maxPdfBytes)} bytes.`,
      {
        hint: "Look for an HTML version of the document, or ask the host to raise maxPdfBytes.",
      },
    );
  }
  try {
    const pdf = await settings.pdfExtractor(job.response.body, job.signal);
    return ok({
      ...job.base,
      title: pdf.title ?? "",
      kind: "pdf",
      text: pdf.text.trim(),
      pages: pdf.pages,
    });
  } catch (error) {
    // Kept rather than left to run's mapping: this envelope has never carried `retryable`
    // (unpdf's DEPENDENCY_MISSING says `retryable: false`, which run would add).
    const known = WebRequestError.find(error);
    if (known !== undefined)
      return fail(known.code, known.message, known.hint === undefined ? {} : { hint: known.hint });
    return fail(
      "UNSUPPORTED",
      `Could not read the PDF at ${job.finalUrl}: ${error instanceof Error ? error.message : String(error)}.`,
      {
        hint: "The file may be damaged, encrypted or scanned images without text; use another source.",
      },
    );
  }
};
