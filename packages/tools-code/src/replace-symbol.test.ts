import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { fitDefinition } from "./internal/symbol-edit/fit-definition.js";
import { pythonIndentationProblems } from "./internal/symbol-edit/python-indentation.js";
import { createReplaceSymbolTool, formatReplaceSymbol } from "./replace-symbol.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const STDLIB_DECODER = "/usr/lib/python3.11/json/decoder.py";
const PYTHON = "/usr/bin/python3";

const folder = workspaceFolder({
  ...(existsSync(STDLIB_DECODER)
    ? { "pyjson/decoder.py": readFileSync(STDLIB_DECODER, "utf8") }
    : {}),
  "src/c.py":
    "import functools\n\nclass C:\n    # kept\n    @staticmethod\n    @functools.lru_cache\n    def m(x):\n        return x\n\n    def n(self):\n        pass\n",
  "src/d.ts":
    "class D {\n  /** doc */\n  @memo()\n  run(): number {\n    return 1;\n  }\n\n  other(): void {}\n}\n",
  "src/a.ts":
    "export class A {\r\n  run(): number {\r\n    return 1;\r\n  }\r\n}\r\nexport class B {\r\n  run(): number {\r\n    return 2;\r\n  }\r\n}\r\n",
  "src/b.py": "def f():\n    return 1\n\ndef f():\n    return 2\n",
});
afterAll(() => folder.remove());

