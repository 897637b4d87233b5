import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { createWebFetchTool, type WebFetchToolOptions } from "./web-fetch.js";
import { createWebSearchTool, type WebSearchToolOptions } from "./web-search.js";
import { createWikiSearchTool, type WikiSearchToolOptions } from "./wiki-search.js";

/** Options of {@link createWebTools}: each entry takes the tool's options, or `false` to drop it. */
export interface WebToolsOptions {
  /** `web_search` (needs a `provider`). Left out when absent or `false`. */
  search?: WebSearchToolOptions | false;
  /** `wiki_search`. Included by default; `false` drops it. */
  wiki?: WikiSearchToolOptions | false;
  /** `web_fetch`. Included by default; `false` drops it. */
  fetch?: WebFetchToolOptions | false;
}

const entry = z.union([z.literal(false), z.record(z.string(), z.unknown())]).optional();
const optionsSchema = z.object({ search: entry, wiki: entry, fetch: entry });

/**
 * Creates the web tools in one call: `wiki_search` and `web_fetch` by default, `web_search` when
 * a provider is given. Runtime-neutral (global `fetch`); on Node prefer `createNodeWebTools`
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
  const tools: AnyTool[] = [];
  if (options?.search) tools.push(createWebSearchTool(options.search));
  if (options?.wiki !== false) tools.push(createWikiSearchTool(options?.wiki || {}));
  if (options?.fetch !== false) tools.push(createWebFetchTool(options?.fetch || {}));
  return tools;
}
