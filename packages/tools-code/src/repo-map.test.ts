import { mkdirSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assertConformance } from "@agentool/contract/testing";
import type { FileLister } from "@agentool/tools-fs";
import { createRipgrepLister } from "@agentool/tools-fs/node";
import { afterAll, describe, expect, it } from "vitest";
import { scanNames } from "./internal/repo-map/scan-names.js";
import { createRepoMapTool, estimateTokens, formatRepoMap } from "./repo-map.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const files: Record<string, string> = {
  "src/core/parser.ts":
    "import { Token } from './lexer';\n// Lexer is named in a comment only\nexport class Parser {\n  constructor(private tokens: Token[]) {}\n  parseExpression(): Node {\n    return this.parsePrimary();\n  }\n  private parsePrimary(): Node {\n    return {} as Node;\n  }\n}\nexport interface Node {\n  kind: string;\n}\n",
  "src/core/lexer.ts":
    "export interface Token {\n  text: string;\n}\nexport function tokenize(input: string): Token[] {\n  return [];\n}\n",
  "src/unused.ts": "export function lonelyHelper(): void {}\n",
  "ignored/gen.ts": "export class Generated {}\n",
  ".gitignore": "ignored/\n",
  ".env": "SECRET=1\n",
  "README.md": "# Title\n",
};
for (let index = 0; index < 6; index += 1) {
  files[`src/app/use${index}.ts`] =
    `import { Parser } from '../core/parser';\nimport { tokenize } from '../core/lexer';\nexport function run${index}(text: string) {\n  return new Parser(tokenize(text)).parseExpression();\n}\n`;
}
files["scripts/tool.py"] =
  "import os\n\nLIMIT = 3\n\nclass Runner:\n    def start(self):\n        return '''tokenize Parser'''\n\ndef main():\n    return Runner().start()\n";
const folder = workspaceFolder(files);
afterAll(() => folder.remove());

const mounted = ["repo_map", "read_file", "find_symbol", "code_outline"];

