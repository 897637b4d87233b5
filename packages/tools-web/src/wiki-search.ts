import {
  AgentoolError,
  defineTool,
  fail,
  type MountedTools,
  mountedTools,
  mountedToolsOption,
  ok,
  parseOptions,
  type Tool,
  type ToolFailure,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { createFetchTransport, type HttpTransport } from "./internal/http-transport.js";
import { buildHeaders, headersOption, transportOption } from "./internal/options.js";
import {
  DEFAULT_USER_AGENT,
  parseJsonBody,
  performRequest,
  statusFailure,
} from "./internal/request.js";
import { clip, stripTags } from "./internal/text.js";

/** The default name of the Wikipedia search tool. */
export const WIKI_SEARCH_TOOL_NAME = "wiki_search";

/** Wikipedia's API URL template; `{language}` is the language code. */
export const DEFAULT_WIKI_API_URL = "https://{language}.wikipedia.org/w/api.php";

/** Article URL template; `{language}` and `{title}` (encoded, spaces as `_`). */
export const DEFAULT_WIKI_ARTICLE_URL = "https://{language}.wikipedia.org/wiki/{title}";

/** Languages searched by default. */
export const DEFAULT_WIKI_LANGUAGES: readonly string[] = ["en"];

/** Results when the model sends no `limit`. */
export const DEFAULT_WIKI_LIMIT = 5;

/** Largest `limit`. */
export const MAX_WIKI_LIMIT = 10;

/** Default time limit of one call: 15 s. */
export const DEFAULT_WIKI_TIMEOUT_MS = 15_000;

/** Default cap on one API response: 1 MiB. */
export const DEFAULT_WIKI_MAX_RESPONSE_BYTES = 1_048_576;

const LANGUAGE_PATTERN = /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/;

/** Options of {@link createWikiSearchTool}. */
export interface WikiSearchToolOptions {
  /** Replaces the tool's name. Default `"wiki_search"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Wikipedia languages searched and merged, e.g. `["zh", "en"]`. Default `["en"]`. */
  languages?: readonly string[];
  /** API URL template with `{language}`. Default {@link DEFAULT_WIKI_API_URL}. */
  apiUrl?: string;
  /** Article URL template with `{language}` and `{title}`. Default {@link DEFAULT_WIKI_ARTICLE_URL}. */
  articleUrl?: string;
  /** Results when the model sends no `limit`. Default {@link DEFAULT_WIKI_LIMIT} (5). */
  defaultLimit?: number;
  /** Time limit of one call in ms. Default {@link DEFAULT_WIKI_TIMEOUT_MS} (15 s). */
  timeoutMs?: number;
  /** Cap on one API response. Default {@link DEFAULT_WIKI_MAX_RESPONSE_BYTES} (1 MiB). */
  maxResponseBytes?: number;
  /** Headers sent with every request (Wikimedia asks for a descriptive User-Agent with contact details). */
  headers?: Record<string, string>;
  /** How requests are made. Default: the global `fetch`. */
  transport?: HttpTransport;
  /** Names of the tools mounted beside this one; the default description and hints name `web_fetch` / `web_search` only when listed (`createWebTools` passes what it mounts). Default: none. */
  mountedTools?: readonly string[];
}

/** One Wikipedia hit. */
export interface WikiSearchResult {
  /** The article title. */
  title: string;
  /** The article URL. */
  url: string;
  /** A plain-text extract around the match. */
  snippet: string;
  /** The Wikipedia language it came from. */
  lang: string;
}

/** What `wiki_search` returns. */
export interface WikiSearchToolData {
  /** The query searched. */
  query: string;
  /** The languages searched. */
  languages: string[];
  /** Merged results (round-robin over the languages, in each one's rank order). */
  results: WikiSearchResult[];
  /** Languages whose search failed while others worked, with the reason. */
  failures: Array<{ lang: string; message: string }>;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  languages: z.array(z.string().regex(LANGUAGE_PATTERN)).min(1).max(10).readonly().optional(),
  apiUrl: z.string().includes("{language}").optional(),
  articleUrl: z.string().includes("{title}").optional(),
  defaultLimit: z.number().int().min(1).max(MAX_WIKI_LIMIT).optional(),
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

/** The Wikipedia search tool's input schema. */
export const wikiSearchInputSchema = z.object({
  query: z.string().describe("A few words naming the subject."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_WIKI_LIMIT)
    .optional()
    .describe(`How many results in all (default ${DEFAULT_WIKI_LIMIT}).`),
  language: z.string().optional().describe('Only this language code, e.g. "de".'),
});

/** The Wikipedia search tool's type. */
export type WikiSearchTool = Tool<typeof wikiSearchInputSchema, WikiSearchToolData>;

/**
 * Field names other toolsets use for `wiki_search`'s fields, accepted silently: `q`,
 * `search_query` → `query`; `lang` → `language`; `max_results` → `limit`.
 */
export const WIKI_SEARCH_ALIASES: Readonly<Record<string, string>> = {
  q: "query",
  search_query: "query",
  lang: "language",
  max_results: "limit",
};

function defaultDescription(languages: readonly string[], mounted: MountedTools): string {
  return [
    `Searches Wikipedia (${languages.join(", ")}): title, URL, an extract around the match.`,
    "Use it first for concepts, definitions, people, places and established facts.",
    mounted.has("web_fetch")
      ? "Read an article with web_fetch on its URL when the extract is not enough."
      : "",
    mounted.has("web_search")
      ? "For news, products or anything recent, use web_search instead."
      : "Wikipedia is not a news source: it may lag behind recent events.",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * Renders Wikipedia results.
 *
 * @param data - the tool's data
 * @returns model-facing text
 */
export function formatWikiResults(data: WikiSearchToolData): string {
  const lines: string[] = [];
  if (data.results.length === 0) {
    lines.push(
      `No Wikipedia articles match "${data.query}" (${data.languages.join(", ")}). Try the subject's name alone, another spelling, or another language.`,
    );
  } else {
    lines.push(`Wikipedia results for "${data.query}":`);
    data.results.forEach((result, index) => {
      lines.push(
        `${index + 1}. [${result.lang}] ${result.title}\n   ${result.url}${result.snippet ? `\n   ${result.snippet}` : ""}`,
      );
    });
  }
  for (const failure of data.failures)
    lines.push(`(${failure.lang}.wikipedia.org failed: ${failure.message})`);
  return lines.join("\n");
}

/** What every call of one `wiki_search` needs from its options, resolved once. */
interface WikiSettings {
  name: string;
  languages: string[];
  apiUrl: string;
  articleUrl: string;
  defaultLimit: number;
  maxBytes: number;
  transport: HttpTransport;
  headers: Record<string, string>;
  mounted: MountedTools;
  /** The hint when Wikipedia cannot be reached (names no URL: the model gave none). */
  unreachableHint: string;
  /** The hint when Wikipedia answers with an error. */
  refusedHint: string;
}

/** One language's search: its results, or why it failed. */
type LanguageOutcome = { results: WikiSearchResult[] } | { failure: ToolFailure };

/** Resolves the options into the settings of every call; checks the `apiUrl` template. */
function resolveWikiSettings(parsed: z.output<typeof optionsSchema>): WikiSettings {
  const languages = [...(parsed.languages ?? DEFAULT_WIKI_LANGUAGES)].map((language) =>
    language.toLowerCase(),
  );
  const apiUrl = parsed.apiUrl ?? DEFAULT_WIKI_API_URL;
  const transport = parsed.transport ?? createFetchTransport();
  const name = parsed.name ?? WIKI_SEARCH_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  const elsewhere = mounted.has("web_search") ? ", or use web_search" : "";
  try {
    new URL(apiUrl.replaceAll("{language}", "en"));
  } catch {
    throw new AgentoolError(
      "createWikiSearchTool: `apiUrl` must be an absolute URL template with {language}.",
    );
  }
  return {
    name,
    languages,
    apiUrl,
    articleUrl: parsed.articleUrl ?? DEFAULT_WIKI_ARTICLE_URL,
    defaultLimit: parsed.defaultLimit ?? DEFAULT_WIKI_LIMIT,
    maxBytes: parsed.maxResponseBytes ?? DEFAULT_WIKI_MAX_RESPONSE_BYTES,
    transport,
    headers: buildHeaders(parsed.headers, DEFAULT_USER_AGENT),
    mounted,
    // wiki_search takes a query only: its hints never mention a URL or fields it does not have.
    unreachableHint: `Wikipedia may be unreachable from this network; try again later${elsewhere}.`,
    refusedHint: `Wikipedia answered with an error; try again later${elsewhere}. If it persists, ask the host to check the wiki apiUrl.`,
  };
}

/** The search API URL of one language. */
function searchUrl(apiUrl: string, query: string, language: string, limit: number): URL {
  const url = new URL(apiUrl.replaceAll("{language}", language));
  for (const [key, value] of Object.entries({
    action: "query",
    list: "search",
    srsearch: query,
    srlimit: String(limit),
    srprop: "snippet",
    format: "json",
    formatversion: "2",
    utf8: "1",
    origin: "*",
  })) {
    url.searchParams.set(key, value);
  }
  return url;
}

/** The hits of a search answer as results (hits without a title are skipped). */
function toResults(hits: unknown[], articleUrl: string, language: string): WikiSearchResult[] {
  const results: WikiSearchResult[] = [];
  for (const hit of hits) {
    const title = (hit as { title?: unknown } | null)?.title;
    if (typeof title !== "string" || title.length === 0) continue;
    const encoded = encodeURIComponent(title.replace(/ /g, "_"))
      .replace(/%2F/g, "/")
      .replace(/%3A/g, ":");
    results.push({
      title,
      url: articleUrl.replaceAll("{language}", language).replaceAll("{title}", encoded),
      snippet: clip(stripTags(String((hit as { snippet?: unknown }).snippet ?? "")), 400),
      lang: language,
    });
  }
  return results;
}

/** Searches one Wikipedia language; every failure is returned, never thrown. */
async function searchLanguage(
  settings: WikiSettings,
  query: string,
  language: string,
  limit: number,
  signal: AbortSignal,
): Promise<LanguageOutcome> {
  const url = searchUrl(settings.apiUrl, query, language, limit);
  const what = `${language}.wikipedia.org`;
  const outcome = await performRequest(
    settings.transport,
    { url: url.href, headers: settings.headers, signal, maxBytes: settings.maxBytes },
    what,
    settings.unreachableHint,
  );
  if (!outcome.ok) return { failure: outcome.failure };
  if (outcome.response.status !== 200)
    return { failure: statusFailure(outcome.response, what, settings.refusedHint) };
  const json = parseJsonBody(outcome.response) as
    | { query?: { search?: unknown }; error?: { info?: unknown } }
    | undefined;
  if (json?.error !== undefined) {
    return {
      failure: fail(
        "NETWORK_ERROR",
        `${what} refused the search: ${String(json.error.info ?? "unknown error")}.`,
        {
          hint: "Rephrase the query with plain words.",
        },
      ),
    };
  }
  const hits = json?.query?.search;
  if (!Array.isArray(hits)) {
    return {
      failure: fail("NETWORK_ERROR", `${what} did not answer with Wikipedia search JSON.`, {
        hint: settings.refusedHint,
        retryable: true,
      }),
    };
  }
  return { results: toResults(hits, settings.articleUrl, language) };
}

/** The languages a call searches: the model's one, checked, or the configured ones. */
function chooseLanguages(
  requested: string | undefined,
  configured: string[],
): { languages: string[] } | { failure: ToolFailure } {
  if (requested === undefined) return { languages: configured };
  const language = requested.trim().toLowerCase();
  if (!LANGUAGE_PATTERN.test(language)) {
    return {
      failure: fail("INVALID_INPUT", `"${requested}" is not a Wikipedia language code.`, {
        hint: 'Use a code such as "en", "de", "fr", "zh", or omit language.',
      }),
    };
  }
  return { languages: [language] };
}

/** Merges the languages' result lists round-robin, in each one's rank order, up to `limit`. */
function mergeRoundRobin(lists: WikiSearchResult[][], limit: number): WikiSearchResult[] {
  const results: WikiSearchResult[] = [];
  for (let rank = 0; results.length < limit; rank += 1) {
    let added = false;
    for (const list of lists) {
      const item = list[rank];
      if (item !== undefined && results.length < limit) {
        results.push(item);
        added = true;
      }
    }
    if (!added) break;
  }
  return results;
}

/**
 * The envelope of one call from its languages' outcomes: the merged results with the failed
 * languages named, or — when every language failed — the one failure (a single language) or one
 * naming them all.
 */
function collectOutcomes(
  settings: WikiSettings,
  query: string,
  searched: string[],
  outcomes: LanguageOutcome[],
  limit: number,
): ToolResult<WikiSearchToolData> {
  const failures: Array<{ lang: string; message: string }> = [];
  const lists: WikiSearchResult[][] = [];
  outcomes.forEach((outcome, index) => {
    if ("failure" in outcome)
      failures.push({ lang: searched[index] ?? "?", message: outcome.failure.error.message });
    else lists.push(outcome.results);
  });
  if (lists.length === 0) {
    const first = outcomes[0];
    if (first !== undefined && "failure" in first && searched.length === 1) return first.failure;
    return fail(
      "NETWORK_ERROR",
      `Wikipedia search failed in every language: ${failures.map((failure) => `${failure.lang}: ${failure.message}`).join("; ")}`,
      {
        hint: settings.unreachableHint,
        retryable: true,
      },
    );
  }
  const results = mergeRoundRobin(lists, limit);
  return ok({ query, languages: searched, results, failures });
}

/**
 * Creates `wiki_search`: Wikipedia's keyless search API (`action=query&list=search`), several
 * languages merged. Works in any runtime (Wikipedia's API is CORS-open with `origin=*`).
 *
 * @param options - languages, URL templates, limits, headers and transport
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const wikiSearch = createWikiSearchTool({ languages: ["zh", "en"] });
 * await wikiSearch.run({ query: "Turing machine" });
 */
export function createWikiSearchTool(options?: WikiSearchToolOptions): WikiSearchTool {
  const parsed = parseOptions("createWikiSearchTool", optionsSchema, options);
  const settings = resolveWikiSettings(parsed);
  const { name, languages, mounted } = settings;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(languages, mounted),
    input: wikiSearchInputSchema,
    aliases: WIKI_SEARCH_ALIASES,
    annotations: { title: "Wikipedia search", readOnly: true, openWorld: true, idempotent: true },
    tags: ["web", "web:search", "network"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_WIKI_TIMEOUT_MS,
    async execute(input, context) {
      const query = input.query.trim();
      if (query.length === 0) {
        return fail("INVALID_INPUT", "The query is empty.", {
          hint: `Call ${name} with the subject's name.`,
        });
      }
      const chosen = chooseLanguages(input.language, languages);
      if ("failure" in chosen) return chosen.failure;
      const searched = chosen.languages;
      const limit = input.limit ?? settings.defaultLimit;
      const outcomes = await Promise.all(
        searched.map((language) =>
          searchLanguage(settings, query, language, limit, context.signal),
        ),
      );
      return collectOutcomes(settings, query, searched, outcomes, limit);
    },
    render: formatWikiResults,
  });
}
