import { realpathSync } from "node:fs";
import { assertConformance } from "@agentool/contract/testing";
import { afterAll, describe, expect, it } from "vitest";
import {
  CODE_READ_TOOL_NAMES,
  CODE_WRITE_TOOL_NAMES,
  createCodeTools,
} from "./create-code-tools.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

// A small project with enough symbols, references and matches that every paged tool's cut
// sample has later pages for the kit to follow to the end.
const files: Record<string, string> = {
  "src/shapes.ts": [
    "export interface Shape {",
    "  area(): number;",
    "  name: string;",
    "}",
    ...Array.from({ length: 8 }, (_, index) =>
      [
        `export class Shape${index} implements Shape {`,
        `  name = "shape${index}";`,
        "  area(): number {",
        `    console.log("area", ${index});`,
        `    return ${index};`,
        "  }",
        "}",
      ].join("\n"),
    ),
  ].join("\n"),
  "src/use.ts": Array.from(
    { length: 6 },
    (_, index) =>
      `import { Shape${index} } from "./shapes";\nexport const total${index} = new Shape${index}().area();\nconsole.log(total${index});`,
  ).join("\n"),
  "tools/report.py": "def report(shapes):\n    return [s.area() for s in shapes]\n",
  "legacy.js": "var a = 1;\nvar b = 2;\n",
};
const folder = workspaceFolder(files);
afterAll(() => folder.remove());

const samples = {
  repo_map: { path: "src", budget_tokens: 400 },
  code_outline: { path: "src/shapes.ts" },
  find_symbol: { name: "area", path: "src" },
  find_references: { name: "Shape3", path: "src" },
  ast_search: { pattern: "console.log($$$ARGS)", language: "typescript", path: "src" },
};
// Each cut sample keeps its filters and a small limit: the kit follows every marker literally to
// the last page and fails when one drops an argument or the total changes between pages.
const cutSamples = {
  repo_map: { path: "src", budget_tokens: 128 },
  code_outline: { path: "src/shapes.ts", limit: 5 },
  find_symbol: { name: "area", path: "src", limit: 3 },
  find_references: { name: "area", path: "src", limit: 4 },
  ast_search: { pattern: "console.log($$$ARGS)", language: "typescript", path: "src", limit: 4 },
};

describe("createCodeTools", () => {
  for (const mode of ["read-only", "read-write"] as const) {
    it(`every tool passes the conformance kit, cut outputs followed to the end (${mode})`, async () => {
      const root = realpathSync(folder.root);
      const tools = createCodeTools({ root, mode });
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        [...CODE_READ_TOOL_NAMES, ...(mode === "read-write" ? CODE_WRITE_TOOL_NAMES : [])].sort(),
      );
      await assertConformance(tools, {
        workspaceRoot: root,
        samples:
          mode === "read-only"
            ? samples
            : {
                ...samples,
                replace_symbol: {
                  path: "legacy.js",
                  name: "b",
                  new_body: "var b = 3;",
                },
                ast_rewrite: {
                  pattern: "var $A = $B",
                  rewrite: "let $A = $B",
                  language: "javascript",
                  path: "legacy.js",
                  dry_run: true,
                },
              },
        cutSamples,
      });
    });
  }
});
