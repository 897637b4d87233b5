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
    const last = await findReferences.run({ name: "loadConfig", limit: 3, offset: 7 });
    expect(last.success && last.data.files.flatMap((file) => file.occurrences).length).toBe(1);
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
