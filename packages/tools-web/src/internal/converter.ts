/** What an HTML converter returns: the Markdown and what the main-content extractor found. */
export interface ConvertedHtml {
  /** The page (or its main content) as Markdown. */
  markdown: string;
  /** The article's title, when the extractor found one. */
  title?: string;
  /** Whether only the main content was kept. */
  mainContent: boolean;
}

/**
 * Runs Readability (when `readability`) and HTML → Markdown somewhere that can be stopped: the
 * `./node` entry injects a worker-thread runner terminated on timeout or abort. Without one,
 * `web_fetch` converts in-thread (byte caps, linear scans, nesting capped).
 */
export type HtmlConverter = (
  job: { html: string; url: string; readability: boolean },
  signal: AbortSignal,
) => Promise<ConvertedHtml>;
