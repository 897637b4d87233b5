import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createReplaceSymbolTool, formatReplaceSymbol } from "./replace-symbol.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({
  "src/a.ts":
    "export class A {\r\n  run(): number {\r\n    return 1;\r\n  }\r\n}\r\nexport class B {\r\n  run(): number {\r\n    return 2;\r\n  }\r\n}\r\n",
  "src/b.py": "def f():\n    return 1\n\ndef f():\n    return 2\n",
});
afterAll(() => folder.remove());

const replaceSymbol = createReplaceSymbolTool({
  root: folder.root,
  mountedTools: ["code_outline", "edit_file"],
});
const read = (path: string) => readFileSync(join(folder.root, path), "utf8");

describe("replace_symbol", () => {
  it("refuses an ambiguous name, listing the candidates with their lines", async () => {
    const result = await replaceSymbol.run({ path: "src/a.ts", name: "run", new_body: "run() {}" });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe("PATTERN_NOT_UNIQUE");
    expect(result.error.message).toContain("method A.run (lines 2-4); method B.run (lines 7-9)");
    expect(result.error.hint).toContain("qualified name");
  });

  it("replaces one definition by qualified name, keeping CRLF, with a diff and the new sha", async () => {
    const result = await replaceSymbol.run({
      path: "src/a.ts",
      name: "B.run",
      new_body: "  run(): number {\n    return 20;\n  }\n",
    });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({
      qualified_name: "B.run",
      start_line: 7,
      end_line: 9,
      new_end_line: 9,
    });
    expect(read("src/a.ts")).toContain("  run(): number {\r\n    return 20;\r\n  }\r\n}\r\n");
    expect(read("src/a.ts")).toContain("return 1;");
    expect(formatReplaceSymbol(result.data)).toContain("+    return 20;");
  });

  it("refuses a body that adds syntax errors, an unknown name and a stale sha", async () => {
    const broken = await replaceSymbol.run({ path: "src/a.ts", name: "A.run", new_body: "run( {" });
    expect(broken.success === false && broken.error.code).toBe("INVALID_INPUT");
    expect(broken.success === false && broken.error.message).toContain("syntax error");
    const unknown = await replaceSymbol.run({ path: "src/a.ts", name: "A.rn", new_body: "x" });
    expect(unknown.success === false && unknown.error.hint).toContain("A.run");
    const stale = await replaceSymbol.run({
      path: "src/a.ts",
      name: "A.run",
      new_body: "run() {}",
      expected_sha: "0123456789ab",
    });
    expect(stale.success === false && stale.error.code).toBe("CONFLICT");
    expect(read("src/a.ts")).toContain("return 1;");
  });

  it("says when redefinitions share one name", async () => {
    const result = await replaceSymbol.run({
      path: "src/b.py",
      name: "f",
      new_body: "def f():\n    return 3\n",
    });
    expect(result.success === false && result.error.hint).toContain("edit_file");
  });
});
