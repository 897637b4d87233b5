import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspace, type FileSystem, FileSystemError } from "@agentool/tools-fs";
import { createNodeFileSystem } from "@agentool/tools-fs/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AstRewriteToolData,
  createAstRewriteTool,
  formatAstRewriteResult,
} from "./ast-rewrite.js";

let base: string;
let counter = 0;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "agentool-ast-rewrite-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function makeTree(files: Record<string, string | Uint8Array>): Promise<string> {
  counter += 1;
  const root = join(base, `tree-${counter}`);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

function rewriteTool(
  root: string,
  fileSystem?: FileSystem,
  options: { expectedShas?: boolean } = {},
) {
  const workspace = createWorkspace({ fileSystem: fileSystem ?? createNodeFileSystem({ root }) });
  return createAstRewriteTool({
    workspace,
    mountedTools: ["ast_search", "grep_search"],
    ...options,
  });
}

async function rewrite(root: string, input: Record<string, unknown>, fileSystem?: FileSystem) {
  const result = await rewriteTool(root, fileSystem).run(input);
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data as AstRewriteToolData;
}

async function codeOf(root: string, input: Record<string, unknown>) {
  const result = await rewriteTool(root).run(input);
  return result.success ? "ok" : result.error.code;
}

const read = (root: string, path: string) => readFile(join(root, path), "utf8");

