import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWorkspace } from "@agentool/tools-fs";
import { createNodeFileSystem } from "@agentool/tools-fs/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AstSearchToolData,
  createAstSearchTool,
  formatAstSearchResult,
} from "./ast-search.js";

let base: string;
beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "agentool-ast-search-")));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

async function makeTree(name: string, files: Record<string, string | Uint8Array>): Promise<string> {
  const root = join(base, name);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

function searchTool(root: string, options: Record<string, number | string[]> = {}) {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  return createAstSearchTool({ workspace, ...options });
}

async function search(root: string, input: Record<string, unknown>, options = {}) {
  const result = await searchTool(root, options).run(input);
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.data as AstSearchToolData;
}

const SAMPLE = {
  "src/a.ts":
    "export function add(a: number, b: number) {\n  console.log(a, b);\n  return a + b;\n}\n",
  "src/b.tsx":
    "export const B = () => {\n  console.log(\n    'multi',\n    42,\n  );\n  return <div>{console.log()}</div>;\n};\n",
  "src/c.js": "console.log('js only');\n",
  "src/d.ts": "// console.log('in a comment')\nconst s = \"console.log('in a string')\";\n",
  "ignored/e.ts": "console.log('ignored');\n",
  ".hidden/f.ts": "console.log('hidden');\n",
  ".env.ts": "console.log('secret');\n",
  ".gitignore": "ignored/\n",
};

describe("ast_search", () => {
  it("finds calls by structure in ts and tsx files, with ranges, lines and captures; comments, strings, ignored, hidden and secret files are not searched", async () => {
    const root = await makeTree("basic", SAMPLE);
    const data = await search(root, { pattern: "console.log($$$ARGS)", language: "typescript" });
    expect(data.total).toBe(3);
    expect(data.total_files).toBe(2);
    expect(data.files.map((file) => file.path)).toEqual(["src/a.ts", "src/b.tsx"]);
    const first = data.files[0]?.matches[0];
    expect(first).toMatchObject({
      start_line: 2,
      end_line: 2,
      start_column: 3,
      text: "  console.log(a, b);",
    });
    expect(first?.captures).toEqual([{ name: "ARGS", multiple: true, text: "a, b", line: 2 }]);
    const multi = data.files[1]?.matches[0];
    expect(multi).toMatchObject({ start_line: 2, end_line: 5 });
    expect(multi?.captures[0]?.text).toBe("'multi',\n    42,");
    const empty = data.files[1]?.matches[1]?.captures[0];
    expect(empty).toEqual({ name: "ARGS", multiple: true, text: "" });
    expect(data.files_in_scope).toBe(3);
    const text = formatAstSearchResult(data);
    expect(text).toContain("3 matches in 2 files");
    expect(text).toContain("src/b.tsx:2-5\n     2\t  console.log(");
    expect(text).toContain("$$$ARGS = a, b\n");
    expect(text).not.toContain("(line 2)");
    const js = await search(root, { pattern: "console.log($A)", language: "js" });
    expect(js.total).toBe(1);
    expect(js.language).toBe("javascript");
  });

  it("shows a long line as a window around the match, and a line with many matches a few times only", async () => {
    const minified = `var a=[${"1,".repeat(13_880)}0];foo(42);var b=[${"2,".repeat(200)}0];\n`;
    const root = await makeTree("longline", {
      "min.js": minified,
      "many.js": "foo(1);foo(2);foo(3);foo(4);foo(5);\nfoo(6);\n",
    });
    const data = await search(root, { pattern: "foo($A)", language: "js", path: "min.js" });
    const match = data.files[0]?.matches[0];
    expect(match?.start_column).toBeGreaterThan(27_000);
    expect(match?.text.startsWith("…")).toBe(true);
    expect(match?.text.endsWith("…")).toBe(true);
    expect(match?.text).toContain("0];foo(42);var b=[");
    expect(match?.text.length).toBeLessThanOrEqual(302);
    const many = await search(root, { pattern: "foo($A)", language: "js", path: "many.js" });
    const text = formatAstSearchResult(many);
    expect(text).toContain("many.js:1:1\n     1\tfoo(1);");
    expect(text).toContain("many.js:1:22  (line shown above)\n  $A = 4");
    expect(text.split("\tfoo(1);foo(2)").length - 1).toBe(3);
    expect(text).toContain("many.js:2\n     2\tfoo(6);");
  });

  it("pages with an exact total and a marker naming the next call", async () => {
    const lines = Array.from({ length: 7 }, (_, index) => `foo(${index});`).join("\n");
    const root = await makeTree("paging", { "a.ts": lines, "b.ts": lines });
    const tool = searchTool(root);
    const seen: number[] = [];
    let offset: number | undefined = 1;
    while (offset !== undefined) {
      const result = await tool.run({ pattern: "foo($N)", language: "ts", limit: 4, offset });
      if (!result.success) throw new Error(result.error.message);
      expect(result.data.total).toBe(14);
      for (const file of result.data.files)
        for (const match of file.matches) seen.push(Number(match.captures[0]?.text));
      if (result.data.next_offset !== undefined)
        expect(tool.renderResult(result)).toContain(`offset=${result.data.next_offset}`);
      offset = result.data.next_offset;
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6]);
    const past = await tool.run({ pattern: "foo($N)", language: "ts", offset: 20 });
    expect(past.success ? "" : past.error.code).toBe("INVALID_INPUT");
  });

  it("refuses an invalid pattern with ast-grep's message and a hint, and an unsupported language listing the supported ones", async () => {
    const root = await makeTree("invalid", { "a.ts": "foo(1);\n" });
    const tool = searchTool(root);
    const cases: Array<[string, RegExp]> = [
      ["foo(", /does not parse at line 1/],
      ["a b c", /Multiple AST nodes/],
      ["$$$", /Standalone multi meta variable/],
      ["$A", /lone metavariable/],
      ["   ", /No AST root/],
    ];
    for (const [pattern, message] of cases) {
      const result = await tool.run({ pattern, language: "typescript" });
      expect(result.success).toBe(false);
      if (result.success) continue;
      expect(result.error.code).toBe("INVALID_INPUT");
      expect(result.error.message).toMatch(message);
      expect(result.error.hint).toMatch(/\$\$\$/);
    }
    const python = await tool.run({ pattern: "print($A)", language: "python" });
    expect(python.success).toBe(false);
    if (!python.success) {
      expect(python.error.code).toBe("UNSUPPORTED");
      expect(python.error.message).toContain("typescript, tsx, javascript, html, css");
    }
  });

  it("confines paths: outside the root, secrets, missing paths, and links that leave the root", async () => {
    const outside = await makeTree("outside", { "x.ts": "foo(1);\n" });
    const root = await makeTree("confined", { "a.ts": "foo(2);\n", ".env": "foo(3);\n" });
    await symlink(join(outside, "x.ts"), join(root, "link.ts"));
    await symlink(outside, join(root, "linked-dir"));
    const tool = searchTool(root);
    const code = async (input: Record<string, unknown>) => {
      const result = await tool.run({ pattern: "foo($A)", language: "ts", ...input });
      return result.success ? "ok" : result.error.code;
    };
    expect(await code({ path: "../outside" })).toBe("INVALID_PATH");
    expect(await code({ path: outside })).toBe("INVALID_PATH");
    expect(await code({ path: "link.ts" })).toBe("INVALID_PATH");
    expect(await code({ path: "linked-dir" })).toBe("INVALID_PATH");
    expect(await code({ path: ".env" })).toBe("BLOCKED");
    expect(await code({ path: "missing" })).toBe("FILE_NOT_FOUND");
    const all = await search(root, { pattern: "foo($A)", language: "ts" });
    expect(all.files.map((file) => file.path)).toEqual(["a.ts"]);
    expect(all.total).toBe(1);
  });

  it("skips a 5 MB file (counted and said), reads a non-UTF-8 file as skipped, and explains an empty result", async () => {
    const big = `${"foo(1);\n".repeat(5 * 131_072)}`;
    const root = await makeTree("big", {
      "big.ts": big,
      "small.ts": "foo(2);\n",
      "latin1.ts": new Uint8Array([0x66, 0x6f, 0x6f, 0x28, 0xe9, 0x29, 0x3b]),
    });
    const started = Date.now();
    const data = await search(root, { pattern: "foo($A)", language: "ts" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(data.total).toBe(1);
    expect(data.skipped_files).toEqual({ too_large: 1, not_text: 1, unreadable: 0 });
    expect(data.message).toBe(
      "Not searched: 1 file over the 1,048,576-byte cap, 1 file not UTF-8 text — matches in them are not counted.",
    );
    const none = await search(root, { pattern: "bar($A)", language: "ts" });
    expect(none.empty_reason).toBe("no_match");
    expect(formatAstSearchResult(none)).toContain(
      "No typescript code in the 1 file read in . matches the pattern. Not searched: 1 file over",
    );
    const onlyBig = await search(root, { pattern: "foo($A)", language: "ts", path: "big.ts" });
    expect(formatAstSearchResult(onlyBig)).toBe(
      'No match for "foo($A)" (typescript) in big.ts.\nNo typescript code in the 0 files read in big.ts matches the pattern. Not searched: 1 file over the 1,048,576-byte cap — matches in them are not counted.',
    );
    const grep = await searchTool(root, { mountedTools: ["grep_search"] }).run({
      pattern: "foo($A)",
      language: "ts",
    });
    expect(grep.success && formatAstSearchResult(grep.data)).toContain(
      "matches in them are not counted; grep_search reads them as text.",
    );
    execFileSync("mkfifo", [join(root, "fifo.ts")]);
    const fifo = await searchTool(root).run({
      pattern: "foo($A)",
      language: "ts",
      path: "fifo.ts",
    });
    expect(fifo.success === false && fifo.error.code).toBe("UNSUPPORTED");
    const noFiles = await search(root, { pattern: "a", language: "css" });
    expect(noFiles.empty_reason).toBe("no_files");
    expect(formatAstSearchResult(noFiles)).toMatch(/no visible css file/);
  });

  it("stays bounded on a pattern that matches a huge number of nodes: the match cap stops the scan with a lower bound", async () => {
    const file = Array.from({ length: 2_000 }, (_, index) => `a${index}.b.c.d(x.y, z.w);`).join(
      "\n",
    );
    const files: Record<string, string> = {};
    for (let index = 0; index < 30; index += 1)
      files[`f${String(index).padStart(2, "0")}.ts`] = file;
    const root = await makeTree("many", files);
    const started = Date.now();
    const data = await search(
      root,
      { pattern: "$A.$B", language: "ts", limit: 5 },
      { maxMatches: 20_000 },
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(data.total).toBeUndefined();
    expect(data.total_at_least).toBeGreaterThan(20_000);
    expect(data.truncated).toBe(true);
    expect(data.next_offset).toBe(6);
    expect(data.scanned_files).toBeLessThan(30);
    const text = formatAstSearchResult(data);
    expect(text).toMatch(/…\[truncated: at least [\d,]+ more matches — call ast_search again with/);
    expect(text).toMatch(/match cap/);
  });

  it("scans only the newest files past the file cap and says so", async () => {
    const files: Record<string, string> = {};
    for (let index = 0; index < 6; index += 1) files[`f${index}.ts`] = "foo(1);\n";
    const root = await makeTree("file-cap", files);
    const data = await search(root, { pattern: "foo($A)", language: "ts" }, { maxFiles: 4 });
    expect(data.files_in_scope).toBe(6);
    expect(data.scanned_files).toBe(4);
    expect(data.unscanned_files).toBe(2);
    expect(data.message).toMatch(/Only the 4 newest of 6 typescript files were scanned/);
  });
});
