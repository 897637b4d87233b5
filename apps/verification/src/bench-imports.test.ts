// Benchmarks are not run by the test command, so a refactor that moves a module breaks them
// silently (grep-bench imported dist/node/ripgrep-search.js for a while after the ripgrep split).
// This test holds every relative import of every benchmark script to a file that exists once the
// packages are built.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
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

/** The names a script imports by name from each relative specifier (`a as b` gives `a`). */
function namedImports(source: string): Array<{ specifier: string; names: string[] }> {
  const pattern = /import\s*\{([^}]+)\}\s*from\s*["'](\.{1,2}\/[^"']+)["']/g;
  return [...source.matchAll(pattern)].map((match) => ({
    specifier: match[2] as string,
    names: (match[1] as string)
      .split(",")
      .map((name) => name.trim().split(/\s+as\s+/)[0] as string)
      .filter((name) => name.length > 0),
  }));
}

it("every name a benchmark imports from a built module is exported by it", async () => {
  const absent: string[] = [];
  let checked = 0;
  for (const script of benchmarkScripts()) {
    for (const { specifier, names } of namedImports(readFileSync(script, "utf8"))) {
      const file = resolve(dirname(script), specifier);
      if (!existsSync(file)) continue; // reported by the test above
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const name of names) {
        checked += 1;
        if (!(name in module))
          absent.push(`${script.slice(repository.length + 1)}: ${name} from ${specifier}`);
      }
    }
  }
  expect(checked).toBeGreaterThan(5);
  expect(absent).toEqual([]);
});

it("the import reader finds static and dynamic relative imports", () => {
  expect(namedImports(`import {\n  a,\n  b as c,\n} from "../dist/a.js";`)).toEqual([
    { specifier: "../dist/a.js", names: ["a", "b"] },
  ]);
  expect(
    relativeImports(
      `import { a } from "../dist/a.js";\nconst b = await import("./b.js");\nimport c from "zod";`,
    ),
  ).toEqual(["../dist/a.js", "./b.js"]);
});
