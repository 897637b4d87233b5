import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const distDirectory = resolve(dirname(fileURLToPath(import.meta.url)), "../dist");

/** Follows relative imports from an entry file and returns every bare or node: specifier it reaches. */
function collectSpecifiers(entry: string): Map<string, string> {
  const found = new Map<string, string>();
  const queue = [entry];
  const seen = new Set<string>();
  const pattern =
    /(?:import|export)\s*(?:[^'"]*?\sfrom\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(pattern)) {
      const specifier = match[1] ?? match[2];
      if (specifier === undefined) continue;
      if (specifier.startsWith(".")) queue.push(resolve(dirname(file), specifier));
      else found.set(specifier, file);
    }
  }
  return found;
}

describe("the built root entry is runtime-neutral", () => {
  it("is built (run the build first)", () => {
    expect(existsSync(resolve(distDirectory, "index.js"))).toBe(true);
  });

  for (const entry of ["index.js", "testing/index.js"]) {
    it(`${entry} imports nothing from node: and no Node built-in`, () => {
      const specifiers = collectSpecifiers(resolve(distDirectory, entry));
      const nodeOnly = [...specifiers.keys()].filter(
        (specifier) =>
          specifier.startsWith("node:") ||
          ["fs", "path", "os", "child_process", "crypto", "url", "stream"].includes(specifier),
      );
      expect(nodeOnly).toEqual([]);
      expect([...specifiers.keys()].every((specifier) => specifier === "zod")).toBe(true);
    });
  }

  it("the scanner does find node: imports (guards against a scanner that sees nothing)", () => {
    const specifiers = collectSpecifiers(fileURLToPath(import.meta.url));
    expect(specifiers.has("node:fs")).toBe(true);
  });
});