describe("repo_map", () => {
  it("ranks the files other files use first, with signatures and line ranges, skipping ignored, secret and non-code files", async () => {
    const repoMap = createRepoMapTool({ root: folder.root, mountedTools: mounted });
    const result = await repoMap.run({});
    if (!result.success) throw new Error(result.error.message);
    const paths = result.data.files.map((file) => file.path);
    expect(paths.slice(0, 2).sort()).toEqual(["src/core/lexer.ts", "src/core/parser.ts"]);
    expect(paths).not.toContain("ignored/gen.ts");
    expect(result.data.source_files).toBe(10);
    expect(result.data.truncated).toBe(false);
    const parser = result.data.files.find((file) => file.path === "src/core/parser.ts");
    const parse = parser?.symbols.find((symbol) => symbol.name === "parseExpression");
    expect(parse).toMatchObject({
      start_line: 5,
      end_line: 7,
      references: 6,
      referencing_files: 6,
    });
    const text = formatRepoMap(result.data, { readTool: "read_file" });
    expect(text).toContain("src/core/parser.ts\n  3-11 export class Parser");
    expect(text).toContain("    5-7 parseExpression(): Node");
    expect(result.data.estimated_tokens).toBe(estimateTokens(text));
  });

  it("fits the budget and names the next page's call, and the larger budget in words", async () => {
    const repoMap = createRepoMapTool({ root: folder.root, mountedTools: mounted });
    const result = await repoMap.run({ budget_tokens: 128, path: "src" });
    if (!result.success) throw new Error(result.error.message);
    const text = formatRepoMap(result.data);
    expect(estimateTokens(text)).toBeLessThanOrEqual(128);
    expect(result.data.truncated).toBe(true);
    // The marker used to name only budget_tokens=512; it now names the next page (offset) and
    // the larger budget in words (layout changed on purpose: the rest is reachable at any budget).
    expect(text).toMatch(
      /…\[truncated: \d+ more files — call repo_map again with path="src", budget_tokens=128, offset=\d+ for the next files, or raise budget_tokens to 512 for a longer map\]$/,
    );
  });

  it("leans towards the focus", async () => {
    const repoMap = createRepoMapTool({ root: folder.root, mountedTools: mounted });
    const plain = await repoMap.run({ budget_tokens: 128 });
    const focused = await repoMap.run({
      budget_tokens: 128,
      focus: ["scripts/tool.py", "nowhere/x.ts"],
    });
    if (!plain.success || !focused.success) throw new Error("failed");
    expect(plain.data.files[0]?.path).not.toBe("scripts/tool.py");
    expect(focused.data.files.map((file) => file.path)).toContain("scripts/tool.py");
    expect(focused.data.unmatched_focus).toEqual(["nowhere/x.ts"]);
  });

  it("serves unchanged files (same size and mtime) from its cache on a warm call", async () => {
    const repoMap = createRepoMapTool({ root: folder.root, mountedTools: mounted });
    const path = join(folder.root, "src/unused.ts");
    const mtime = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    utimesSync(path, mtime, mtime);
    const cold = await repoMap.run({});
    if (!cold.success) throw new Error(cold.error.message);
    expect(formatRepoMap(cold.data)).toContain("export function lonelyHelper(): void");
    // Same size, mtime put back: the cache cannot tell, so the warm map shows the old signature.
    writeFileSync(path, "export function lonelyHelper(): null {}\n");
    utimesSync(path, mtime, mtime);
    const warm = await repoMap.run({});
    expect(warm.success && formatRepoMap(warm.data)).toBe(formatRepoMap(cold.data));
    utimesSync(path, new Date(), new Date(mtime.getTime() + 5_000));
    const changed = await repoMap.run({});
    expect(changed.success && formatRepoMap(changed.data)).toContain(
      "export function lonelyHelper(): null",
    );
  });

  it("sees a file added since the last call (its directory changed)", async () => {
    const scratch = workspaceFolder({
      "src/a.ts": "export function alpha() {}\n",
      "src/b.ts": "import { alpha } from './a';\nalpha();\n",
    });
    try {
      const old = new Date(Date.now() - 3_600_000);
      for (const directory of ["", "src"]) utimesSync(join(scratch.root, directory), old, old);
      const repoMap = createRepoMapTool({ root: scratch.root });
      const before = await repoMap.run({});
      expect(before.success && before.data.ranked_files).toBe(2);
      writeFileSync(join(scratch.root, "src/c.ts"), "export function gamma() {}\n");
      const after = await repoMap.run({});
      expect(after.success && after.data.ranked_files).toBe(3);
    } finally {
      scratch.remove();
    }
  });

  it("never misses a file added where no listed file was, nor a deleted or renamed one", async () => {
    const scratch = workspaceFolder({
      "src/a.ts": "export function alpha() {}\n",
      "src/b.ts": "import { alpha } from './a';\nalpha();\n",
      // A directory that holds only an ignored file, one re-included by a negation, one ignored.
      "gen/out.log": "log\n",
      ".gitignore": "*.log\nvendor/\ncache/\n!cache/\n",
      "vendor/pkg/index.ts": "export const vendored = 1;\n",
    });
    try {
      // An empty directory two levels down, and one inside a re-included directory.
      mkdirSync(join(scratch.root, "deep/empty"), { recursive: true });
      mkdirSync(join(scratch.root, "cache/sub"), { recursive: true });
      // Every change is dated an hour back (each a second later than the last), so the listing
      // is remembered after each call: what is tested is that the remembered one is checked.
      let clock = Date.now() - 3_600_000;
      const settle = (...paths: string[]) => {
        clock += 1_000;
        for (const path of paths) utimesSync(join(scratch.root, path), clock / 1000, clock / 1000);
      };
      settle("", ".gitignore", "src", "gen", "deep", "deep/empty", "cache", "cache/sub", "vendor");
      const rg = createRipgrepLister({ root: scratch.root });
      let listings = 0;
      const lister: FileLister = {
        kind: rg.kind,
        list: (request, signal) => {
          listings += 1;
          return rg.list(request, signal);
        },
      };
      const repoMap = createRepoMapTool({ root: scratch.root, lister });
      const ranked = async (): Promise<string[]> => {
        const result = await repoMap.run({});
        if (!result.success) throw new Error(result.error.message);
        return result.data.files.map((file) => file.path).sort();
      };
      expect(await ranked()).toEqual(["src/a.ts"]);
      expect(await ranked()).toEqual(["src/a.ts"]);
      // Nothing changed: the second call reused the listing.
      expect(listings).toBe(1);
      writeFileSync(join(scratch.root, "gen/new.ts"), "export function fresh() {}\n");
      settle("gen");
      expect(await ranked()).toEqual(["gen/new.ts", "src/a.ts"]);
      writeFileSync(join(scratch.root, "deep/empty/x.ts"), "export function deepest() {}\n");
      settle("deep/empty");
      expect(await ranked()).toEqual(["deep/empty/x.ts", "gen/new.ts", "src/a.ts"]);
      writeFileSync(join(scratch.root, "cache/sub/n.ts"), "export function cached() {}\n");
      settle("cache/sub");
      expect(await ranked()).toContain("cache/sub/n.ts");
      renameSync(join(scratch.root, "deep/empty/x.ts"), join(scratch.root, "deep/empty/y.ts"));
      settle("deep/empty");
      expect(await ranked()).toContain("deep/empty/y.ts");
      renameSync(join(scratch.root, "deep/empty/y.ts"), join(scratch.root, "deep/z.ts"));
      settle("deep", "deep/empty");
      const afterMove = await ranked();
      expect(afterMove).toContain("deep/z.ts");
      expect(afterMove).not.toContain("deep/empty/y.ts");
      // A new tree in a directory that holds only an ignored file.
      mkdirSync(join(scratch.root, "gen/new/tree"), { recursive: true });
      writeFileSync(join(scratch.root, "gen/new/tree/t.ts"), "export function grown() {}\n");
      settle("gen/new/tree", "gen/new", "gen");
      expect(await ranked()).toContain("gen/new/tree/t.ts");
      // The ignored directory stays out, and a change inside it is not watched (no new listing).
      const before = listings;
      writeFileSync(join(scratch.root, "vendor/pkg/more.ts"), "export const more = 1;\n");
      settle("vendor/pkg");
      expect(await ranked()).not.toContain("vendor/pkg/more.ts");
      expect(listings).toBe(before);
    } finally {
      scratch.remove();
    }
  });

  it("answers a missing path and an empty folder with what to do", async () => {
    const repoMap = createRepoMapTool({ root: folder.root, mountedTools: mounted });
    const missing = await repoMap.run({ path: "nope" });
    expect(!missing.success && missing.error.code).toBe("FILE_NOT_FOUND");
    const secret = await repoMap.run({ path: ".env" });
    expect(!secret.success && secret.error.code).toBe("BLOCKED");
  });

  it("passes the conformance kit", async () => {
    await assertConformance(
      [createRepoMapTool({ root: folder.root, mountedTools: ["repo_map"] })],
      {
        workspaceRoot: folder.root,
        samples: { repo_map: { path: "src" } },
      },
    );
  });
});

