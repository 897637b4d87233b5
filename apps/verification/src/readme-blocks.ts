import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join, relative } from "node:path";
import ts from "typescript";

/** The fence languages whose blocks are run (or, when marked as fragments, type-checked). */
export const CODE_LANGUAGES: ReadonlySet<string> = new Set([
  "ts",
  "typescript",
  "mts",
  "tsx",
  "js",
  "javascript",
  "mjs",
]);

/**
 * The Markdown marker, an HTML comment on the line right before a fence:
 * `<!-- doc-test: fragment -->` (type-checked against the built packages, never run) or
 * `<!-- doc-test: expect-error -->` (run, and allowed to print an error envelope).
 */
export const MARKER_PATTERN = /^<!--\s*doc-test:\s*([a-z-]+)\s*-->$/;

/** How a block is checked. */
export type BlockMode = "run" | "expect-error" | "fragment";

/** One TypeScript/JavaScript block of a README. */
export interface ReadmeBlock {
  /** The README, relative to the repository root, e.g. `packages/tools-fs/README.md`. */
  readme: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's language, e.g. `ts`. */
  language: string;
  /** The block's text, without the fences. */
  code: string;
  /** How the block is checked (from the marker before its fence; `run` without one). */
  mode: BlockMode;
  /** 0-based position among the README's code blocks. */
  index: number;
}

/**
 * Finds the README files the doc tests cover: the root README and every README directly inside
 * `packages/*` and `apps/*`.
 *
 * @param repositoryRoot - the monorepo's root folder
 * @returns README paths relative to the root, sorted
 * @example
 * listReadmes("/work/main"); // ["README.md", "apps/demo/README.md", …]
 */
