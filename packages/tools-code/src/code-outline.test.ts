import { parseNextCall } from "@agentool/contract";
import { afterAll, describe, expect, it } from "vitest";
import { createCodeOutlineTool, formatCodeOutline } from "./code-outline.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({
  "src/parser.ts":
    "export class Parser {\n  parse(input: string): number {\n    return input.length;\n  }\n}\nexport const VERSION = 1;\n",
  "docs/guide.md": "# Guide\n## Install\n",
  "src/kinds.py":
    "class A(B):\n    x: int = 1\n\n    def m(self):\n        pass\n\nasync def f():\n    pass\n",
  "src/kinds.ts":
    "export interface I {\n  a: string;\n}\nexport type T = I;\nnamespace geo {}\nexport const a0 = () => 1;\nexport default function g() {}\n",
  "src/one.ts": "export const ONE = 1;",
  ".env": "TOKEN=x\n",
  "bin/blob.ts": new Uint8Array([0, 1, 2]),
});
afterAll(() => folder.remove());

const outline = createCodeOutlineTool({ root: folder.root, mountedTools: ["read_file"] });

describe("code_outline", () => {
  it("lists a file's declarations with spans and signatures, nested", async () => {
    const result = await outline.run({ path: "src/parser.ts" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({
      language: "typescript",
      method: "tree-sitter",
      total: 3,
      truncated: false,
    });
    expect(result.data.symbols[1]).toMatchObject({
      kind: "method",
      qualified_name: "Parser.parse",
      start_line: 2,
      end_line: 4,
      signature: "parse(input: string): number",
    });
    const text = formatCodeOutline(result.data);
    expect(text).toContain("2-4         method parse(input: string): number");
    expect(outline.description).toContain("read_file");
  });

  it("shows the kind only where the signature does not say it, and counts one line as one", async () => {
    const python = await outline.run({ path: "src/kinds.py" });
    if (!python.success) throw new Error(python.error.message);
    expect(formatCodeOutline(python.data).split("\n").slice(1)).toEqual([
      "1-5       class A(B):",
      "2           variable x: int = 1",
      "4-5         def m(self):",
      "7-8       async def f():",
    ]);
    const typescript = await outline.run({ path: "src/kinds.ts" });
    if (!typescript.success) throw new Error(typescript.error.message);
    const text = formatCodeOutline(typescript.data);
    expect(text).toContain("\n1-3       export interface I\n");
    expect(text).toContain("\n4         export type T = I;\n");
    expect(text).toContain("\n5         namespace geo\n");
    expect(text).toContain("\n6         function export const a0 = () =>\n");
    expect(text).toContain("\n7         export default function g()");
    expect(text).not.toMatch(/\b(interface|type|function|namespace) \1\b/);
    const one = await outline.run({ path: "src/one.ts" });
    expect(one.success && formatCodeOutline(one.data)).toContain("1 symbol, 1 line\n");
  });

  it("pages with the contract's marker naming the next call", async () => {
    const result = await outline.run({ path: "src/parser.ts", limit: 1 });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ total: 3, next_offset: 2, truncated: true });
    const next = parseNextCall(formatCodeOutline(result.data));
    expect(next?.args).toMatchObject({ path: "src/parser.ts", limit: 1, offset: 2 });
  });

  it("labels a heuristic outline", async () => {
    const result = await outline.run({ path: "docs/guide.md" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.method).toBe("heuristic");
    expect(formatCodeOutline(result.data)).toContain("Heuristic outline");
  });

  it("refuses secrets, escapes, missing and binary files with a code", async () => {
    const codes = await Promise.all(
      [".env", "../x.ts", "src/missing.ts", "bin/blob.ts", "src"].map(async (path) => {
        const result = await outline.run({ path });
        return result.success ? "ok" : result.error.code;
      }),
    );
    expect(codes).toEqual([
      "BLOCKED",
      "INVALID_PATH",
      "FILE_NOT_FOUND",
      "UNSUPPORTED",
      "INVALID_INPUT",
    ]);
  });
});
