import { fail, ok } from "@agentool/contract";
import { looksBinary, MEDIA_TYPES, TEXT_TYPES } from "./content-kind.js";
import type { Converter } from "./conversion-job.js";

/**
 * Refuses a binary body (a media type, or bytes that are not text) that no converter reads.
 *
 * @param job - the response
 * @param settings - the tool's name
 * @returns the failure, or `undefined` for text
 */
export const refuseBinary: Converter = (job, settings) => {
  const textual = TEXT_TYPES.test(job.contentType) || job.htmlType;
  if (textual || !(MEDIA_TYPES.test(job.contentType) || looksBinary(job.response.body))) {
    return undefined;
  }
  return fail(
    "UNSUPPORTED",
    `${job.finalUrl} is a binary file (${job.contentType || "unknown type"}), which ${settings.name} cannot read.`,
    {
      hint: "Only HTML, JSON, feeds, PDFs and text can be read; look for a text version of this content.",
    },
  );
};

/**
 * The body as it is, when the model asked for `raw`.
 *
 * @param job - the response
 * @returns the text document, or `undefined` when `raw` is not set
 */
export const convertRaw: Converter = (job) =>
  job.raw ? ok({ ...job.base, title: "", kind: "text", text: job.text }) : undefined;

/**
 * JSON → pretty-printed JSON (a JSON content type that does not parse stays text).
 *
 * @param job - the response
 * @returns the document, or `undefined` when the body is not JSON
 */
export const convertJson: Converter = (job) => {
  if (!job.jsonType && (job.htmlType || !/^[[{]/.test(job.trimmed))) return undefined;
  try {
    const value: unknown = JSON.parse(job.text);
    return ok({ ...job.base, title: "", kind: "json", text: JSON.stringify(value, null, 2) });
  } catch {
    return job.jsonType ? ok({ ...job.base, title: "", kind: "text", text: job.text }) : undefined;
  }
};

/**
 * Anything else: the decoded text.
 *
 * @param job - the response
 * @returns the text document
 */
export const convertText: Converter = (job) =>
  ok({ ...job.base, title: "", kind: "text", text: job.text });
