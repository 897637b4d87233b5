import { AgentoolError, type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { assembleWebTools } from "../create-web-tools.js";
import { createWebFetchTool, type WebFetchTool, type WebFetchToolOptions } from "../web-fetch.js";
import type { WebSearchToolOptions } from "../web-search.js";
import type { WikiSearchToolOptions } from "../wiki-search.js";
import { createWorkerConverters } from "./converter-runner.js";
import { createDirectorySaver, type SaveDirectory } from "./directory-saver.js";
import {
  createGuardedTransport,
  type GuardedTransportOptions,
  type Resolver,
} from "./guarded-transport.js";

/** Options of {@link createNodeWebFetchTool}: those of `createWebFetchTool`, plus the network policy and saving. */
export interface NodeWebFetchToolOptions
  extends Omit<WebFetchToolOptions, "save">,
    GuardedTransportOptions {
  /** Save every fetched document as Markdown here (a path, or a function of the call context). Default: no saving. */
  saveDir?: SaveDirectory;
}

const nodeKeys = [
  "allowPrivate",
  "allowHosts",
  "resolver",
  "maxRedirects",
  "connectTimeoutMs",
  "saveDir",
] as const;

const nodeSchema = z.object({
  allowPrivate: z.boolean().optional(),
  allowHosts: z.array(z.string().min(1)).readonly().optional(),
  resolver: z
    .custom<Resolver>((value) => typeof value === "function", {
      error: "expected (hostname) => Promise<{ address, family }[]>",
    })
    .optional(),
  maxRedirects: z.number().int().min(0).max(20).optional(),
  connectTimeoutMs: z.number().int().min(1).max(600_000).optional(),
  saveDir: z
    .union([
      z.string().min(1),
      z.custom<(context: unknown) => string>((value) => typeof value === "function"),
    ])
    .optional(),
});

/** The guarded transport's `allowPrivate` / `allowHosts`, for the description. */
function reachOf(parsed: z.output<typeof nodeSchema>): Partial<WebFetchToolOptions> {
  return {
    ...(parsed.allowPrivate === undefined ? {} : { allowPrivate: parsed.allowPrivate }),
    ...(parsed.allowHosts === undefined ? {} : { allowHosts: parsed.allowHosts }),
  };
}

/**
 * Creates `web_fetch` for Node: the SSRF-guarded transport (private, loopback, link-local,
 * CGNAT, unique-local, multicast, metadata addresses refused at connect time; manual redirects
 * re-checked; decoded-byte cap), optional saving to `saveDir`, and Readability by default (as
 * on the root entry: `readability: false` converts whole pages).
 *
 * @param options - every `createWebFetchTool` option plus `allowPrivate`, `allowHosts`, `resolver`, `maxRedirects`, `connectTimeoutMs`, `saveDir`
 * @returns the tool
 * @throws AgentoolError for invalid options
 * @example
 * const webFetch = createNodeWebFetchTool({ saveDir: "./sources" });
 * // a service on this machine (tests, demos):
 * const local = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"] });
 */
export function createNodeWebFetchTool(options: NodeWebFetchToolOptions = {}): WebFetchTool {
  if (typeof options !== "object" || options === null) {
    throw new AgentoolError("createNodeWebFetchTool: options must be an object.");
  }
  const nodeOptions: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if ((nodeKeys as readonly string[]).includes(key)) nodeOptions[key] = value;
    else rest[key] = value;
  }
  const parsed = parseOptions("createNodeWebFetchTool", nodeSchema, nodeOptions);
  const rootOptions = rest as WebFetchToolOptions;
  const transport =
    rootOptions.transport ??
    createGuardedTransport({
      ...(parsed.allowPrivate === undefined ? {} : { allowPrivate: parsed.allowPrivate }),
      ...(parsed.allowHosts === undefined ? {} : { allowHosts: parsed.allowHosts }),
      ...(parsed.resolver === undefined ? {} : { resolver: parsed.resolver }),
      ...(parsed.maxRedirects === undefined ? {} : { maxRedirects: parsed.maxRedirects }),
      ...(parsed.connectTimeoutMs === undefined
        ? {}
        : { connectTimeoutMs: parsed.connectTimeoutMs }),
    });
  // Converters run in a worker thread terminated on timeout or abort (hostile pages, PDF bombs).
  const workers =
    rootOptions.htmlConverter === undefined || rootOptions.pdfExtractor === undefined
      ? createWorkerConverters()
      : undefined;
  return createWebFetchTool({
    ...rootOptions,
    transport,
    // Not a policy here (the guarded transport enforces it): the description names what works.
    ...(rootOptions.transport === undefined ? reachOf(parsed) : {}),
    htmlConverter: rootOptions.htmlConverter ?? workers?.convertHtml,
    pdfExtractor: rootOptions.pdfExtractor ?? workers?.extractPdf,
    ...(parsed.saveDir === undefined
      ? {}
      : { save: createDirectorySaver(options.saveDir as SaveDirectory) }),
  });
}

/** Options of {@link createNodeWebTools}. */
export interface NodeWebToolsOptions {
  /** `web_search` (needs a `provider`); left out when absent or `false`. */
  search?: WebSearchToolOptions | false;
  /** `wiki_search`; included by default, `false` drops it. */
  wiki?: WikiSearchToolOptions | false;
  /** `web_fetch` with the Node options; included by default, `false` drops it. */
  fetch?: NodeWebFetchToolOptions | false;
}

/**
 * Creates the web tools for Node: `wiki_search`, the SSRF-guarded `web_fetch` (with saving when
 * `saveDir` is set) and `web_search` when a provider is given. Search providers and Wikipedia
 * are host-configured endpoints and use the plain `fetch` transport.
 *
 * @param options - per-tool options, or `false` to drop a tool
 * @returns the tools
 * @throws AgentoolError for invalid options
 * @example
 * const tools = createNodeWebTools({
 *   search: { provider: createSearxngProvider({ baseUrl: "http://localhost:8080" }) },
 *   fetch: { saveDir: "./sources" },
 * });
 */
export function createNodeWebTools(options?: NodeWebToolsOptions): AnyTool[] {
  return assembleWebTools("createNodeWebTools", options, createNodeWebFetchTool);
}
