import { describe, expect, it } from "vitest";
import { extractSymbols } from "./extract-symbols.js";
import { collectIdentifiers } from "./identifiers.js";
import { languageForPath } from "./languages.js";

const names = async (language: Parameters<typeof extractSymbols>[0], text: string) =>
  (await extractSymbols(language, text)).symbols.map(
    (symbol) => `${symbol.kind} ${symbol.qualified_name} ${symbol.start_line}-${symbol.end_line}`,
  );

describe("extractSymbols", () => {
  it("signatures read as one line: no space inside brackets, no dangling comma or '='", async () => {
    const text = [
      "class Client {",
      "  batches: Batches = new Batches(this);",
      "  create(",
      "    params: Params,",
      "    options?: { stream: true },",
      "  ): Promise<Message> {",
      "    return send(params);",
      "  }",
      "}",
    ].join("\n");
    const { symbols } = await extractSymbols("typescript", text);
    const signatures = Object.fromEntries(symbols.map((symbol) => [symbol.name, symbol.signature]));
    expect(signatures.batches).toBe("batches: Batches");
    expect(signatures.create).toBe(
      "create(params: Params, options?: {stream: true}): Promise<Message>",
    );
  });

  it("TypeScript: exported flags, members, namespaces, signatures without bodies", async () => {
    const text = [
      "export class Parser<T> extends Base {",
      "  private cache = new Map();",
      "  constructor(private readonly input: string) { super(); }",
      "  parse(): T {",
      "    return 1 as T;",
      "  }",
      "}",
      "function helper(a: number): number { return a; }",
      "export namespace Tools { export const x = 1; }",
    ].join("\n");
    const { symbols, method, errorCount } = await extractSymbols("typescript", text);
    expect(method).toBe("tree-sitter");
    expect(errorCount).toBe(0);
    expect(symbols.map((symbol) => symbol.qualified_name)).toEqual([
      "Parser",
      "Parser.cache",
      "Parser.constructor",
      "Parser.parse",
      "helper",
      "Tools",
      "Tools.x",
    ]);
    const parse = symbols.find((symbol) => symbol.name === "parse");
    expect(parse).toMatchObject({ kind: "method", start_line: 4, end_line: 6, parent: "Parser" });
    expect(parse?.signature).toBe("parse(): T");
    expect(symbols[0]).toMatchObject({
      exported: true,
      signature: "export class Parser<T> extends Base",
    });
    expect(symbols.find((symbol) => symbol.name === "helper")?.exported).toBe(false);
  });

  it("Python: decorators in the span, methods and constructors, conditional definitions", async () => {
    const text =
      "if X:\n    def f(): pass\nclass A:\n    @property\n    def p(self):\n        return 1\n    def __init__(self): ...\n";
    expect(await names("python", text)).toEqual([
      "function f 2-2",
      "class A 3-7",
      "method A.p 4-6",
      "constructor A.__init__ 7-7",
    ]);
  });

  it("Go, Rust, Java, C++, C#, Ruby, PHP, Bash and CSS give their declarations", async () => {
    expect(
      await names("go", "package p\ntype S struct { A int }\nfunc (s *S) M() {}\nfunc F() {}\n"),
    ).toEqual(["struct S 2-2", "field S.A 2-2", "method S.M 3-3", "function F 4-4"]);
    expect(await names("rust", "pub struct S;\nimpl S { pub fn new() -> S { S } }\n")).toEqual([
      "struct S 1-1",
      "impl S 2-2",
      "method S.new 2-2",
    ]);
    expect(await names("java", "class A { int x; A() {} void m() {} }")).toEqual([
      "class A 1-1",
      "field A.x 1-1",
      "constructor A.A 1-1",
      "method A.m 1-1",
    ]);
    expect(
      await names("cpp", "namespace n { class C { void m(); }; }\nint C::g() { return 1; }\n"),
    ).toEqual(["namespace n 1-1", "class n.C 1-1", "method n.C.m 1-1", "method C.g 2-2"]);
    expect(
      await names("csharp", "namespace N { class A { public int P { get; set; } void M() {} } }"),
    ).toEqual(["namespace N 1-1", "class N.A 1-1", "property N.A.P 1-1", "method N.A.M 1-1"]);
    expect(await names("ruby", "module M\n  class A\n    def m; end\n  end\nend\n")).toEqual([
      "module M 1-5",
      "class M.A 2-4",
      "method M.A.m 3-3",
    ]);
    expect(await names("php", "<?php class A { public function m() {} }\nfunction f() {}")).toEqual(
      ["class A 1-1", "method A.m 1-1", "function f 2-2"],
    );
    expect(await names("bash", "deploy() {\n  echo\n}\n")).toEqual(["function deploy 1-3"]);
    expect(await names("css", ".a > b { color: red }\n")).toEqual(["rule .a > b 1-1"]);
  });

  it("labels heuristic outlines: Markdown headings, YAML keys, a file over the size cap", async () => {
    const markdown = await extractSymbols(
      "markdown",
      "# Title\n\n```\n# not a heading\n```\n## Part\ntext\n",
    );
    expect(markdown.method).toBe("heuristic");
    expect(markdown.heuristicReason).toBe("no_grammar");
    expect(
      markdown.symbols.map(
        (symbol) => `${symbol.qualified_name} ${symbol.start_line}-${symbol.end_line}`,
      ),
    ).toEqual(["Title 1-7", "Title.Part 6-7"]);
    const yaml = await extractSymbols("yaml", "name: x\njobs:\n  build:\n    steps: []\n");
    expect(yaml.symbols.map((symbol) => symbol.qualified_name)).toEqual([
      "name",
      "jobs",
      "jobs.build",
    ]);
    const large = await extractSymbols("typescript", "export function f() {}\n", {
      maxParseBytes: 10,
    });
    expect(large).toMatchObject({ method: "heuristic", heuristicReason: "too_large" });
    expect(large.symbols[0]?.name).toBe("f");
  });

  it("counts syntax errors and tells languages by extension and shebang", async () => {
    const broken = await extractSymbols("typescript", "function f( {\n");
    expect(broken.errorCount).toBeGreaterThan(0);
    expect(languageForPath("src/a.tsx")).toBe("tsx");
    expect(languageForPath("include/x.h")).toBe("c");
    expect(languageForPath("bin/tool", "#!/usr/bin/env python3")).toBe("python");
    expect(languageForPath("notes")).toBeUndefined();
  });
});

describe("collectIdentifiers", () => {
  it("gives each occurrence its enclosing symbol and tells definitions from uses", async () => {
    const text =
      "class A {\n  parse() { return parse(1); }\n}\nfunction parse(x) { return x; } // parse\n";
    const scan = await collectIdentifiers("javascript", text, { names: new Set(["parse"]) });
    expect(
      scan.occurrences.map(
        (use) => `${use.line}:${use.column} ${use.enclosing?.qualified_name} ${use.isDefinition}`,
      ),
    ).toEqual(["2:2 A.parse true", "2:19 A.parse false", "4:9 parse true"]);
  });
});