export function listReadmes(repositoryRoot: string): string[] {
  const found = ["README.md"];
  for (const group of ["apps", "packages"]) {
    for (const name of readdirSync(join(repositoryRoot, group)).sort()) {
      const candidate = join(repositoryRoot, group, name, "README.md");
      if (isFile(candidate)) found.push(relative(repositoryRoot, candidate));
    }
  }
  return found;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Extracts every TypeScript/JavaScript block of a README with its marker.
 *
 * @param markdown - the README's text
 * @param readme - its path relative to the repository root, carried into each block
 * @returns the blocks in document order
 * @throws Error when a marker names an unknown mode, or does not stand right before a code fence
 * @example
 * extractBlocks("```ts\nconsole.log(1);\n```\n", "README.md")[0].mode; // "run"
 */
export function extractBlocks(markdown: string, readme: string): ReadmeBlock[] {
  const lines = markdown.split("\n");
  const blocks: ReadmeBlock[] = [];
  let open: { line: number; language: string; body: string[]; mode: BlockMode } | undefined;
  let inOtherFence = false;
  let pendingMode: { mode: BlockMode; line: number } | undefined;
  lines.forEach((text, position) => {
    const fence = /^```\s*([A-Za-z0-9-]*)/.exec(text);
    if (open !== undefined) {
      if (/^```\s*$/.test(text)) {
        blocks.push({
          readme,
          line: open.line,
          language: open.language,
          code: open.body.join("\n"),
          mode: open.mode,
          index: blocks.length,
        });
        open = undefined;
      } else open.body.push(text);
      return;
    }
    if (inOtherFence) {
      if (/^```\s*$/.test(text)) inOtherFence = false;
      return;
    }
    const marker = MARKER_PATTERN.exec(text.trim());
    if (marker !== null) {
      pendingMode = { mode: parseMode(marker[1] ?? "", readme, position + 1), line: position + 1 };
      return;
    }
    if (fence !== null) {
      const language = (fence[1] ?? "").toLowerCase();
      if (CODE_LANGUAGES.has(language)) {
        open = { line: position + 1, language, body: [], mode: pendingMode?.mode ?? "run" };
        pendingMode = undefined;
        return;
      }
      inOtherFence = true;
    }
    if (pendingMode !== undefined) {
      throw new Error(
        `${readme}:${pendingMode.line}: a doc-test marker must stand on the line right before a TypeScript/JavaScript fence.`,
      );
    }
  });
  return blocks;
}

function parseMode(word: string, readme: string, line: number): BlockMode {
  if (word === "fragment" || word === "expect-error") return word;
  throw new Error(
    `${readme}:${line}: unknown doc-test marker "${word}" — use "fragment" or "expect-error".`,
  );
}

/**
 * Reads the README's install lines: every `npm install …` / `pnpm add …` line of its shell
 * blocks, as package names (versions, flags and comments dropped).
 *
 * @param markdown - the README's text
 * @returns the package names, in order, without duplicates (empty when there is no install line)
 * @example
 * installedPackages("```sh\nnpm install @agentool/tools-fs zod\n```"); // ["@agentool/tools-fs", "zod"]
 */
export function installedPackages(markdown: string): string[] {
  const shellBlocks = markdown.matchAll(/^```(?:sh|bash|shell)\s*\n([\s\S]*?)^```\s*$/gm);
  const names: string[] = [];
  for (const [, body] of shellBlocks) {
    for (const line of (body ?? "").split("\n")) {
      const command = /^\s*(?:npm\s+(?:install|i|add)|pnpm\s+add)\s+(.*)$/.exec(line);
      if (command === null) continue;
      const words = (command[1] ?? "").replace(/#.*$/, "").trim().split(/\s+/);
      for (const word of words) {
        if (word === "" || word.startsWith("-")) continue;
        const name = packageOfSpecifier(word.replace(/(?<=.)@[^/]*$/, ""));
        if (name !== undefined && !names.includes(name)) names.push(name);
      }
    }
  }
  return names;
}

/**
 * The package a bare import specifier names, or `undefined` for relative paths and Node
 * built-ins.
 *
 * @param specifier - e.g. `@agentool/tools-fs/node`, `zod`, `node:fs`
 * @returns e.g. `@agentool/tools-fs`, `zod`, `undefined`
 */
export function packageOfSpecifier(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  if (specifier.startsWith("node:") || builtinModules.includes(specifier)) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * The packages a block imports (static and dynamic imports with a literal specifier).
 *
 * @param code - the block's text
 * @returns package names, without duplicates
 * @example
 * importedPackages('import { z } from "zod";'); // ["zod"]
 */
export function importedPackages(code: string): string[] {
  const names = new Set<string>();
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g;
  for (const [, specifier] of code.matchAll(pattern)) {
    const name = packageOfSpecifier(specifier ?? "");
    if (name !== undefined) names.add(name);
  }
  return [...names];
}

/**
 * Turns a TypeScript block into an ES module Node runs as is (types stripped, nothing else
 * changed).
 *
 * @param code - the block's text
 * @returns JavaScript for a `.mjs` file
 */
export function toRunnableModule(code: string): string {
  const output = ts.transpileModule(code, {
    compilerOptions: {
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
    },
    reportDiagnostics: false,
  });
  return output.outputText;
}

/**
 * Finds what in a run's output says that something failed: an error envelope
 * (`"success":false`, `success: false`) or a rendered error (`Error [CODE]`).
 *
 * @param output - stdout and stderr of the run
 * @returns the offending lines (empty when the run printed no error)
 */
export function errorLines(output: string): string[] {
  return output
    .split("\n")
    .filter((line) => /["']?success["']?\s*:\s*false|Error \[[A-Z_]+\]/.test(line));
}

/**
 * Reads a README and extracts its blocks.
 *
 * @param repositoryRoot - the monorepo's root folder
 * @param readme - the README relative to the root
 * @returns the blocks in document order
 */
export function readBlocks(repositoryRoot: string, readme: string): ReadmeBlock[] {
  return extractBlocks(readFileSync(join(repositoryRoot, readme), "utf8"), readme);
}
