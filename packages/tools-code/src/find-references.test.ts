import { assertConformance } from "@agentool/contract/testing";
import { afterAll, describe, expect, it } from "vitest";
import { createFindReferencesTool, formatFindReferences } from "./find-references.js";
import { workspaceFolder } from "./test-support/workspace-folder.js";

const folder = workspaceFolder({
  "src/config.ts":
    "// loadConfig is documented here\nexport function loadConfig(path: string) {\n  const message = 'loadConfig failed';\n  return { path, message };\n}\nexport const loadConfigAlias = loadConfig;\n",
  "src/main.ts":
    "import { loadConfig } from './config';\nimport { loadConfig as load } from './config';\nexport class App {\n  start() {\n    return loadConfig('a') && load('b');\n  }\n}\n",
  "src/other.py": "def loadConfig():\n    pass\n\nloadConfig()\n",
  "ignored/x.ts": "loadConfig();\n",
  ".gitignore": "ignored/\n",
});
afterAll(() => folder.remove());

const findReferences = createFindReferencesTool({
  root: folder.root,
  mountedTools: ["find_references", "find_symbol", "grep_search"],
});

describe("find_references", () => {
  it("lists identifier occurrences, not strings, comments or longer names, with roles and enclosing symbols", async () => {
    const result = await findReferences.run({ name: "loadConfig" });
    if (!result.success) throw new Error(result.error.message);
    const seen = result.data.files.flatMap((file) =>
      file.occurrences.map(
        (occurrence) =>
          `${file.path}:${occurrence.line}:${occurrence.column} ${occurrence.role} ${occurrence.enclosing ?? "-"}`,
      ),
    );
    expect(seen).toEqual([
      "src/config.ts:2:17 declaration -",
      "src/config.ts:6:32 reference loadConfigAlias",
      "src/main.ts:1:10 import -",
      "src/main.ts:2:10 import -",
      "src/main.ts:5:12 reference App.start",
      "src/other.py:1:5 declaration -",
      "src/other.py:4:1 reference -",
    ]);
    expect(result.data).toMatchObject({ total: 7, total_files: 3, declarations: 2, imports: 2 });
    const text = formatFindReferences(result.data);
    expect(text).toContain("Syntactic");
    expect(text).toContain("  5:12 in App.start │ return loadConfig('a') && load('b');");
  });

  it("pages with exact totals and the next call", async () => {
    const first = await findReferences.run({ name: "loadConfig", limit: 3 });
    if (!first.success) throw new Error(first.error.message);
    expect(first.data).toMatchObject({ total: 7, next_offset: 4, truncated: true });
    expect(formatFindReferences(first.data)).toContain(
      '…[truncated: 4 more occurrences — call find_references again with name="loadConfig", limit=3, offset=4]',
    );
    expect(formatFindReferences(first.data)).toContain("Syntactic, not type-resolved.");
    const last = await findReferences.run({ name: "loadConfig", limit: 3, offset: 7 });
    expect(last.success && last.data.files.flatMap((file) => file.occurrences).length).toBe(1);
    // Later pages count without repeating the rules of the first.
    if (!last.success) throw new Error(last.error.message);
    const lastText = formatFindReferences(last.data);
    expect(lastText).toMatch(/^7 references to loadConfig in 3 files of \.,/);
    expect(lastText).toContain("— 2 in 1 file\n");
    expect(lastText).not.toContain("Syntactic");
    const past = await findReferences.run({ name: "loadConfig", offset: 8 });
    expect(!past.success && past.error.code).toBe("INVALID_INPUT");
  });

  it("takes a qualified name's last part, and explains an empty answer", async () => {
    const qualified = await findReferences.run({ name: "App.start", path: "src" });
    expect(qualified.success && qualified.data.total).toBe(1);
    const none = await findReferences.run({ name: "documented" });
    expect(none.success && none.data.message).toContain("only in strings, comments");
    const bad = await findReferences.run({ name: "a b" });
    expect(!bad.success && bad.error.code).toBe("INVALID_INPUT");
  });

  it("passes the conformance kit", async () => {
    const alone = createFindReferencesTool({
      root: folder.root,
      mountedTools: ["find_references"],
    });
    await assertConformance([alone], {
      workspaceRoot: folder.root,
      samples: { find_references: { name: "loadConfig" } },
      cutSamples: { find_references: { name: "loadConfig", limit: 2 } },
    });
  });
});

