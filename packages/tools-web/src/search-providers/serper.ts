import { ok } from "@agentool/contract";
import { clip, stripTags } from "../internal/text.js";
import { domainLimitsOf, withSiteOperators } from "./domains.js";
import { checkKeyedOptions } from "./keyed.js";
import {
  collectResults,
  MAX_SNIPPET_CHARACTERS,
  requestProviderJson,
  type SearchProvider,
} from "./types.js";

/** Serper's search endpoint. */
export const SERPER_ENDPOINT = "https://google.serper.dev/search";

/** Options of {@link createSerperProvider}. */
export interface SerperProviderOptions {
  /** The Serper key, or a gateway's own token when `endpoint` points at a gateway. Always sent as `x-api-key`. */
  apiKey: string;
  /** Where requests go (a gateway or any Serper-compatible backend): an absolute URL, or a same-origin route such as `"/api/serper"`. Default {@link SERPER_ENDPOINT}. */
  endpoint?: string;
  /**
   * The base of a relative `endpoint` (`"https://my.app"`). Without it a relative endpoint is
   * resolved against `globalThis.location.href` when each search runs (a browser-like host).
   */
  origin?: string;
  /** Country (`gl`), e.g. `"us"`. */
  country?: string;
  /** Interface language (`hl`), e.g. `"en"`. */
  language?: string;
}

/**
 * A Serper (Google results) provider: `POST {endpoint}` with `{ q, num }` and an `x-api-key`
 * header; reads `organic[]`, and the answer box as an answer. Domain limits become Google's
 * `site:` / `-site:` operators in `q`.
 *
 * @param options - the key and an optional gateway endpoint
 * @returns the provider
 * @example
 * createSerperProvider({ apiKey: process.env.SERPER_API_KEY ?? "" });
 * createSerperProvider({ endpoint: "https://my.app/api/serper", apiKey: "gateway-token" });
 * createSerperProvider({ endpoint: "/api/serper", apiKey: "gateway-token" }); // in a browser: same origin
 */
export function createSerperProvider(options: SerperProviderOptions): SearchProvider {
  const { apiKey, endpoint } = checkKeyedOptions(
    "createSerperProvider",
    options,
    SERPER_ENDPOINT,
    "Serper",
  );
  return {
    name: "serper",
    async search(request) {
      const body: Record<string, unknown> = {
        q: withSiteOperators(request.query, domainLimitsOf(request)),
        num: request.limit,
      };
      if (options.country) body.gl = options.country;
      if (options.language) body.hl = options.language;
      const target = endpoint();
      if ("failure" in target) return target.failure;
      const answer = await requestProviderJson("Serper", request, {
        url: target.url,
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": apiKey },
        body: JSON.stringify(body),
      });
      if (!answer.success) return answer;
      const json = answer.data as Record<string, unknown>;
      const { results, dropped } = collectResults(json.organic, (item) => [
        item.title,
        item.link,
        item.snippet,
      ]);
      const answers: string[] = [];
      const box = json.answerBox as Record<string, unknown> | undefined;
      const boxText = box?.answer ?? box?.snippet;
      if (typeof boxText === "string" && boxText.trim())
        answers.push(clip(stripTags(boxText), MAX_SNIPPET_CHARACTERS));
      const suggestions = (Array.isArray(json.relatedSearches) ? json.relatedSearches : [])
        .map((item) => (item as { query?: unknown } | null)?.query)
        .filter((item): item is string => typeof item === "string" && item.length > 0);
      return ok({ results: results.slice(0, request.limit), answers, suggestions, dropped });
    },
  };
}
