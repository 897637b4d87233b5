import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));

/** Imports and re-exports (`import type` / `export type` and all-`type` lists bring nothing at run time). */
const IMPORT = /^(?:import|export)\s+(type\s+)?(?:([^"';]*?)\s+from\s+)?["']([^"']+)["'];?/gm;

function runtimeImports(entry: string): Set<string> {
  const found = new Set<string>();
  const queue = [entry];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const [, typeOnly, clause = "", specifier = ""] = match;
      if (typeOnly !== undefined) continue;
      const names = /^\{([\s\S]*)\}$/.exec(clause.trim())?.[1];
      if (names !== undefined) {
        const items = names
          .split(",")
          .map((item) => item.trim())
          .filter((item) => item.length > 0);
        if (items.every((item) => item.startsWith("type "))) continue;
      }
      if (specifier.startsWith(".")) {
        queue.push(join(dirname(file), specifier.replace(/\.js$/, ".ts")));
      } else found.add(specifier);
    }
  }
  return found;
}

describe("@agentool/adapters/mcp entry", () => {
  it("loads only the contract and zod: no MCP SDK at run time, so it works with SDK v1 or v2 installed", () => {
    const imports = [...runtimeImports(join(here, "index.ts"))].sort();
    expect(imports).toEqual(["@agentool/contract", "zod"]);
  });
});
