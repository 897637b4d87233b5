import type { ToolResult } from "@agentool/contract";
import type { ContentExtractor } from "../internal/content-extractor.js";
import type { HtmlConverter } from "../internal/converter.js";
import type { HttpResponse } from "../internal/http-transport.js";
import type { PdfTextExtractor } from "../internal/pdf.js";
import { decodeBody } from "../internal/request.js";
import type { FetchedDocument } from "./fetched-document.js";

/** What every converter needs from the tool's options. */
export interface ConverterSettings {
  /** The tool's name, for messages. */
  name: string;
  /** The PDF byte cap (for the message of a cut PDF). */
  maxPdfBytes: number;
  /** Feed entries kept at most (the largest `max_entries` a call may send). */
  maxFeedEntries: number;
  /** Whether PDFs are converted to text (the `pdf` option); `false` refuses them. */
  pdf: boolean;
  /** Reads a PDF's text. */
  pdfExtractor: PdfTextExtractor;
  /** Converts HTML somewhere that can be stopped (the `./node` worker), when there is one. */
  htmlConverter: HtmlConverter | undefined;
  /** The host's main-content extractor, when it passed one (then `htmlConverter` is not used). */
  hostExtractor: ContentExtractor | undefined;
  /** The extractor in force in-thread (the host's or Readability), if any. */
  extractor: ContentExtractor | undefined;
  /** Whether Readability runs (the `readability` option). */
  readability: boolean;
}

/** The fields every document of one response shares, whatever its kind. */
export type DocumentBase = Pick<
  FetchedDocument,
  "url" | "final_url" | "content_type" | "main_content" | "body_truncated" | "fetched"
>;

/** One response to turn into a document; its text is decoded on first use. */
export class ConversionJob {
  /** The lower-cased Content-Type. */
  readonly contentType: string;
  #text: string | undefined;
  #trimmed: string | undefined;

  /**
   * @param response - the response
   * @param finalUrl - the URL after redirects (the target URL when reads are forwarded)
   * @param base - the document fields the response gives
   * @param raw - whether the model asked for the body as it is
   * @param signal - the call's signal
   */
  constructor(
    readonly response: HttpResponse,
    readonly finalUrl: string,
    readonly base: DocumentBase,
    readonly raw: boolean,
    readonly signal: AbortSignal,
  ) {
    this.contentType = (response.headers["content-type"] ?? "").toLowerCase();
  }

  /** The body decoded as text. */
  get text(): string {
    this.#text ??= decodeBody(this.response.body, this.contentType);
    return this.#text;
  }

  /** The text without its leading white space (for sniffing). */
  get trimmed(): string {
    this.#trimmed ??= this.text.trimStart();
    return this.#trimmed;
  }

  /** Whether the content type names JSON. */
  get jsonType(): boolean {
    return /[/+]json\b/.test(this.contentType);
  }

  /** Whether the content type names HTML. */
  get htmlType(): boolean {
    return this.contentType.includes("html");
  }
}

/**
 * One content kind's converter: the document (or a failure) when the response is of its kind,
 * `undefined` to leave it to the next converter of the table.
 */
export type Converter = (
  job: ConversionJob,
  settings: ConverterSettings,
) => ToolResult<FetchedDocument> | undefined | Promise<ToolResult<FetchedDocument> | undefined>;