const project = workspaceFolder({
  "v1/schema.ts":
    "export class Schema {\n  parse(input: string) {\n    return input;\n  }\n}\nexport class Text extends Schema {\n  parse(input: string) {\n    return super.parse(input);\n  }\n}\n",
  "v1/use.ts":
    "import { Schema, Text } from './schema';\nconst s: Schema = new Text();\ns.parse('x');\nfunction parse() {}\nparse();\n",
  "v2/schema.ts":
    "export interface Schema {\n  parse(input: unknown): unknown;\n}\nexport class Other {\n  parse() {}\n}\n",
  "v2/index.ts": "export * from './schema.js';\nexport { Schema as Shape } from './schema.js';\n",
  "v2/use.ts":
    "import * as v2 from './index.js';\nimport type { Shape } from './index';\nlet a: v2.Schema;\nlet b: Shape;\nconst { Schema } = require('./schema');\n",
  "v2/local.ts": "function f(Schema: number) {\n  return Schema;\n}\n",
  "lib/app.ts": "import { useState } from 'react';\nuseState(1);\n",
  "py/pkg/__init__.py": "from .config import load_config\n",
  "py/pkg/config.py": "def load_config():\n    pass\n",
  "py/main.py":
    "import pkg.config as c\nfrom pkg import load_config\nc.load_config()\nload_config()\n",
  "py/other.py": "def run(load_config):\n    return load_config\n",
});
afterAll(() => project.remove());
const projectReferences = createFindReferencesTool({
  root: project.root,
  mountedTools: ["find_references", "find_symbol"],
});

function where(data: {
  files: Array<{
    path: string;
    group: number;
    occurrences: Array<{ line: number; column: number }>;
  }>;
}) {
  return data.files.flatMap((file) =>
    file.occurrences.map(
      (occurrence) => `${file.group} ${file.path}:${occurrence.line}:${occurrence.column}`,
    ),
  );
}

describe("find_references follows imports", () => {
  it("groups a name declared in two files by definition, each with the files that import it", async () => {
    const result = await projectReferences.run({ name: "Schema" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.mode).toBe("imports");
    expect(result.data.groups.map((group) => `${group.kind} ${group.path}:${group.line}`)).toEqual([
      "definition v1/schema.ts:1",
      "definition v2/schema.ts:1",
    ]);
    expect(where(result.data)).toEqual([
      "1 v1/schema.ts:1:14",
      "1 v1/schema.ts:6:27",
      "1 v1/use.ts:1:10",
      "1 v1/use.ts:2:10",
      "2 v2/index.ts:2:10",
      "2 v2/schema.ts:1:18",
      "2 v2/use.ts:3:11",
      "2 v2/use.ts:5:9",
    ]);
    // v2/local.ts's parameter is not either definition.
    expect(result.data).toMatchObject({ left_out: 2, left_out_files: 1 });
    const text = formatFindReferences(result.data);
    expect(text).toContain("under 2 definitions — narrow with defined_in");
    expect(text).toContain("## 2. v2/schema.ts:1 declared here — 4 in 3 files");
    expect(text).toContain("Left out: 2 same-spelled identifiers in 1 files");
  });

  it("narrows to one definition with defined_in or a file: prefix", async () => {
    const field = await projectReferences.run({ name: "Schema", defined_in: "v2/schema.ts" });
    const prefix = await projectReferences.run({ name: "v2/schema.ts:Schema" });
    if (!field.success || !prefix.success) throw new Error("failed");
    expect(field.data.groups).toHaveLength(1);
    expect(where(field.data)).toEqual(where(prefix.data));
    expect(field.data.total).toBe(4);
  });

  it("counts Type.member in the type, its subtypes and member accesses where they are visible", async () => {
    const result = await projectReferences.run({ name: "Schema.parse", defined_in: "v1" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data.mode).toBe("qualified");
    expect(where(result.data)).toEqual([
      "1 v1/schema.ts:2:3",
      "1 v1/schema.ts:7:3",
      "1 v1/schema.ts:8:18",
      "1 v1/use.ts:3:3",
    ]);
    expect(result.data.groups[0]?.label).toContain("its 1 subtypes");
    // The free function parse() of v1/use.ts is not the member.
    expect(result.data.left_out).toBe(2);
  });

  it("keeps every occurrence of a name declared nowhere (a library's), and says so", async () => {
    const result = await projectReferences.run({ name: "useState" });
    if (!result.success) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ mode: "text", total: 2 });
    expect(formatFindReferences(result.data)).toContain("declared nowhere in the workspace");
  });

  it("follows Python's from-imports, package re-exports and module aliases", async () => {
    const result = await projectReferences.run({ name: "load_config", path: "py" });
    if (!result.success) throw new Error(result.error.message);
    expect(where(result.data)).toEqual([
      "1 py/main.py:2:17",
      "1 py/main.py:3:3",
      "1 py/main.py:4:1",
      "1 py/pkg/__init__.py:1:21",
      "1 py/pkg/config.py:1:5",
    ]);
    expect(result.data.left_out).toBe(2);
  });
});
