import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createNodeWebFetchTool } from "@agentool/tools-web/node";
import type { DemoFamily } from "./demo-family.js";

/** The documentation site the agent reads, as the model sees it. */
export const DOCS_ORIGIN = "https://docs.tally.example";

/** The workspace folder `web_fetch` saves fetched pages into (as Markdown), for `search_knowledge`. */
export const SOURCES_FOLDER = "sources";

const SITE = new URL("../../site/", import.meta.url);

/** Serves `apps/demo/site/` on 127.0.0.1 (a stand-in for the remote docs site) and returns its origin. */
async function startDocsServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (!/^\/[\w/-]+\.html$/.test(path) || path.includes("..")) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    try {
      const page = await readFile(new URL(`.${path}`, SITE));
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The `@agentool/tools-web` family: `web_fetch` reads a page of the project's documentation. The
 * site is served from `apps/demo/site/` on 127.0.0.1, and `web_fetch`'s `forward` option routes
 * `https://docs.tally.example/…` there — the model sees the public URL; the SSRF guard allows
 * exactly that one local server (`allowHosts`). Readability keeps only the article, and every
 * fetched page is saved as Markdown under `sources/` in the workspace, where the knowledge family's
 * `search_knowledge` finds it.
 */
export const webFamily: DemoFamily = {
  name: "web",
  createTools: async ({ onCleanup, workspaceRoot }) => {
    const docs = await startDocsServer();
    onCleanup(docs.close);
    const host = new URL(docs.origin).host;
    return [
      createNodeWebFetchTool({
        allowHosts: [host],
        readability: true,
        saveDir: join(workspaceRoot, SOURCES_FOLDER),
        forward: (url: string) => url.replace(DOCS_ORIGIN, docs.origin),
      }),
    ];
  },
  tasks: [
    {
      step: "Read the docs on JSON responses",
      turns: [
        {
          toolCalls: [
            {
              name: "web_fetch",
              arguments: { url: `${DOCS_ORIGIN}/guides/json-responses.html`, limit: 2_000 },
            },
          ],
        },
      ],
    },
  ],
  findings: [
    "For the next fix, the docs say GET /count must send Content-Type: application/json; charset=utf-8.",
  ],
};
