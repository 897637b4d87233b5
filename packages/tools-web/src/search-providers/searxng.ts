import { AgentoolError, ok } from "@agentool/contract";
import { clip, httpUrl, stripTags } from "../internal/text.js";
import { domainLimitsOf, withSiteOperators } from "./domains.js";
import {
  collectResults,
  MAX_SNIPPET_CHARACTERS,
  requestProviderJson,
  type SearchProvider,
  type SearchResult,
} from "./types.js";

/** Options of {@link createSearxngProvider}. */
export interface SearxngProviderOptions {
  /** The instance, e.g. `"http://localhost:8080"` (JSON must be enabled: `search.formats: [html, json]`). */
  baseUrl: string;
  /** Engines to query (comma-separated list passed as `engines`). */
  engines?: string;
  /** Categories to query (passed as `categories`), e.g. `"general"`. */
  categories?: string;
  /** A search language, e.g. `"en"` (passed as `language`). */
  language?: string;
  /** Extra headers (e.g. an auth header of a protected instance). */
  headers?: Record<string, string>;
}

function text(value: unknown): string {
  return typeof value === "string" ? stripTags(value) : "";
}

/**
 * A SearXNG provider: `GET {baseUrl}/search?q=…&format=json`. When the engines return no
 * results it falls back to the instance's answers, infoboxes and suggestions. Domain limits
 * become `site:` / `-site:` operators in `q` (read by the web engines it queries).
 *
 * @param options - the instance and query settings
 * @returns the provider
 * @example
 * createWebSearchTool({ provider: createSearxngProvider({ baseUrl: "http://localhost:8080" }) });
 */
export function createSearxngProvider(options: SearxngProviderOptions): SearchProvider {
  const base = httpUrl(options?.baseUrl);
  if (base === undefined) {
    throw new AgentoolError(
      "createSearxngProvider: `baseUrl` must be an http(s) URL, e.g. http://localhost:8080.",
    );
  }
  const searchUrl = new URL("search", base.endsWith("/") ? base : `${base}/`);
  return {
    name: "searxng",
    async search(request) {
      const url = new URL(searchUrl);
      // SearXNG passes the query on to its engines; its web engines read `site:` / `-site:`.
      url.searchParams.set("q", withSiteOperators(request.query, domainLimitsOf(request)));
      url.searchParams.set("format", "json");
      if (options.engines) url.searchParams.set("engines", options.engines);
      if (options.categories) url.searchParams.set("categories", options.categories);
      if (options.language) url.searchParams.set("language", options.language);
      const answer = await requestProviderJson(
        "SearXNG",
        request,
        { url: url.href, ...(options.headers === undefined ? {} : { headers: options.headers }) },
        "The instance refuses JSON: ask the host to enable it in settings.yml (search: formats: [html, json]).",
      );
      if (!answer.success) return answer;
      const json = answer.data as Record<string, unknown>;
      const { results, dropped } = collectResults(json.results, (item) => [
        item.title,
        item.url,
        item.content,
      ]);
      const answers: string[] = [];
      for (const item of Array.isArray(json.answers) ? json.answers : []) {
        const value =
          typeof item === "string" ? item : text((item as { answer?: unknown } | null)?.answer);
        if (value) answers.push(clip(stripTags(value), MAX_SNIPPET_CHARACTERS));
      }
      const suggestions = (Array.isArray(json.suggestions) ? json.suggestions : [])
        .concat(Array.isArray(json.corrections) ? json.corrections : [])
        .filter((item): item is string => typeof item === "string" && item.trim().length > 0)
        .map((item) => item.trim());
      if (results.length === 0) {
        for (const box of Array.isArray(json.infoboxes) ? json.infoboxes : []) {
          if (typeof box !== "object" || box === null) continue;
          const record = box as Record<string, unknown>;
          const urls = Array.isArray(record.urls)
            ? (record.urls as Array<Record<string, unknown>>)
            : [];
          const link = httpUrl(record.id) ?? urls.map((entry) => httpUrl(entry?.url)).find(Boolean);
          if (link === undefined) continue;
          const infobox: SearchResult = {
            title: text(record.infobox) || link,
            url: link,
            snippet: clip(text(record.content), MAX_SNIPPET_CHARACTERS),
          };
          results.push(infobox);
        }
      }
      return ok({ results: results.slice(0, request.limit), answers, suggestions, dropped });
    },
  };
}
