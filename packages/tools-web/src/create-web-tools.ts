import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { createWebFetchTool, WEB_FETCH_TOOL_NAME, type WebFetchToolOptions } from "./web-fetch.js";
import {
  createWebSearchTool,
  WEB_SEARCH_TOOL_NAME,
  type WebSearchToolOptions,
} from "./web-search.js";
import {
  createWikiSearchTool,
  WIKI_SEARCH_TOOL_NAME,
  type WikiSearchToolOptions,
} from "./wiki-search.js";

/** Options of {@link createWebTools}: each entry takes the tool's options, or `false` to drop it. */
export interface WebToolsOptions {
  /** `web_search` (needs a `provider`). Left out when absent or `false`. */
  search?: WebSearchToolOptions | false;
  /** `wiki_search`. Included by default; `false` drops it. */
  wiki?: WikiSearchToolOptions | false;
  /** `web_fetch`. Included by default; `false` drops it. */
  fetch?: WebFetchToolOptions | false;
}

/** The tools a web family factory mounts: each entry takes its tool's options, or `false`. */
interface WebToolParts<FetchOptions> {
  search?: WebSearchToolOptions | false;
  wiki?: WikiSearchToolOptions | false;
  fetch?: FetchOptions | false;
}

/** The names of the tools a web family factory mounts (as named, overrides included). */
function webToolNames(options: WebToolParts<{ name?: string }> | undefined): string[] {
  const names: string[] = [];
  if (options?.search) names.push(options.search.name ?? WEB_SEARCH_TOOL_NAME);
  if (options?.wiki !== false) names.push(options?.wiki?.name ?? WIKI_SEARCH_TOOL_NAME);
  if (options?.fetch !== false) names.push(options?.fetch?.name ?? WEB_FETCH_TOOL_NAME);
  return names;
}

/** A tool's options with `mountedTools` = what the family mounts plus what the host listed. */
function withMounted<Options extends { mountedTools?: readonly string[] }>(
  options: Options,
  mounted: readonly string[],
): Options {
  return { ...options, mountedTools: [...new Set([...mounted, ...(options.mountedTools ?? [])])] };
}

const entry = z.union([z.literal(false), z.record(z.string(), z.unknown())]).optional();
const optionsSchema = z.object({ search: entry, wiki: entry, fetch: entry });

/**
 * The one body of `createWebTools` and `createNodeWebTools`: checks the options, then mounts
 * `web_search` (with a provider), `wiki_search` and `web_fetch` (unless `false`), each told the
 * names mounted beside it.
 *
 * @param owner - the factory's name, for option errors
 * @param options - per-tool options, or `false` to drop a tool
 * @param createFetchTool - makes `web_fetch` (the root or the Node one)
 * @returns the tools, in the order search, wiki, fetch
 * @throws AgentoolError for invalid options
 * @internal
 */
export function assembleWebTools<
  FetchOptions extends { name?: string; mountedTools?: readonly string[] },
>(
  owner: string,
  options: WebToolParts<FetchOptions> | undefined,
  createFetchTool: (options: FetchOptions) => AnyTool,
): AnyTool[] {
  parseOptions(owner, optionsSchema, options);
  const mounted = webToolNames(options);
  const tools: AnyTool[] = [];
  if (options?.search) tools.push(createWebSearchTool(withMounted(options.search, mounted)));
  if (options?.wiki !== false)
    tools.push(createWikiSearchTool(withMounted(options?.wiki || {}, mounted)));
  if (options?.fetch !== false)
    tools.push(createFetchTool(withMounted(options?.fetch || ({} as FetchOptions), mounted)));
  return tools;
}

/**
 * Creates the web tools in one call: `wiki_search` and `web_fetch` by default, `web_search` when
 * a provider is given. Each default description names only the tools mounted here. Runtime-neutral (global `fetch`); on Node prefer `createNodeWebTools`
 * from `./node`, whose `web_fetch` refuses private addresses.
 *
 * @param options - per-tool options, or `false` to drop a tool
 * @returns the tools: web_search (when configured), wiki_search, web_fetch
 * @throws AgentoolError for invalid options
 * @example
 * const tools = createWebTools({
 *   search: { provider: createSearxngProvider({ baseUrl: "http://localhost:8080" }) },
 *   wiki: { languages: ["zh", "en"] },
 * });
 */
export function createWebTools(options?: WebToolsOptions): AnyTool[] {
  return assembleWebTools("createWebTools", options, createWebFetchTool);
}
