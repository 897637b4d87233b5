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
  // 30 files × 30 matching lines = 900 matches: more than a small page's first pass counts, but
  // few enough files for an exact total.
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
  // More files matching "broad" (520) than count mode's budget for a small page (500 files): a
  // content search for it stops counting (total_at_least).
  await mkdir(join(root, "wide"));
  await Promise.all(
    Array.from({ length: 520 }, (_, file) =>
      writeFile(join(root, "wide", `w${String(file).padStart(3, "0")}.txt`), "broad\n"),
    ),
  );
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
    { mode: "content, exact total", grep: { pattern: "TODO", glob: "*.ts", limit: 100 } },
    {
      mode: "content, stopped early (total_at_least)",
      grep: { pattern: "BROAD", path: "wide", ignore_case: true, limit: 100 },
    },
    {
      mode: "content with context",
      grep: { pattern: "hit1 ", path: "d1", literal: true, context_lines: 2, limit: 3 },
    },
    {
      mode: "files_with_matches",
      grep: {
        pattern: "TODO",
        path: "d0",
        glob: "f*.ts",
        output_mode: "files_with_matches",
        limit: 7,
      },
    },
    {
      mode: "count",
      grep: { pattern: "todo", ignore_case: true, output_mode: "count", limit: 4 },
    },
  ] as const;

  // The kit follows every marker to the last page: a walk takes several calls.
  it.each(cases)(
    "grep_search $mode, glob_search paged",
    async ({ grep }) => {
      await assertConformance(tools(["grep_search", "glob_search"]), {
        samples: { grep_search: { pattern: "hit29" }, glob_search: { pattern: "**/*.ts" } },
        cutSamples: { grep_search: grep, glob_search: { pattern: "*.ts", path: "d1", limit: 7 } },
      });
    },
    60_000,
  );

  it("names mounted siblings only", async () => {
    await assertConformance(tools(["grep_search", "glob_search", "read_file", "list_directory"]), {
      samples: { grep_search: { pattern: "zzz_absent" }, glob_search: { pattern: "*.nope" } },
      alsoMounted: ["read_file", "list_directory"],
    });
  });
});
