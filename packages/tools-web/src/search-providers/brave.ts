import { ok } from "@agentool/contract";
import { domainLimitsOf, withSiteOperators } from "./domains.js";
import { checkKeyedOptions } from "./keyed.js";
import { collectResults, requestProviderJson, type SearchProvider } from "./types.js";

/** Brave Search's web endpoint. */
export const BRAVE_ENDPOINT = "https://api.search.brave.com/res/v1/web/search";

/** The longest `q` Brave's API accepts. */
const BRAVE_MAX_QUERY_CHARACTERS = 400;

/** Options of {@link createBraveProvider}. */
export interface BraveProviderOptions {
  /** The Brave Search API key (sent as `X-Subscription-Token`). */
  apiKey: string;
  /** Where requests go: an absolute URL, or a same-origin route such as `"/api/brave"`. Default {@link BRAVE_ENDPOINT}. */
  endpoint?: string;
  /**
   * The base of a relative `endpoint` (`"https://my.app"`). Without it a relative endpoint is
   * resolved against `globalThis.location.href` when each search runs (a browser-like host).
   */
  origin?: string;
  /** Country, e.g. `"us"`. */
  country?: string;
  /** Search language, e.g. `"en"`. */
  language?: string;
  /** `"off"`, `"moderate"` (Brave's default) or `"strict"`. */
  safeSearch?: "off" | "moderate" | "strict";
}

/**
 * A Brave Search provider: `GET {endpoint}?q=…&count=N` with `X-Subscription-Token`; reads
 * `web.results[]` (highlight tags stripped from descriptions). Domain limits become Brave's
 * `site:` / `-site:` search operators in `q` (as many as fit its 400 characters).
 *
 * @param options - the key and search settings
 * @returns the provider
 * @example
 * createBraveProvider({ apiKey: process.env.BRAVE_API_KEY ?? "" });
 */
export function createBraveProvider(options: BraveProviderOptions): SearchProvider {
  const { apiKey, endpoint } = checkKeyedOptions(
    "createBraveProvider",
    options,
    BRAVE_ENDPOINT,
    "Brave",
  );
  return {
    name: "brave",
    async search(request) {
      const target = endpoint();
      if ("failure" in target) return target.failure;
      const url = new URL(target.url);
      const query = withSiteOperators(
        request.query,
        domainLimitsOf(request),
        BRAVE_MAX_QUERY_CHARACTERS,
      );
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(request.limit));
      if (options.country) url.searchParams.set("country", options.country);
      if (options.language) url.searchParams.set("search_lang", options.language);
      if (options.safeSearch) url.searchParams.set("safesearch", options.safeSearch);
      const answer = await requestProviderJson("Brave", request, {
        url: url.href,
        headers: { "x-subscription-token": apiKey },
      });
      if (!answer.success) return answer;
      const json = answer.data as { web?: { results?: unknown }; query?: { altered?: unknown } };
      const { results, dropped } = collectResults(json.web?.results, (item) => [
        item.title,
        item.url,
        item.description,
      ]);
      const altered = json.query?.altered;
      return ok({
        results: results.slice(0, request.limit),
        answers: [],
        suggestions: typeof altered === "string" && altered ? [altered] : [],
        dropped,
      });
    },
  };
}
