// Benchmarks are not run by the test command, so a refactor that moves a module breaks them
// silently (grep-bench imported dist/node/ripgrep-search.js for a while after the ripgrep split).
// This test holds every relative import of every benchmark script to a file that exists once the
// packages are built.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { expect, it } from "vitest";

const repository = resolve(import.meta.dirname, "../../..");

/** Every benchmark script: bench/*.mjs and packages/<name>/bench/*.mjs. */
function benchmarkScripts(): string[] {
  const folders = [
    join(repository, "bench"),
    ...readdirSync(join(repository, "packages")).map((name) =>
      join(repository, "packages", name, "bench"),
    ),
  ];
  return folders
    .filter((folder) => existsSync(folder))
    .flatMap((folder) =>
      readdirSync(folder)
        .filter((file) => file.endsWith(".mjs"))
        .map((file) => join(folder, file)),
    );
}

/** The relative specifiers a script imports (static and dynamic). */
function relativeImports(source: string): string[] {
  const pattern = /(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g;
  return [...source.matchAll(pattern)].map((match) => match[1] as string);
}

it("every benchmark's relative imports name files that exist after the build", () => {
  const scripts = benchmarkScripts();
  expect(scripts.length).toBeGreaterThan(5);
  const missing: string[] = [];
  let checked = 0;
  for (const script of scripts) {
    for (const specifier of relativeImports(readFileSync(script, "utf8"))) {
      checked += 1;
      if (!existsSync(resolve(dirname(script), specifier)))
        missing.push(`${script.slice(repository.length + 1)} imports ${specifier}`);
    }
  }
  expect(checked).toBeGreaterThan(5);
  expect(missing).toEqual([]);
});

it("the import reader finds static and dynamic relative imports", () => {
  expect(
    relativeImports(
      `import { a } from "../dist/a.js";\nconst b = await import("./b.js");\nimport c from "zod";`,
    ),
  ).toEqual(["../dist/a.js", "./b.js"]);
});
