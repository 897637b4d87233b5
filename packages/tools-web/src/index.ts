export { createWebTools, type WebToolsOptions } from "./create-web-tools.js";
export {
  type AddressPolicyOptions,
  createUrlPolicy,
} from "./internal/address-policy.js";
export {
  type ContentExtractor,
  createReadabilityExtractor,
  type ExtractedContent,
  type ReadabilityExtractorOptions,
} from "./internal/content-extractor.js";
export type { ConvertedHtml, HtmlConverter } from "./internal/converter.js";
export {
  DEFAULT_FEED_SUMMARY_CHARACTERS,
  type FeedEntry,
  type ParsedFeed,
  parseFeed,
} from "./internal/feed.js";
export { type ForwardOption, forwardUrl } from "./internal/forward.js";
export { htmlToMarkdown } from "./internal/html-to-markdown.js";
export {
  CROSS_ORIGIN_HEADERS,
  createFetchTransport,
  type FetchTransportOptions,
  type HttpRequest,
  type HttpResponse,
  type HttpTransport,
  WebRequestError,
} from "./internal/http-transport.js";
export type { OriginHeaders } from "./internal/options.js";
export type { PdfText, PdfTextExtractor } from "./internal/pdf.js";
export {
  DEFAULT_RENDER_MAX_BYTES,
  DEFAULT_RENDER_MAX_REQUESTS,
  DEFAULT_RENDER_TIMEOUT_MS,
  type GuardedFetch,
  type GuardedFetchRequest,
  type GuardedFetchResponse,
  type PageRenderContext,
  type PageRenderer,
  type RenderedPage,
} from "./internal/render.js";
export { DEFAULT_USER_AGENT } from "./internal/request.js";
export {
  BRAVE_ENDPOINT,
  type BraveProviderOptions,
  createBraveProvider,
} from "./search-providers/brave.js";
export { MAX_SEARCH_DOMAINS } from "./search-providers/domains.js";
export { createSearxngProvider, type SearxngProviderOptions } from "./search-providers/searxng.js";
export {
  createSerperProvider,
  SERPER_ENDPOINT,
  type SerperProviderOptions,
} from "./search-providers/serper.js";
export {
  createTavilyProvider,
  TAVILY_ENDPOINT,
  type TavilyProviderOptions,
} from "./search-providers/tavily.js";
export type {
  SearchProvider,
  SearchRequest,
  SearchResponse,
  SearchResult,
} from "./search-providers/types.js";
export {
  createWebFetchTool,
  DEFAULT_FETCH_CACHE_ENTRIES,
  DEFAULT_FETCH_CACHE_TTL_MS,
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_FETCH_MAX_PDF_BYTES,
  DEFAULT_FETCH_MAX_RESPONSE_BYTES,
  DEFAULT_FETCH_TIMEOUT_MS,
  DEFAULT_MAX_FEED_ENTRIES,
  type FetchedDocument,
  formatFetchedPage,
  MAX_FEED_ENTRIES_PER_CALL,
  MAX_FETCH_MAX_CHARS,
  type PageSaver,
  ROBOTS_CACHE_TTL_MS,
  ROBOTS_MAX_BYTES,
  WEB_FETCH_TOOL_NAME,
  type WebFetchKind,
  type WebFetchTool,
  type WebFetchToolData,
  type WebFetchToolOptions,
  webFetchInputSchema,
} from "./web-fetch.js";
export {
  createWebSearchTool,
  DEFAULT_SEARCH_LIMIT,
  DEFAULT_SEARCH_MAX_RESPONSE_BYTES,
  DEFAULT_SEARCH_TIMEOUT_MS,
  formatSearchResults,
  MAX_SEARCH_LIMIT,
  WEB_SEARCH_TOOL_NAME,
  type WebSearchTool,
  type WebSearchToolData,
  type WebSearchToolOptions,
  webSearchInputSchema,
  webSearchOutputSchema,
} from "./web-search.js";
export {
  createWikiSearchTool,
  DEFAULT_WIKI_API_URL,
  DEFAULT_WIKI_ARTICLE_URL,
  DEFAULT_WIKI_LANGUAGES,
  DEFAULT_WIKI_LIMIT,
  DEFAULT_WIKI_MAX_RESPONSE_BYTES,
  DEFAULT_WIKI_TIMEOUT_MS,
  formatWikiResults,
  MAX_WIKI_LIMIT,
  WIKI_SEARCH_TOOL_NAME,
  type WikiSearchResult,
  type WikiSearchTool,
  type WikiSearchToolData,
  type WikiSearchToolOptions,
  wikiSearchInputSchema,
} from "./wiki-search.js";