describe("repo_map ranking and layout", () => {
  const project: Record<string, string> = {
    // `helpers.ts` defines `joinValues`, imported by many files through a namespace import.
    "src/helpers.ts":
      "export function joinValues(values: string[]): string {\n  return values.join(', ');\n}\nexport function rarelyUsed(): void {}\nexport function overloaded(a: string): string;\nexport function overloaded(a: number): number;\nexport function overloaded(a: unknown): unknown {\n  return a;\n}\n",
    // `box.ts` defines an interface whose member `value` is a name every file says as a property.
    "src/box.ts": "export interface Box {\n  value: number;\n  label: string;\n}\n",
    "src/box.test.ts":
      "import { Box } from './box';\nexport const sample: Box = { value: 1, label: 'a' };\n",
  };
  for (let index = 0; index < 8; index += 1) {
    project[`src/locale/l${index}.ts`] =
      `import * as util from '../helpers';\nexport function message${index}(items: { value: number }[]): string {\n  const value = items.map((item) => item.value);\n  return util.joinValues(value.map(String));\n}\n`;
  }
  project["src/one-user.ts"] =
    "import { rarelyUsed, overloaded } from './helpers';\nrarelyUsed();\noverloaded(1);\n";
  const ranked = workspaceFolder(project);
  afterAll(() => ranked.remove());

  it("ranks a definition many files import above one a single file uses, and the code before its tests", async () => {
    const repoMap = createRepoMapTool({ root: ranked.root });
    const result = await repoMap.run({});
    if (!result.success) throw new Error(result.error.message);
    const paths = result.data.files.map((file) => file.path);
    expect(paths[0]).toBe("src/helpers.ts");
    expect(paths.indexOf("src/box.ts")).toBeLessThan(paths.indexOf("src/box.test.ts"));
    const helpers = result.data.files[0];
    const names = helpers?.symbols.map((symbol) => symbol.name) ?? [];
    expect(names[0]).toBe("joinValues");
  });

  it("prints one line number for a one-line symbol, overloads as one line, and no line twice", async () => {
    const repoMap = createRepoMapTool({ root: ranked.root });
    const result = await repoMap.run({ path: "src/helpers.ts" });
    if (!result.success) throw new Error(result.error.message);
    const text = formatRepoMap(result.data);
    expect(text).toContain("\n  1-3 export function joinValues(values: string[]): string\n");
    expect(text).toContain("\n  4 export function rarelyUsed(): void\n");
    expect(text).toContain(
      "\n  5-9 export function overloaded(a: string): string; (3 declarations)",
    );
    const lines = text.split("\n");
    expect(new Set(lines).size).toBe(lines.length);
  });

  it("pages through every ranked file once with offset, at the same budget and total", async () => {
    const repoMap = createRepoMapTool({ root: ranked.root });
    const seen: string[] = [];
    let offset: number | undefined = 1;
    let total: number | undefined;
    for (let page = 0; offset !== undefined && page < 20; page += 1) {
      const result = await repoMap.run({ budget_tokens: 128, offset });
      if (!result.success) throw new Error(result.error.message);
      expect(result.data.offset).toBe(offset);
      total ??= result.data.total;
      expect(result.data.total).toBe(total);
      expect(estimateTokens(formatRepoMap(result.data))).toBeLessThanOrEqual(128);
      seen.push(...result.data.files.map((file) => file.path));
      expect(result.data.truncated).toBe(result.data.next_offset !== undefined);
      offset = result.data.next_offset;
    }
    expect(offset).toBeUndefined();
    // src/one-user.ts declares nothing: it has a rank (it is counted) but no line to show.
    expect(seen.sort()).toEqual(
      Object.keys(project)
        .filter((path) => path !== "src/one-user.ts")
        .sort(),
    );
    const past = await repoMap.run({ offset: 99 });
    expect(!past.success && past.error.code).toBe("INVALID_INPUT");
  });

  it("shows files in breadth at a small budget: at most four top-level symbols per file while files remain", async () => {
    const many: Record<string, string> = {};
    for (let index = 0; index < 12; index += 1) {
      many[`lib/m${index}.ts`] = Array.from(
        { length: 8 },
        (_, symbol) => `export function f${index}_${symbol}(): number {\n  return ${symbol};\n}\n`,
      ).join("");
      many[`use/u${index}.ts`] =
        `import * as m from '../lib/m${index}';\n${Array.from({ length: 8 }, (_, symbol) => `m.f${index}_${symbol}();`).join("\n")}\n`;
    }
    const folder = workspaceFolder(many);
    try {
      const result = await createRepoMapTool({ root: folder.root }).run({ budget_tokens: 256 });
      if (!result.success) throw new Error(result.error.message);
      expect(result.data.truncated).toBe(true);
      expect(result.data.files.length).toBeGreaterThan(2);
      for (const file of result.data.files)
        expect(file.symbols.filter((symbol) => symbol.depth === 0).length).toBeLessThanOrEqual(4);
    } finally {
      folder.remove();
    }
  });
});

