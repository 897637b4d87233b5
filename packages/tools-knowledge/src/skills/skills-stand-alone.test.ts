import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Skills stand alone: nothing under src/skills/ imports the search, memory or engine side of the
// package (or anything else outside src/skills/ but packages), so `./skills` and `./skills/node`
// pull in no search engine.

const skillsFolder = dirname(fileURLToPath(import.meta.url));

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (entry.name.endsWith(".ts")) found.push(path);
  }
  return found;
}

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** The relative imports of a file that leave src/skills/. */
function importsOutside(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const outside: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? "";
    if (!specifier.startsWith(".")) continue;
    const target = resolve(dirname(file), specifier);
    if (target !== skillsFolder && !target.startsWith(`${skillsFolder}${sep}`)) {
      outside.push(`${relative(skillsFolder, file)} imports ${specifier}`);
    }
  }
  return outside;
}

describe("skills stand alone", () => {
  it("no file under src/skills/ imports from outside it (search, memory, engine)", () => {
    const files = sourceFiles(skillsFolder);
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(importsOutside)).toEqual([]);
  });

  it("the scan catches an import that leaves src/skills/", () => {
    const probe = join(skillsFolder, "node", "probe.ts");
    expect(resolve(dirname(probe), "../../engine/lexical-index.js").startsWith(skillsFolder)).toBe(
      false,
    );
    const text = 'import { createLexicalIndex } from "../../engine/lexical-index.js";';
    const specifiers = [...text.matchAll(IMPORT)].map((match) => match[1] ?? match[2]);
    expect(specifiers).toEqual(["../../engine/lexical-index.js"]);
  });
});
