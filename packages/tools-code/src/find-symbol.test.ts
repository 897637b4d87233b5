import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createCodeTools } from "./create-code-tools.js";
import { createFindSymbolTool, formatFindSymbol } from "./find-symbol.js";
import type { RepoMapToolData } from "./repo-map.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({
  "src/parser.ts":
    "export class Parser {\n  parse(input: string): number {\n    return input.length;\n  }\n}\n",
  "src/util.ts":
    "// parse is mentioned here only in a comment\nexport function parse(text: string) {\n  return text;\n}\n",
  "lib/json/__init__.py": "def loads(s):\n    return s\n",
  "lib/json/decoder.py": "class JSONDecoder:\n    def decode(self, s):\n        return s\n",
  "server/server.go":
    "package server\n\nfunc New() *Server {\n\treturn &Server{}\n}\n\ntype Server struct{}\n",
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
      "src/parser.ts:2-4  method parse(input: string): number  (in Parser)",
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
    // A module path before the name: a Python package's module, a Go package (its directory).
    for (const [name, path] of [
      ["json.decoder.JSONDecoder", "lib/json/decoder.py"],
      ["lib.json.decoder.JSONDecoder.decode", "lib/json/decoder.py"],
      ["server.New", "server/server.go"],
    ]) {
      const found = await findSymbol.run({ name });
      expect(found.success && found.data.hits.map((hit) => hit.path)).toEqual([path]);
    }
    const wrongModule = await findSymbol.run({ name: "yaml.decoder.JSONDecoder" });
    expect(wrongModule.success && wrongModule.data.hits).toEqual([]);
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

  it("refuses control characters in a name and the heuristic-only kinds, with INVALID_INPUT", async () => {
    for (const input of [
      { name: "\u0000" },
      { name: "a\nb" },
      { name: "parse", kind: "heading" },
    ]) {
      const result = await findSymbol.run(input as { name: string });
      expect(result.success === false && result.error.code).toBe("INVALID_INPUT");
    }
  });

  it("shows a definition's kind only where its signature does not say it", async () => {
    const result = await findSymbol.run({ name: "loads" });
    expect(result.success && formatFindSymbol(result.data)).toContain(
      "lib/json/__init__.py:1-2  def loads(s):",
    );
  });
});

describe("find_symbol's symbol cache", () => {
  // Two texts of the same size that declare `settle` on different lines.
  const first = "export function settle(): number { return 1; }\n// padding\n";
  const second = "// padding\nexport function settle(): number { return 1; }\n";
  const old = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);

  it("parses a file once per version (size, mtime and inode), and again when it changes", async () => {
    const scratch = workspaceFolder({ "src/settle.ts": first });
    try {
      const path = join(scratch.root, "src/settle.ts");
      utimesSync(path, old, old);
      const tool = createFindSymbolTool({ root: scratch.root });
      const lines = async (): Promise<number[]> => {
        const result = await tool.run({ name: "settle" });
        if (!result.success) throw new Error(result.error.message);
        return result.data.hits.map((hit) => hit.start_line);
      };
      expect(await lines()).toEqual([1]);
      // Same size, mtime put back: the cache cannot tell, so the warm call answers as before.
      writeFileSync(path, second);
      utimesSync(path, old, old);
      expect(await lines()).toEqual([1]);
      // A new mtime: parsed again.
      utimesSync(path, old, new Date(old.getTime() + 5_000));
      expect(await lines()).toEqual([2]);
      // A file changed in the last two seconds is never remembered (its stamp may hide a rewrite).
      writeFileSync(path, first);
      expect(await lines()).toEqual([1]);
      writeFileSync(path, second);
      expect(await lines()).toEqual([2]);
    } finally {
      scratch.remove();
    }
  });

  it("is one cache for the tools of one createCodeTools: repo_map reuses what find_symbol parsed", async () => {
    const scratch = workspaceFolder({
      "src/settle.ts": first,
      "src/use.ts": "import { settle } from './settle';\nsettle();\n",
    });
    try {
      const path = join(scratch.root, "src/settle.ts");
      utimesSync(path, old, old);
      const tools = new Map(
        createCodeTools({ root: scratch.root }).map((tool) => [tool.name, tool]),
      );
      const found = await tools.get("find_symbol")?.run({ name: "settle" });
      expect(found?.success).toBe(true);
      writeFileSync(path, second);
      utimesSync(path, old, old);
      const map = await tools.get("repo_map")?.run({});
      if (map?.success !== true) throw new Error("repo_map failed");
      // The symbols come from find_symbol's parse (line 1), not from a second parse (line 2).
      const settle = (map.data as RepoMapToolData).files
        .find((file) => file.path === "src/settle.ts")
        ?.symbols.find((symbol) => symbol.name === "settle");
      expect(settle?.start_line).toBe(1);
    } finally {
      scratch.remove();
    }
  });
});
