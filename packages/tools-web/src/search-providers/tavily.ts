import { ok } from "@agentool/contract";
import { clip } from "../internal/text.js";
import { checkKeyedOptions } from "./keyed.js";
import {
  collectResults,
  MAX_SNIPPET_CHARACTERS,
  requestProviderJson,
  type SearchProvider,
} from "./types.js";

/** Tavily's search endpoint. */
export const TAVILY_ENDPOINT = "https://api.tavily.com/search";

/** Options of {@link createTavilyProvider}. */
export interface TavilyProviderOptions {
  /** The Tavily key (sent as `Authorization: Bearer …` and as `api_key` in the body, for older deployments). */
  apiKey: string;
  /** Where requests go: an absolute URL, or a same-origin route such as `"/api/tavily"`. Default {@link TAVILY_ENDPOINT}. */
  endpoint?: string;
  /**
   * The base of a relative `endpoint` (`"https://my.app"`). Without it a relative endpoint is
   * resolved against `globalThis.location.href` when each search runs (a browser-like host).
   */
  origin?: string;
  /** `"basic"` (default) or `"advanced"`. */
  searchDepth?: "basic" | "advanced";
  /** Ask Tavily for a generated short answer. Default `false`. */
  includeAnswer?: boolean;
}

/**
 * A Tavily provider: `POST {endpoint}` with `{ query, max_results }`, the key as a Bearer token
 * (and `api_key`); reads `results[]` and `answer`. Domain limits go as Tavily's own
 * `include_domains` / `exclude_domains`.
 *
 * @param options - the key and search settings
 * @returns the provider
 * @example
 * createTavilyProvider({ apiKey: process.env.TAVILY_API_KEY ?? "" });
 */
export function createTavilyProvider(options: TavilyProviderOptions): SearchProvider {
  const { apiKey, endpoint } = checkKeyedOptions(
    "createTavilyProvider",
    options,
    TAVILY_ENDPOINT,
    "Tavily",
  );
  return {
    name: "tavily",
    async search(request) {
      const target = endpoint();
      if ("failure" in target) return target.failure;
      const body: Record<string, unknown> = {
        api_key: apiKey,
        query: request.query,
        max_results: request.limit,
        search_depth: options.searchDepth ?? "basic",
        include_answer: options.includeAnswer ?? false,
      };
      if (request.allowedDomains?.length) body.include_domains = request.allowedDomains;
      if (request.blockedDomains?.length) body.exclude_domains = request.blockedDomains;
      const answer = await requestProviderJson("Tavily", request, {
        url: target.url,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify(body),
      });
      if (!answer.success) return answer;
      const json = answer.data as Record<string, unknown>;
      const { results, dropped } = collectResults(json.results, (item) => [
        item.title,
        item.url,
        item.content,
      ]);
      const answers =
        typeof json.answer === "string" && json.answer.trim()
          ? [clip(json.answer.trim(), MAX_SNIPPET_CHARACTERS)]
          : [];
      return ok({ results: results.slice(0, request.limit), answers, suggestions: [], dropped });
    },
  };
}
