// @agentool/tools-web root in the browser: web_fetch over the page's own `fetch`, with the test's
// 127.0.0.1 server allowed explicitly, on an HTML page, a JSON document and an RSS feed.
import { createWebTools } from "@agentool/tools-web";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";

/**
 * Fetches the server's three fixtures with web_fetch.
 *
 * @returns the calls: `html`, `json`, `feed`
 */
export default async function run(): Promise<Record<string, BrowserToolCall>> {
  const { host, origin } = new URL(import.meta.url);
  const tools = createWebTools({ wiki: false, fetch: { allowHosts: [host] } });
  const webFetch = findTool(tools, "web_fetch");
  return {
    html: await callTool(webFetch, { url: `${origin}/fixtures/article.html` }),
    json: await callTool(webFetch, { url: `${origin}/fixtures/data.json` }),
    feed: await callTool(webFetch, { url: `${origin}/fixtures/feed.xml` }),
  };
}