describe("the lexical scan", () => {
  const names = new Map<string, number>();
  const idOf = (name: string) => {
    if (!names.has(name)) names.set(name, names.size);
    return names.get(name) as number;
  };
  const nameOf = (id: number) => [...names].find(([, value]) => value === id)?.[0];

  it("skips strings, comments and templates' text, and finds definitions", () => {
    const scan = scanNames(
      "// commentWord\nconst topLevel = `text $" +
        "{insideTemplate} more`;\nfunction helper() { const local = 'stringWord'; }\nclass Widget {\n  render(): void {\n    helper();\n  }\n}\n",
      "c",
      idOf,
    );
    const defined = [...scan.definitions].map(nameOf).sort();
    expect(defined).toEqual(["Widget", "helper", "render", "topLevel"]);
    const used = [...scan.names].map(nameOf);
    expect(used).toContain("insideTemplate");
    expect(used).toContain("helper");
    expect(used).not.toContain("commentWord");
    expect(used).not.toContain("stringWord");
    expect(used).not.toContain("local");
  });

  it("tells top-level definitions, locals, imported names and property uses apart", () => {
    const scan = scanNames(
      "import type * as errors from './errors';\nimport { type Box } from './box';\nexport function run(box: Box) {\n  const count = box.value;\n  return errors.format(count) + z.string();\n}\nclass Widget {\n  render() {}\n}\n",
      "c",
      idOf,
    );
    const named = (ids: Uint32Array) => [...ids].map(nameOf).sort();
    expect(named(scan.definitions)).toEqual(["Widget", "render", "run"]);
    expect(named(scan.topDefinitions)).toEqual(["Widget", "run"]);
    expect(named(scan.localDefinitions)).toEqual(["count"]);
    const used = named(scan.names);
    expect(used).toEqual(expect.arrayContaining(["errors", "Box", "value", "format", "string"]));
    // `errors.format` goes through an imported module; `box.value` and `z.string` do not.
    expect(named(scan.bareNames)).toContain("format");
    expect(named(scan.bareNames)).not.toContain("value");
    expect(named(scan.bareNames)).not.toContain("string");
  });

  it("reads Python's comments, triple-quoted strings and module assignments", () => {
    const scan = scanNames(
      "# hashWord\nLIMIT = 3\ndef run():\n    '''docWord'''\n    return LIMIT\n",
      "hash",
      idOf,
    );
    expect([...scan.definitions].map(nameOf).sort()).toEqual(["LIMIT", "run"]);
    const used = [...scan.names].map(nameOf);
    expect(used).toEqual(expect.arrayContaining(["LIMIT"]));
    expect(used).not.toContain("hashWord");
    expect(used).not.toContain("docWord");
  });
});