const replaceSymbol = createReplaceSymbolTool({
  root: folder.root,
  mountedTools: ["code_outline", "edit_file"],
  expectedShas: true,
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

  it("offers expected_sha only with the expectedShas option", async () => {
    const plain = createReplaceSymbolTool({ root: folder.root });
    expect(JSON.stringify(z.toJSONSchema(plain.input))).not.toContain("expected_sha");
    expect(JSON.stringify(z.toJSONSchema(replaceSymbol.input))).toContain("expected_sha");
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

/** Whether Python's own parser accepts a file (its ast module; indentation included). */
function pythonParses(path: string): boolean {
  try {
    execFileSync(PYTHON, ["-c", "import ast,sys; ast.parse(sys.stdin.read())"], {
      input: read(path),
      stdio: ["pipe", "ignore", "ignore"],
    });
    return true;
  } catch {
    return false;
  }
}

describe("replace_symbol's layout", () => {
  it.runIf(existsSync(STDLIB_DECODER) && existsSync(PYTHON))(
    "re-indents a dedented Python method as a block, and Python parses the file",
    async () => {
      const result = await replaceSymbol.run({
        path: "pyjson/decoder.py",
        name: "JSONDecoder.decode",
        new_body: "def decode(self, s):\n    return self.raw_decode(s)[0]",
      });
      if (!result.success) throw new Error(result.error.message);
      expect(read("pyjson/decoder.py")).toContain(
        "    def decode(self, s):\n        return self.raw_decode(s)[0]\n\n    def raw_decode",
      );
      expect(pythonParses("pyjson/decoder.py")).toBe(true);
      expect(result.data.new_end_line).toBe(result.data.start_line + 1);
    },
  );

  it("re-indents a TypeScript method written at column 0 to the class's members", async () => {
    const result = await replaceSymbol.run({
      path: "src/d.ts",
      name: "D.other",
      new_body: "other(): void {\n  if (this) {\n    return;\n  }\n}",
    });
    if (!result.success) throw new Error(result.error.message);
    expect(read("src/d.ts")).toContain(
      "  other(): void {\n    if (this) {\n      return;\n    }\n  }\n}\n",
    );
  });

  it("refuses a Python body that Python would reject for its indentation (tree-sitter does not)", async () => {
    const before = read("src/c.py");
    for (const new_body of [
      "def n(self):\nreturn 1",
      "def n(self):\n        x = 1\n      return x",
      "def n(self):\n    return 1\n        y = 2",
    ]) {
      const result = await replaceSymbol.run({ path: "src/c.py", name: "C.n", new_body });
      expect(result.success === false && result.error.code).toBe("INVALID_INPUT");
      expect(result.success === false && result.error.message).toMatch(
        /mis-indented \(line 1[0-2]/,
      );
    }
    expect(read("src/c.py")).toBe(before);
  });

  it("copies a body whose lines after the first keep the file's indentation as they are", () => {
    expect(
      fitDefinition("def f(self):\n        return 1", "    ", "def f(self):\n        pass"),
    ).toBe("def f(self):\n        return 1");
    expect(
      fitDefinition("\n    def f(self):\n        return 1\n\n", "    ", "def f(self): pass"),
    ).toBe("def f(self):\n        return 1");
  });

  it("checks Python's indentation rules, strings and brackets aside", () => {
    expect(pythonIndentationProblems("def f():\nreturn 1\n")).toEqual([
      { line: 2, message: "expected an indented block" },
    ]);
    expect(
      pythonIndentationProblems(
        'def f(a,\n  b):\n    """doc\nat column 0\n    """\n    x = [\n1]  # :\n    if x:  # c\n\n        return {\n  "k": 1}\n',
      ),
    ).toEqual([]);
    expect(pythonIndentationProblems("if x:\n    a\n  b\n")[0]?.message).toBe(
      "unindent does not match any outer indentation level",
    );
  });
});

describe("replace_symbol's span: decorators and the declaration, not the comments above", () => {
  it("replaces a Python method's decorators with it and says so, noting dropped ones", async () => {
    const result = await replaceSymbol.run({
      path: "src/c.py",
      name: "C.m",
      new_body: "def m(x):\n    return x + 1",
    });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ start_line: 5, end_line: 8, decorators: true });
    const text = formatReplaceSymbol(result.data);
    expect(text).toContain("lines 5-8, decorators included");
    expect(text).toContain("they are gone");
    expect(read("src/c.py")).toContain("    # kept\n    def m(x):\n        return x + 1\n");
  });

  it("replaces a TypeScript member's decorators too, so repeating them does not duplicate them", async () => {
    const result = await replaceSymbol.run({
      path: "src/d.ts",
      name: "D.run",
      new_body: "@memo()\nrun(): number {\n  return 2;\n}",
    });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ start_line: 3, end_line: 6, decorators: true });
    expect(read("src/d.ts")).toContain(
      "  /** doc */\n  @memo()\n  run(): number {\n    return 2;\n  }\n",
    );
    expect(formatReplaceSymbol(result.data)).not.toContain("they are gone");
  });

  it("dry_run returns the diff and writes nothing; the sha is printed short", async () => {
    const before = read("src/d.ts");
    const result = await replaceSymbol.run({
      path: "src/d.ts",
      name: "D.run",
      new_body: "@memo()\nrun(): number {\n  return 3;\n}",
      dry_run: true,
    });
    if (!result.success) throw new Error(result.error.message);
    expect(read("src/d.ts")).toBe(before);
    const text = formatReplaceSymbol(result.data);
    expect(text).toMatch(
      /^Dry run: would replace method D\.run in src\/d\.ts: lines 3-6, decorators included, then 3-6 \(\+1 -1\); nothing was written\. sha after: [0-9a-f]{12}$/m,
    );
    expect(text).toContain("+    return 3;");
    expect(text).not.toMatch(/[0-9a-f]{13}/);
  });

  it("refuses an empty new_body, naming the tools that delete", async () => {
    const result = await replaceSymbol.run({ path: "src/d.ts", name: "D.run", new_body: " \n" });
    expect(result.success === false && result.error.code).toBe("INVALID_INPUT");
    expect(result.success === false && result.error.hint).toContain(
      "lines 3-6 of src/d.ts with edit_file",
    );
  });
});

describe("fitDefinition", () => {
  it("reads a decorated block copied from the file with its first line stripped", () => {
    expect(
      fitDefinition(
        "@staticmethod\n    def m(x):\n        return x",
        "    ",
        "@staticmethod\n    def m(x):\n        return 0",
      ),
    ).toBe("@staticmethod\n    def m(x):\n        return x");
    expect(
      fitDefinition(
        "def m(x):\n    return x",
        "    ",
        "@staticmethod\n    def m(x):\n        return 0",
      ),
    ).toBe("def m(x):\n        return x");
  });
});
