import { readdirSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { createWorkspace } from "@agentool/tools-fs";
import { createNodeFileSystem } from "@agentool/tools-fs/node";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { type AstSearchToolData, createAstSearchTool } from "./ast-search.js";

/**
 * ast_search on code nobody here wrote — zod's own TypeScript sources, installed from npm —
 * against an independent count: the TypeScript compiler's AST, walked by hand.
 */
const root = realpathSync(
  join(dirname(createRequire(import.meta.url).resolve("zod/package.json")), "src"),
);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.name.startsWith(".")) return [];
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|tsx)$/.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)
      ? [path]
      : [];
  });
}

/** Per file, the nodes `accept` picks in the compiler's AST. */
function compilerCounts(accept: (node: ts.Node) => boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const path of sourceFiles(root)) {
    const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const file = ts.createSourceFile(
      path,
      readFileSync(path, "utf8"),
      ts.ScriptTarget.Latest,
      true,
      kind,
    );
    let count = 0;
    const visit = (node: ts.Node) => {
      if (accept(node)) count += 1;
      ts.forEachChild(node, visit);
    };
    visit(file);
    if (count > 0) counts.set(relative(root, path), count);
  }
  return counts;
}

async function toolCounts(
  pattern: string,
): Promise<{ data: AstSearchToolData; counts: Map<string, number> }> {
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const tool = createAstSearchTool({
    workspace,
    maxLimit: 100_000,
    maxOutputCharacters: 10_000_000,
  });
  const result = await tool.run(
    { pattern, language: "typescript", limit: 100_000 },
    { timeoutMs: 120_000 },
  );
  if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
  const counts = new Map<string, number>();
  for (const file of result.data.files) counts.set(file.path, file.matches.length);
  return { data: result.data, counts };
}

describe("ast_search on zod's sources against the TypeScript compiler's AST", () => {
  it("`new Error($$$ARGS)` finds exactly the compiler's `new Error(…)` expressions, file by file", async () => {
    const expected = compilerCounts(
      (node) =>
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === "Error" &&
        node.arguments !== undefined &&
        node.typeArguments === undefined,
    );
    const pattern = "new Error($$$ARGS)";
    const { data, counts } = await toolCounts(pattern);
    const total = [...expected.values()].reduce((sum, value) => sum + value, 0);
    expect(total).toBeGreaterThan(50);
    expect(data.total).toBe(total);
    console.info(
      `${pattern}: ${total} matches in ${expected.size} files (compiler), ${data.total} in ${data.total_files} files (ast_search)`,
    );
    expect(data.scanned_files).toBe(sourceFiles(root).length);
    expect(counts).toEqual(expected);
  });

  it("`$LIST.push($$$ITEMS)` finds exactly the compiler's `x.push(…)` calls, file by file", async () => {
    const expected = compilerCounts(
      (node) =>
        ts.isCallExpression(node) &&
        node.typeArguments === undefined &&
        node.questionDotToken === undefined &&
        ts.isPropertyAccessExpression(node.expression) &&
        node.expression.questionDotToken === undefined &&
        ts.isIdentifier(node.expression.name) &&
        node.expression.name.text === "push",
    );
    const pattern = "$LIST.push($$$ITEMS)";
    const { data, counts } = await toolCounts(pattern);
    const total = [...expected.values()].reduce((sum, value) => sum + value, 0);
    expect(total).toBeGreaterThan(50);
    expect(data.total).toBe(total);
    console.info(
      `${pattern}: ${total} matches in ${expected.size} files (compiler), ${data.total} in ${data.total_files} files (ast_search)`,
    );
    expect(counts).toEqual(expected);
  });
});
