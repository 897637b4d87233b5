#!/usr/bin/env node
// The shape of the source, measured with the TypeScript compiler API: how many lines, which files
// are long, which functions are long. Issue 26's bar: at most two source files over 800 lines, no
// function over 300 lines and at most 12 over 150. Tests, test support and generated files are
// not counted; a function's length is its lines from its first token to its end.
//
//   node scripts/measure-shape.mjs            the summary and every file / function over a bar
//   node scripts/measure-shape.mjs --json     the same as JSON
//   node scripts/measure-shape.mjs --check    exits 1 when a bar is exceeded
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const REPOSITORY_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const require = createRequire(join(REPOSITORY_ROOT, "package.json"));
const ts = require("typescript");

/** The bars of issue 26. */
export const SHAPE_BARS = Object.freeze({
  longFileLines: 800,
  maximumLongFiles: 2,
  longFunctionLines: 150,
  maximumLongFunctions: 12,
  hugeFunctionLines: 300,
});

/**
 * Whether a path is counted: TypeScript source under a package's `src/`, not a test, not test
 * support, not generated.
 *
 * @param {string} path - a path relative to the repository root
 * @returns {boolean}
 */
function counted(path) {
  if (!/\.(ts|tsx|mts)$/.test(path) || path.endsWith(".d.ts")) return false;
  if (/\.(test|int\.test|bench)\.tsx?$/.test(path)) return false;
  if (/(^|\/)(test-support|testing|__fixtures__|fixtures)(\/|$)/.test(path)) return false;
  if (/\.generated\.ts$/.test(path)) return false;
  return /^(packages|apps)\/[^/]+\/src\//.test(path);
}

/**
 * Every counted file of the repository.
 *
 * @returns {string[]} paths relative to the repository root
 */
function sourceFiles() {
  const found = [];
  const walk = (folder) => {
    for (const entry of readdirSync(join(REPOSITORY_ROOT, folder), { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith("."))
        continue;
      const path = folder === "" ? entry.name : `${folder}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile() && counted(path)) found.push(path);
    }
  };
  for (const top of ["packages", "apps"]) walk(top);
  return found.sort();
}

/**
 * A readable name for a function-like node.
 *
 * @param {import("typescript").Node} node - the function
 * @returns {string}
 */
function functionName(node) {
  if (node.name !== undefined && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (parent !== undefined && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name))
    return parent.name.text;
  if (parent !== undefined && ts.isPropertyAssignment(parent)) return parent.name.getText();
  return "(anonymous)";
}

/**
 * Measures the repository.
 *
 * @returns {{ files: number, lines: number, longFiles: {path: string, lines: number}[], longFunctions: {path: string, name: string, line: number, lines: number}[] }}
 */
export function measureShape() {
  const paths = sourceFiles();
  let lines = 0;
  const longFiles = [];
  const longFunctions = [];
  for (const path of paths) {
    const text = readFileSync(join(REPOSITORY_ROOT, path), "utf8");
    const fileLines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    lines += fileLines;
    if (fileLines > SHAPE_BARS.longFileLines) longFiles.push({ path, lines: fileLines });
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body !== undefined) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        const length = end - start + 1;
        if (length > SHAPE_BARS.longFunctionLines) {
          longFunctions.push({ path, name: functionName(node), line: start + 1, lines: length });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  longFiles.sort((left, right) => right.lines - left.lines);
  longFunctions.sort((left, right) => right.lines - left.lines);
  return { files: paths.length, lines, longFiles, longFunctions };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const shape = measureShape();
  const huge = shape.longFunctions.filter((entry) => entry.lines > SHAPE_BARS.hugeFunctionLines);
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(shape, null, 2));
  } else {
    console.log(`${shape.files} source files, ${shape.lines} lines (tests excluded)`);
    console.log(
      `files over ${SHAPE_BARS.longFileLines} lines: ${shape.longFiles.length} (bar ${SHAPE_BARS.maximumLongFiles})`,
    );
    for (const file of shape.longFiles) console.log(`  ${file.lines}\t${file.path}`);
    console.log(
      `functions over ${SHAPE_BARS.longFunctionLines} lines: ${shape.longFunctions.length} (bar ${SHAPE_BARS.maximumLongFunctions}); over ${SHAPE_BARS.hugeFunctionLines}: ${huge.length} (bar 0)`,
    );
    for (const entry of shape.longFunctions) {
      console.log(
        `  ${entry.lines}\t${entry.name}  ${relative(REPOSITORY_ROOT, join(REPOSITORY_ROOT, entry.path))}:${entry.line}`,
      );
    }
  }
  if (process.argv.includes("--check")) {
    const failed =
      shape.longFiles.length > SHAPE_BARS.maximumLongFiles ||
      shape.longFunctions.length > SHAPE_BARS.maximumLongFunctions ||
      huge.length > 0;
    process.exitCode = failed ? 1 : 0;
  }
}
