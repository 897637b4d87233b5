import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createGlobSearchTool } from "./glob-search.js";
import { createGrepSearchTool } from "./grep-search.js";
import { createNodeFileSystem } from "./node/node-file-system.js";
import { createRipgrepLister, createRipgrepSearcher } from "./node/ripgrep/index.js";
import { createWorkspace } from "./workspace.js";

let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "agentool-search-conformance-"));
  // 30 files × 30 matching lines = 900 matches: above the counting budget of a small page.
  for (let directory = 0; directory < 3; directory += 1) {
    await mkdir(join(root, `d${directory}`), { recursive: true });
    for (let file = 0; file < 10; file += 1) {
      await writeFile(
        join(root, `d${directory}`, `f${file}.ts`),
        Array.from({ length: 30 }, (_, line) => `const hit${line} = ${line}; // TODO`).join("\n"),
      );
    }
  }
  await writeFile(join(root, ".env"), "TODO=secret\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const engines = [
  { name: "ripgrep", node: true },
  { name: "js engine", node: false },
] as const;

describe.each(engines)("grep_search and glob_search pass the conformance kit ($name)", (engine) => {
  function tools(mountedTools: readonly string[]) {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    return [
      createGrepSearchTool({
        workspace,
        mountedTools,
        ...(engine.node ? { searcher: createRipgrepSearcher({ root }) } : {}),
      }),
      createGlobSearchTool({
        workspace,
        mountedTools,
        ...(engine.node ? { lister: createRipgrepLister({ root }) } : {}),
      }),
    ];
  }

  const cases = [
    { mode: "content, exact total", grep: { pattern: "TODO", limit: 300 } },
    { mode: "content, stopped early (total_at_least)", grep: { pattern: "TODO", limit: 5 } },
    {
      mode: "content with context",
      grep: { pattern: "hit1 ", context_lines: 2, limit: 3 },
    },
    {
      mode: "files_with_matches",
      grep: { pattern: "TODO", output_mode: "files_with_matches", limit: 7 },
    },
    { mode: "count", grep: { pattern: "TODO", output_mode: "count", limit: 4 } },
  ] as const;

  it.each(cases)("grep_search $mode, glob_search paged", async ({ grep }) => {
    await assertConformance(tools(["grep_search", "glob_search"]), {
      samples: { grep_search: { pattern: "hit29" }, glob_search: { pattern: "**/*.ts" } },
      cutSamples: { grep_search: grep, glob_search: { pattern: "**/*.ts", limit: 7 } },
    });
  });

  it("names mounted siblings only", async () => {
    await assertConformance(tools(["grep_search", "glob_search", "read_file", "list_directory"]), {
      samples: { grep_search: { pattern: "zzz_absent" }, glob_search: { pattern: "*.nope" } },
      alsoMounted: ["read_file", "list_directory"],
    });
  });
});
