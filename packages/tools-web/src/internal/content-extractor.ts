import { importOptionalPeer } from "./optional-import.js";

/** What a main-content extractor returns: the article's HTML and title. */
export interface ExtractedContent {
  /** The main content as HTML (converted to Markdown by `web_fetch`). */
  html: string;
  /** The article's title, when found. */
  title?: string;
}

/**
 * Finds the main content of an HTML page. Returns `undefined` when the page has no article
 * (home pages, lists); `web_fetch` then converts the whole page. A throw also falls back.
 */
export type ContentExtractor = (
  html: string,
  url: string,
) => Promise<ExtractedContent | undefined> | ExtractedContent | undefined;

/** Options of {@link createReadabilityExtractor}. */
export interface ReadabilityExtractorOptions {
  /** An article shorter than this many characters of text counts as "no article". Default 200. */
  minTextCharacters?: number;
  /** Pages larger than this (characters) skip extraction (the DOM costs memory). Default 5,000,000. */
  maxHtmlCharacters?: number;
}

interface LinkedomModule {
  parseHTML(html: string): { document: unknown };
}
interface ReadabilityModule {
  Readability: new (
    document: unknown,
    options?: Record<string, unknown>,
  ) => {
    parse(): { title?: string | null; content?: string | null; textContent?: string | null } | null;
  };
}

/**
 * A main-content extractor built on Mozilla Readability (Firefox's reader mode) over a
 * `linkedom` DOM — both optional peers, imported on first use. When either is missing, or the
 * page has no article, it returns `undefined` and `web_fetch` falls back to the full page.
 *
 * @param options - the minimum article length and the largest page it tries
 * @returns the extractor
 * @example
 * const webFetch = createWebFetchTool({ extractor: createReadabilityExtractor() });
 */
export function createReadabilityExtractor(
  options: ReadabilityExtractorOptions = {},
): ContentExtractor {
  const minText = options.minTextCharacters ?? 200;
  const maxHtml = options.maxHtmlCharacters ?? 5_000_000;
  let modules: Promise<[LinkedomModule, ReadabilityModule] | undefined> | undefined;
  return async (html, url) => {
    if (html.length > maxHtml) return undefined;
    modules ??= Promise.all([
      importOptionalPeer<LinkedomModule>("linkedom", "Main-content extraction"),
      importOptionalPeer<ReadabilityModule>("@mozilla/readability", "Main-content extraction"),
    ]).catch(() => undefined);
    const loaded = await modules;
    if (loaded === undefined) return undefined;
    const [linkedom, readability] = loaded;
    const { document } = linkedom.parseHTML(html);
    const documentWithUrl = document as { documentURI?: string; baseURI?: string };
    try {
      Object.defineProperty(documentWithUrl, "documentURI", { value: url, configurable: true });
      Object.defineProperty(documentWithUrl, "baseURI", { value: url, configurable: true });
    } catch {
      // not critical: links are made absolute by the converter
    }
    // keepClasses keeps `language-x` on code blocks, so code fences keep their language.
    const article = new readability.Readability(document, {
      charThreshold: minText,
      keepClasses: true,
    }).parse();
    const content = article?.content ?? "";
    const textLength = (article?.textContent ?? "").trim().length;
    if (content.length === 0 || textLength < minText) return undefined;
    const title = article?.title?.trim();
    return { html: content, ...(title ? { title } : {}) };
  };
}
