import {
  defineTool,
  fail,
  isToolResult,
  type MountedTools,
  mountedTools,
  mountedToolsOption,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { createFetchTransport, type HttpTransport } from "./internal/http-transport.js";
import { buildHeaders, headersOption, transportOption } from "./internal/options.js";
import { DEFAULT_USER_AGENT } from "./internal/request.js";
import {
  checkDomainLimits,
  describeDomainLimits,
  filterByDomain,
  MAX_SEARCH_DOMAINS,
} from "./search-providers/domains.js";
import {
  normalizeResult,
  type SearchProvider,
  type SearchResponse,
  type SearchResult,
} from "./search-providers/types.js";

/** The default name of the search tool. */
export const WEB_SEARCH_TOOL_NAME = "web_search";

/** Results returned when the model sends no `limit`. */
export const DEFAULT_SEARCH_LIMIT = 5;

/** Largest `limit` a model may ask for. */
export const MAX_SEARCH_LIMIT = 10;

/** Default time limit of one search: 15 s. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 15_000;

/** Default cap on a search response body: 2 MiB. */
export const DEFAULT_SEARCH_MAX_RESPONSE_BYTES = 2 * 1_048_576;

/** Options of {@link createWebSearchTool}. */
export interface WebSearchToolOptions {
  /** The engine: `createSearxngProvider`, `createSerperProvider`, `createBraveProvider`, `createTavilyProvider` or your own. */
  provider: SearchProvider;
  /** Replaces the tool's name (snake_case). Default `"web_search"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Results when the model sends no `limit` (1–10). Default {@link DEFAULT_SEARCH_LIMIT} (5). */
  defaultLimit?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_SEARCH_TIMEOUT_MS} (15 s). */
  timeoutMs?: number;
  /** Cap on the provider's response body. Default {@link DEFAULT_SEARCH_MAX_RESPONSE_BYTES} (2 MiB). */
  maxResponseBytes?: number;
  /** Headers sent with every request (host configuration). A `user-agent` here replaces the default. */
  headers?: Record<string, string>;
  /** How requests are made. Default: the global `fetch` ({@link createFetchTransport}). */
  transport?: HttpTransport;
  /** Names of the tools mounted beside this one; the default description and hints name `web_fetch` / `wiki_search` only when listed (`createWebTools` passes what it mounts). Default: none. */
  mountedTools?: readonly string[];
}

/** What `web_search` returns. */
export interface WebSearchToolData {
  /** The query searched. */
  query: string;
  /** The provider's name. */
  provider: string;
  /** Results in rank order. */
  results: SearchResult[];
  /** Direct answers from the engine, when any. */
  answers: string[];
  /** Suggested other queries, when any. */
  suggestions: string[];
  /** Malformed items the provider returned and the tool dropped. */
  dropped: number;
  /** The `allowed_domains` searched within (normalised); empty for any site. */
  allowed_domains: string[];
  /** The `blocked_domains` left out (normalised); empty for none. */
  blocked_domains: string[];
  /** Results the provider returned from sites outside the domain limits, left out. */
  filtered_out: number;
}

/**
 * The zod schema of `web_search`'s data ({@link WebSearchToolData}), declared as the tool's
 * `output` so hosts that read structured results (MCP's `outputSchema` + `structuredContent`) get
 * the ranked results as data. Keys are listed in the order the tool writes them.
 *
 * @example
 * webSearchOutputSchema.parse(result.data).results[0]?.url; // "https://en.wikipedia.org/wiki/Tide"
 */
export const webSearchOutputSchema = z.object({
  query: z.string().describe("The query searched."),
  provider: z.string().describe("The provider's name."),
  results: z
    .array(
      z.object({
        title: z.string().describe("The page title (plain text)."),
        url: z.string().describe("The page URL (absolute http/https)."),
        snippet: z.string().describe("A short extract (plain text; may be empty)."),
      }),
    )
    .max(MAX_SEARCH_LIMIT)
    .describe("Results in rank order."),
  answers: z.array(z.string()).describe("Direct answers from the engine, when any."),
  suggestions: z.array(z.string()).describe("Suggested other queries, when any."),
  dropped: z
    .number()
    .int()
    .min(0)
    .describe("Malformed items the provider returned and the tool dropped."),
  allowed_domains: z
    .array(z.string())
    .describe("The allowed_domains searched within (normalised); empty for any site."),
  blocked_domains: z
    .array(z.string())
    .describe("The blocked_domains left out (normalised); empty for none."),
  filtered_out: z
    .number()
    .int()
    .min(0)
    .describe("Results from sites outside the domain limits, left out."),
});

