import {
  createInMemoryVectorStore,
  createRememberTool,
  createSearchKnowledgeTool,
  createStoreSource,
} from "@agentool/tools-knowledge";
import { createCorpusSource } from "@agentool/tools-knowledge/node";
import type { DemoFamily } from "./demo-family.js";
import { DOCS_ORIGIN } from "./web.js";

/** The tools the knowledge tools' descriptions may name (all served by the demo). */
const MOUNTED = [
  "read_file",
  "grep_search",
  "web_fetch",
  "search_knowledge",
  "remember",
  "search_memory",
];

/** The page the web family fetched and saved under `sources/`, as `search_knowledge` cites it. */
export const SAVED_DOCS_PAGE = "sources/docs.tally.example-guides-json-responses.md";

/**
 * The `@agentool/tools-knowledge` family: `search_knowledge` over the workspace (the folder the
 * web family's `web_fetch` saves pages into, under `sources/`), with its sidecar index in
 * `.knowledge/`; `remember` and `search_memory` over an in-memory store. The loop it shows:
 * fetch a page (web family) → search_knowledge → read the cited lines with read_file (files
 * family) → remember the rule → recall it with search_memory. It runs after the files and web
 * families (it needs their `read_file` and the saved page).
 */
export const knowledgeFamily: DemoFamily = {
  name: "knowledge",
  createTools: ({ workspaceRoot, onCleanup }) => {
    const corpus = createCorpusSource({ root: workspaceRoot });
    onCleanup(() => corpus.close());
    const store = createInMemoryVectorStore();
    return [
      createSearchKnowledgeTool({ source: corpus, mountedTools: MOUNTED }),
      createRememberTool({ store, searchToolName: "search_memory", mountedTools: MOUNTED }),
      createSearchKnowledgeTool({
        source: createStoreSource({ store }),
        sourceKind: "store",
        name: "search_memory",
        mountedTools: MOUNTED,
      }),
    ];
  },
  tasks: [
    {
      // One plan step for the search and the cited lines: update_plan takes at most 20 steps.
      step: "Search the saved docs for the response headers rule and read the cited lines",
      turns: [
        {
          toolCalls: [
            {
              name: "search_knowledge",
              arguments: {
                query: "content type header charset",
                path_prefix: "sources/",
                limit: 3,
              },
            },
          ],
        },
        {
          toolCalls: [
            { name: "read_file", arguments: { path: SAVED_DOCS_PAGE, offset: 10, limit: 8 } },
          ],
        },
      ],
    },
    {
      step: "Remember the rule and recall it",
      turns: [
        {
          toolCalls: [
            {
              name: "remember",
              arguments: {
                text: "GET /count must answer with Content-Type: application/json; charset=utf-8.",
                source: `${DOCS_ORIGIN}/guides/json-responses.html`,
                tags: ["api", "headers"],
              },
            },
          ],
        },
        {
          toolCalls: [{ name: "search_memory", arguments: { query: "count content type" } }],
        },
      ],
    },
  ],
  findings: [
    "The rule is saved in memory (search_memory finds it) and cited from the saved docs page.",
  ],
};