describe("ast_rewrite", () => {
  it("rewrites every match across files with the captures, returns a diff per file, and a dry run writes nothing", async () => {
    const root = await makeTree({
      "src/a.ts": "console.log(a, b);\nconsole.error(x);\n",
      "src/b.tsx":
        "export const B = () => {\n  console.log('b');\n  return <i>{console.log()}</i>;\n};\n",
      ".env.ts": "console.log(secret);\n",
    });
    const input = {
      pattern: "console.log($$$ARGS)",
      rewrite: "logger.info($$$ARGS)",
      language: "typescript",
    };
    const preview = await rewrite(root, { ...input, dry_run: true });
    expect(preview).toMatchObject({ dry_run: true, applied: false, total_replacements: 3 });
    expect(await read(root, "src/a.ts")).toBe("console.log(a, b);\nconsole.error(x);\n");
    const data = await rewrite(root, input);
    expect(data).toMatchObject({ applied: true, total_replacements: 3, added: 3, removed: 3 });
    expect(data.files.map((file) => [file.path, file.replacements])).toEqual([
      ["src/a.ts", 1],
      ["src/b.tsx", 2],
    ]);
    expect(data.files[0]?.diff).toContain("-console.log(a, b);\n+logger.info(a, b);");
    expect(data.files[0]?.sha).toBe(preview.files[0]?.sha);
    expect(await read(root, "src/a.ts")).toBe("logger.info(a, b);\nconsole.error(x);\n");
    expect(await read(root, "src/b.tsx")).toContain("return <i>{logger.info()}</i>;");
    expect(await read(root, ".env.ts")).toBe("console.log(secret);\n");
    expect(formatAstRewriteResult(data)).toMatch(/^Rewrote 3 matches in 2 files \(\+3 −3 lines\)/);
    const again = await rewrite(root, input);
    expect(again.files).toEqual([]);
    expect(again.message).toMatch(/nothing to rewrite/);
  });

  it("keeps CRLF line endings and a BOM", async () => {
    const bom = "\uFEFF";
    const root = await makeTree({
      "crlf.ts": `${bom}function f() {\r\n  var x = 1;\r\n  var y = g(x);\r\n}\r\n`,
    });
    await rewrite(root, { pattern: "var $A = $B", rewrite: "let $A = $B", language: "ts" });
    expect(await readFile(join(root, "crlf.ts"), "utf8")).toBe(
      `${bom}function f() {\r\n  let x = 1;\r\n  let y = g(x);\r\n}\r\n`,
    );
  });

  it("indents a multi-line rewrite like the match and keeps the captures' inner indentation", async () => {
    const root = await makeTree({
      "a.ts": "class A {\n  run() {\n    if (ready) {\n      go(1);\n      go(2);\n    }\n  }\n}\n",
    });
    await rewrite(root, {
      pattern: "if ($C) { $$$BODY }",
      rewrite: "if (!($C)) {\n  return;\n}\n$$$BODY",
      language: "ts",
    });
    expect(await read(root, "a.ts")).toBe(
      "class A {\n  run() {\n    if (!(ready)) {\n      return;\n    }\n    go(1);\n    go(2);\n  }\n}\n",
    );
  });

  it("refuses a rewrite that would not parse, naming the file, and writes nothing anywhere", async () => {
    const root = await makeTree({ "a.ts": "foo(1);\n", "b.ts": "foo(2);\n" });
    const result = await rewriteTool(root).run({
      pattern: "foo($A)",
      rewrite: "foo($A",
      language: "ts",
    });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(result.error.code).toBe("INVALID_INPUT");
      expect(result.error.message).toMatch(
        /would break a\.ts: the result does not parse at line 1/,
      );
    }
    expect(await read(root, "a.ts")).toBe("foo(1);\n");
    expect(await read(root, "b.ts")).toBe("foo(2);\n");
  });

  it("refuses unknown template names, a stale expected sha, paths outside the root and secrets", async () => {
    const root = await makeTree({ "a.ts": "foo(1);\n", ".env": "x" });
    expect(await codeOf(root, { pattern: "foo($A)", rewrite: "bar($B)", language: "ts" })).toBe(
      "INVALID_INPUT",
    );
    const stale = await rewriteTool(root, undefined, { expectedShas: true }).run({
      pattern: "foo($A)",
      rewrite: "bar($A)",
      language: "ts",
      expected_shas: [{ path: "a.ts", sha: "0".repeat(64) }],
    });
    expect(stale.success ? "ok" : stale.error.code).toBe("CONFLICT");
    expect(await read(root, "a.ts")).toBe("foo(1);\n");
    const common = { pattern: "foo($A)", rewrite: "bar($A)", language: "ts" };
    expect(await codeOf(root, { ...common, path: "../" })).toBe("INVALID_PATH");
    expect(await codeOf(root, { ...common, path: ".env" })).toBe("BLOCKED");
    const preview = await rewrite(root, { ...common, dry_run: true });
    const checked = await rewriteTool(root, undefined, { expectedShas: true }).run({
      ...common,
      expected_shas: [{ path: "a.ts", sha: preview.files[0]?.previous_sha as string }],
    });
    expect(checked.success && checked.data.applied).toBe(true);
    expect(await read(root, "a.ts")).toBe("bar(1);\n");
  });

  it("writes all files or none when a write fails part-way (injected failure)", async () => {
    const files = { "a.ts": "foo(1);\n", "b.ts": "foo(2);\n", "c.ts": "foo(3);\n" };
    const root = await makeTree(files);
    const node = createNodeFileSystem({ root });
    for (const failAt of [1, 2, 3]) {
      let renames = 0;
      const failing = new Proxy(node, {
        get(target, key) {
          if (key === "rename") {
            return async (source: string, destination: string) => {
              renames += 1;
              if (renames === failAt)
                throw new FileSystemError("PERMISSION_DENIED", `cannot rename to ${destination}.`);
              return target.rename(source, destination);
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === "function" ? value.bind(target) : value;
        },
      }) as FileSystem;
      const result = await rewriteTool(root, failing).run({
        pattern: "foo($A)",
        rewrite: "bar($A)",
        language: "ts",
      });
      expect(result).toMatchObject({ success: false, error: { code: "PERMISSION_DENIED" } });
      for (const [path, text] of Object.entries(files)) expect(await read(root, path)).toBe(text);
    }
  });

  it("offers expected_shas only with the expectedShas option, and says pattern/language as in ast_search", () => {
    const schema = (options: { expectedShas?: boolean }) =>
      JSON.stringify(z.toJSONSchema(rewriteTool(base, undefined, options).input));
    const plain = schema({});
    expect(plain).not.toContain("expected_shas");
    expect(plain).toContain("As in ast_search.");
    expect(schema({ expectedShas: true })).toContain("expected_shas");
  });

  it("always says which files it did not read, and refuses a FIFO at once", async () => {
    const root = await makeTree({
      "a.js": "foo(1);\n",
      "latin1.js": new Uint8Array([0x66, 0x6f, 0x6f, 0x28, 0x22, 0xe9, 0x22, 0x29, 0x3b, 0x0a]),
      "big.js": "foo(2);\n".repeat(140_000),
    });
    const result = await rewriteTool(root).run({
      pattern: "foo($A)",
      rewrite: "bar($A)",
      language: "js",
    });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.skipped_files).toEqual({ too_large: 1, not_text: 1, unreadable: 0 });
    const text = formatAstRewriteResult(result.data);
    expect(text).toContain(
      "Not rewritten: 1 file over the 1,048,576-byte cap, 1 file not UTF-8 text — they were left as they are; grep_search reads them as text.",
    );
    const onlyBig = await rewriteTool(root).run({
      pattern: "foo($A)",
      rewrite: "bar($A)",
      language: "js",
      path: "big.js",
    });
    expect(onlyBig.success && formatAstRewriteResult(onlyBig.data)).toMatch(
      /^No match in the 0 javascript files read in big\.js; nothing to rewrite\. Not rewritten: 1 file over/,
    );
    execFileSync("mkfifo", [join(root, "fifo.js")]);
    const fifo = await rewriteTool(root).run({
      pattern: "foo($A)",
      rewrite: "x",
      language: "js",
      path: "fifo.js",
    });
    expect(fifo.success === false && fifo.error.code).toBe("UNSUPPORTED");
  });

  it("an empty rewrite deletes a statement that is all match, with its line, not leaving a lone ';'", async () => {
    const root = await makeTree({
      "a.ts": "a();\n  console.log(x);\nconst y = f(console.log(z));\nb();\n",
    });
    const data = await rewrite(root, { pattern: "console.log($$$A)", rewrite: "", language: "ts" });
    expect(data.total_replacements).toBe(2);
    expect(await read(root, "a.ts")).toBe("a();\nconst y = f();\nb();\n");
  });

  it("keeps a dry run's preview compact: the path once per file, no sha of an unwritten file", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 100; index += 1) files[`src/f${index}.js`] = "var a = 1;\n";
    const root = await makeTree(files);
    const result = await rewriteTool(root).run({
      pattern: "var $A = $B",
      rewrite: "let $A = $B",
      language: "js",
      dry_run: true,
    });
    if (!result.success) throw new Error(result.error.message);
    const text = formatAstRewriteResult(result.data);
    expect(text.split("src/f7.js").length - 1).toBe(1);
    expect(text).not.toContain("after applying");
    expect(text).toContain("src/f7.js: 1 replacement\n@@ -1,1 +1,1 @@\n-var a = 1;\n+let a = 1;");
    expect(text.length).toBeLessThan(8_000);
  });
});