const optionsSchema = z.object({
  ...toolOverridesShape,
  provider: z.custom<SearchProvider>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as SearchProvider).search === "function",
    {
      error:
        "expected a search provider (createSearxngProvider / createSerperProvider / createBraveProvider / createTavilyProvider)",
    },
  ),
  defaultLimit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
  timeoutMs: z.number().int().min(0).max(600_000).optional(),
  maxResponseBytes: z
    .number()
    .int()
    .min(1_024)
    .max(100 * 1_048_576)
    .optional(),
  headers: headersOption,
  transport: transportOption,
  mountedTools: mountedToolsOption,
});

/** The search tool's input schema. */
export const webSearchInputSchema = z.object({
  query: z.string().describe("A few precise keywords, or a question."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .describe(`How many results (default ${DEFAULT_SEARCH_LIMIT}).`),
  allowed_domains: z
    .array(z.string())
    .max(MAX_SEARCH_DOMAINS)
    .optional()
    .describe("Only results from these sites (host names, subdomains included)."),
  blocked_domains: z
    .array(z.string())
    .max(MAX_SEARCH_DOMAINS)
    .optional()
    .describe("Never results from these sites."),
});

/** The search tool's type. */
export type WebSearchTool = Tool<typeof webSearchInputSchema, WebSearchToolData>;

/**
 * Field names other toolsets use for `web_search`'s fields, accepted silently: `q`,
 * `search_query` → `query`; `max_results`, `num_results` → `limit`; `include_domains`,
 * `exclude_domains` (Tavily's, Exa's) → `allowed_domains`, `blocked_domains`.
 */
export const WEB_SEARCH_ALIASES: Readonly<Record<string, string>> = {
  q: "query",
  search_query: "query",
  max_results: "limit",
  num_results: "limit",
  include_domains: "allowed_domains",
  exclude_domains: "blocked_domains",
};

function defaultDescription(mounted: MountedTools): string {
  return [
    "Searches the web: ranked results with title, URL and snippet.",
    mounted.has("web_fetch")
      ? "Snippets often answer outright; call web_fetch on a result's URL for the page's detail."
      : "Snippets often answer outright.",
    `${mounted.has("wiki_search") ? "For definitions and encyclopedic facts, prefer wiki_search. " : ""}Check important claims in more than one source.`,
  ].join(" ");
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (isRecord(value)) {
    const keys = Object.keys(value).slice(0, 5);
    return keys.length === 0 ? "an empty object" : `an object with ${keys.join(", ")}`;
  }
  return `a ${typeof value}`;
}

/**
 * Checks what a provider's `search` resolved with against the provider contract: a result
 * envelope `{ success: true, data: { results, answers?, suggestions?, dropped? } }` or a failure
 * `{ success: false, error }`. Anything else is a bug in the host's provider (`INTERNAL`, naming
 * the provider), not a problem with the query. Result items are normalised and malformed ones
 * dropped and counted, as the built-in providers do.
 */
function readProviderOutcome(providerName: string, outcome: unknown): ToolResult<SearchResponse> {
  const broken = (what: string) =>
    fail(
      "INTERNAL",
      `The search provider "${providerName}" broke its contract: its search() returned ${what} instead of a result envelope ({ success: true, data: { results: [...] } } or { success: false, error }). This is a bug in the host's provider, not in the query.`,
      {
        hint: "Do not retry this query; tell the user that web search is misconfigured.",
        retryable: false,
      },
    );
  if (!isToolResult(outcome)) return broken(describeValue(outcome));
  if (!outcome.success) return outcome as ToolResult<SearchResponse>;
  const data: unknown = outcome.data;
  if (!isRecord(data) || !Array.isArray(data.results)) {
    return broken(`a success whose data is ${describeValue(data)} (data.results must be an array)`);
  }
  const results: SearchResult[] = [];
  let dropped = typeof data.dropped === "number" ? data.dropped : 0;
  for (const item of data.results) {
    const result = isRecord(item) ? normalizeResult(item.title, item.url, item.snippet) : undefined;
    if (result === undefined) dropped += 1;
    else results.push(result);
  }
  const texts = (value: unknown) =>
    Array.isArray(value)
      ? value.filter((item): item is string => typeof item === "string" && item.length > 0)
      : [];
  return ok({
    results,
    answers: texts(data.answers),
    suggestions: texts(data.suggestions),
    dropped,
  });
}

/**
 * Renders search results as a numbered list.
 *
 * @param data - the search tool's data
 * @returns model-facing text
 */
export function formatSearchResults(data: WebSearchToolData): string {
  const lines: string[] = [];
  if (data.answers.length > 0) {
    lines.push("Answers:");
    for (const answer of data.answers) lines.push(`- ${answer}`);
    lines.push("");
  }
  const within = describeDomainLimits(data);
  if (data.results.length === 0) {
    lines.push(
      within === ""
        ? `No results for "${data.query}" (${data.provider}): the engine found no pages. Try broader or different keywords${data.suggestions.length > 0 ? ", or one of the suggestions below" : ""}.`
        : `No results for "${data.query}" (${data.provider}${within}). Try other keywords or fewer domain limits.`,
    );
  } else {
    lines.push(`Results for "${data.query}" (${data.provider}${within}):`);
    data.results.forEach((result, index) => {
      lines.push(
        `${index + 1}. ${result.title}\n   ${result.url}${result.snippet ? `\n   ${result.snippet}` : ""}`,
      );
    });
  }
  if (data.suggestions.length > 0)
    lines.push("", `Suggestions: ${data.suggestions.slice(0, 5).join(" · ")}`);
  return lines.join("\n");
}

/**
 * Creates `web_search` over a provider (SearXNG, Serper, Brave, Tavily, or your own). Keys live in
 * the provider — host configuration the model never sees. Results `[{ title, url, snippet }]`,
 * 1–10 (default 5), malformed items dropped one by one. A provider that breaks its contract
 * (resolves with something other than an envelope) gives `INTERNAL` naming the provider.
 *
 * @param options - the provider, limits, headers and transport
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const webSearch = createWebSearchTool({ provider: createSerperProvider({ apiKey: process.env.SERPER_API_KEY ?? "" }) });
 * await webSearch.run({ query: "node 20 release date" });
 */
export function createWebSearchTool(options: WebSearchToolOptions): WebSearchTool {
  const parsed = parseOptions("createWebSearchTool", optionsSchema, options);
  const provider = parsed.provider;
  const defaultLimit = parsed.defaultLimit ?? DEFAULT_SEARCH_LIMIT;
  const maxBytes = parsed.maxResponseBytes ?? DEFAULT_SEARCH_MAX_RESPONSE_BYTES;
  const transport = parsed.transport ?? createFetchTransport();
  const headers = buildHeaders(parsed.headers, DEFAULT_USER_AGENT);
  const name = parsed.name ?? WEB_SEARCH_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: webSearchInputSchema,
    aliases: WEB_SEARCH_ALIASES,
    annotations: { title: "Web search", readOnly: true, openWorld: true },
    tags: ["web", "web:search", "network"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS,
    output: webSearchOutputSchema,
    async execute(input, context) {
      const query = input.query.trim();
      if (query.length === 0) {
        return fail("INVALID_INPUT", "The query is empty.", {
          hint: `Call ${name} with a few keywords.`,
        });
      }
      const limit = input.limit ?? defaultLimit;
      const limits = checkDomainLimits(input.allowed_domains, input.blocked_domains);
      if ("success" in limits) return limits;
      let outcome: unknown;
      try {
        outcome = await provider.search({
          query,
          limit,
          signal: context.signal,
          transport,
          headers,
          maxBytes,
          ...(limits.allowed.length > 0 ? { allowedDomains: limits.allowed } : {}),
          ...(limits.blocked.length > 0 ? { blockedDomains: limits.blocked } : {}),
        });
      } catch (error) {
        return fail(
          "NETWORK_ERROR",
          `The ${provider.name} search failed: ${error instanceof Error ? error.message : String(error)}.`,
          {
            hint: mounted.has("wiki_search")
              ? "Try again in a moment, or use wiki_search."
              : "Try again in a moment.",
            retryable: true,
          },
        );
      }
      const checked = readProviderOutcome(provider.name, outcome);
      if (!checked.success) return checked;
      const kept = filterByDomain(checked.data.results, limits);
      return ok({
        query,
        provider: provider.name,
        results: kept.results.slice(0, limit),
        answers: checked.data.answers,
        suggestions: checked.data.suggestions,
        dropped: checked.data.dropped,
        allowed_domains: limits.allowed,
        blocked_domains: limits.blocked,
        filtered_out: kept.leftOut,
      });
    },
    render: formatSearchResults,
  });
}
