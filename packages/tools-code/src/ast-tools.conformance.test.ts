import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import { createWorkspace } from "@agentool/tools-fs";
import { createNodeFileSystem } from "@agentool/tools-fs/node";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createAstRewriteTool } from "./ast-rewrite.js";
import { createAstSearchTool } from "./ast-search.js";

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), "agentool-ast-conformance-")));
  await mkdir(join(root, "src"), { recursive: true });
  for (let index = 0; index < 4; index += 1)
    await writeFile(
      join(root, "src", `m${index}.ts`),
      `export function f${index}(a: number) {\n  console.log("f${index}", a);\n  return a;\n}\nconsole.log(${index});\n`,
    );
  await writeFile(join(root, "src", "old.js"), "var a = 1;\nvar b = 2;\n");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("ast_search and ast_rewrite", () => {
  it("pass the conformance kit, a cut ast_search page followed to its end included", async () => {
    const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
    const mounted = ["ast_search", "ast_rewrite"];
    const tools = [
      createAstSearchTool({ workspace, mountedTools: mounted }),
      createAstRewriteTool({ workspace, mountedTools: mounted }),
    ];
    await assertConformance(tools, {
      workspaceRoot: root,
      samples: {
        ast_search: { pattern: "console.log($$$ARGS)", language: "typescript", path: "src" },
        ast_rewrite: {
          pattern: "var $A = $B",
          rewrite: "let $A = $B",
          language: "javascript",
          path: "src",
        },
      },
      cutSamples: {
        ast_search: {
          pattern: "console.log($$$ARGS)",
          language: "typescript",
          path: "src",
          limit: 3,
        },
      },
    });
  });
});
