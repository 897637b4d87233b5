import { afterAll, describe, expect, it } from "vitest";
import { createFindSymbolTool, formatFindSymbol } from "./find-symbol.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({
  "src/parser.ts":
    "export class Parser {\n  parse(input: string): number {\n    return input.length;\n  }\n}\n",
  "src/util.ts":
    "// parse is mentioned here only in a comment\nexport function parse(text: string) {\n  return text;\n}\n",
  "lib/json/__init__.py": "def loads(s):\n    return s\n",
  "ignored/gen.ts": "export function parse() {}\n",
  ".gitignore": "ignored/\n",
  ".env": "parse=1\n",
});
afterAll(() => folder.remove());

const findSymbol = createFindSymbolTool({
  root: folder.root,
  mountedTools: ["grep_search", "find_references"],
});

describe("find_symbol", () => {
  it("finds every definition of a name, not its mentions, skipping ignored and secret files", async () => {
    const result = await findSymbol.run({ name: "parse" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.total).toBe(2);
    expect(
      result.data.hits.map(
        (hit) => `${hit.path}:${hit.start_line}-${hit.end_line} ${hit.qualified_name}`,
      ),
    ).toEqual(["src/parser.ts:2-4 Parser.parse", "src/util.ts:2-4 parse"]);
    expect(formatFindSymbol(result.data)).toContain(
      "src/parser.ts:2-4  method Parser.parse — parse(input: string): number",
    );
  });

  it("takes qualified names, module paths and a kind filter", async () => {
    const qualified = await findSymbol.run({ name: "Parser.parse" });
    expect(qualified.success && qualified.data.hits.map((hit) => hit.path)).toEqual([
      "src/parser.ts",
    ]);
    const module = await findSymbol.run({ name: "json.loads" });
    expect(module.success && module.data.hits.map((hit) => hit.path)).toEqual([
      "lib/json/__init__.py",
    ]);
    const functions = await findSymbol.run({ name: "parse", kind: "function" });
    expect(functions.success && functions.data.hits.map((hit) => hit.path)).toEqual([
      "src/util.ts",
    ]);
  });

  it("pages, and says what to try when nothing is found", async () => {
    const page = await findSymbol.run({ name: "parse", limit: 1 });
    expect(page.success && page.data).toMatchObject({ total: 2, next_offset: 2, truncated: true });
    const none = await findSymbol.run({ name: "input.length" });
    if (!none.success) throw new Error(none.error.message);
    expect(none.data.total).toBe(0);
    expect(formatFindSymbol(none.data)).toMatch(/find_references.*grep_search/s);
    const absent = await findSymbol.run({ name: "NoSuchName" });
    expect(absent.success && absent.data.message).toContain("no file in the workspace contains");
  });
});
