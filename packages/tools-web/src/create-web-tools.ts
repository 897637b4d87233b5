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

/**
 * The names of the tools a web family factory mounts (as named, overrides included).
 *
 * @internal
 */
export function webToolNames(
  options:
    | {
        search?: { name?: string } | false;
        wiki?: { name?: string } | false;
        fetch?: { name?: string } | false;
      }
    | undefined,
): string[] {
  const names: string[] = [];
  if (options?.search) names.push(options.search.name ?? WEB_SEARCH_TOOL_NAME);
  if (options?.wiki !== false) names.push(options?.wiki?.name ?? WIKI_SEARCH_TOOL_NAME);
  if (options?.fetch !== false) names.push(options?.fetch?.name ?? WEB_FETCH_TOOL_NAME);
  return names;
}

/**
 * A tool's options with `mountedTools` = what the family mounts plus what the host listed.
 *
 * @internal
 */
export function withMounted<Options extends { mountedTools?: readonly string[] }>(
  options: Options,
  mounted: readonly string[],
): Options {
  return { ...options, mountedTools: [...new Set([...mounted, ...(options.mountedTools ?? [])])] };
}

const entry = z.union([z.literal(false), z.record(z.string(), z.unknown())]).optional();
const optionsSchema = z.object({ search: entry, wiki: entry, fetch: entry });

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
  parseOptions("createWebTools", optionsSchema, options);
  const mounted = webToolNames(options);
  const tools: AnyTool[] = [];
  if (options?.search) tools.push(createWebSearchTool(withMounted(options.search, mounted)));
  if (options?.wiki !== false)
    tools.push(createWikiSearchTool(withMounted(options?.wiki || {}, mounted)));
  if (options?.fetch !== false)
    tools.push(createWebFetchTool(withMounted(options?.fetch || {}, mounted)));
  return tools;
}
