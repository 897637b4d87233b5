#!/usr/bin/env node
// Ground truth for Python: compares the classes, functions and methods the tree-sitter engine
// finds with Python's own `ast` module (python-declarations.py), file by file.
//
//   pnpm --filter @agentool/tools-code build
//   node packages/tools-code/scripts/ground-truth-python.mjs /usr/lib/python3.11 [--show-misses]
//
// Two tables: top-level classes and functions (module level, including under if / try / with)
// and class members (methods and nested classes, recursively). Keys are qualified names per file,
// compared as sets (a redefinition counts once). Files `ast` refuses are skipped and counted.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { addFile, createAgreement, printAgreement } from "./lib/agreement.mjs";

const { extractSymbols } = await import("../dist/internal/tree-sitter/extract-symbols.js");
const helper = fileURLToPath(new URL("./python-declarations.py", import.meta.url));

const args = process.argv.slice(2);
const showMisses = args.includes("--show-misses");
const roots = args.filter((arg) => !arg.startsWith("--"));
if (roots.length === 0) {
  console.error("usage: ground-truth-python.mjs <folder-or-file>... [--show-misses]");
  process.exit(2);
}

function* walk(path) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (path.endsWith(".py")) yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (["site-packages", "dist-packages", "__pycache__"].includes(entry)) continue;
    const child = join(path, entry);
    try {
      yield* walk(child);
    } catch {
      // unreadable entries (dangling links) are skipped
    }
  }
}

const paths = roots.flatMap((root) => [...walk(root)]);
const truthByPath = new Map();
for (let index = 0; index < paths.length; index += 200) {
  const out = execFileSync("python3", [helper, ...paths.slice(index, index + 200)], {
    maxBuffer: 256 * 1024 * 1024,
  });
  for (const line of out.toString("utf8").split("\n")) {
    if (line.trim().length === 0) continue;
    const record = JSON.parse(line);
    truthByPath.set(record.path, record);
  }
}

const DEFINITION_KINDS = new Set(["class", "function", "method", "constructor"]);
const agreement = createAgreement();
let files = 0;
let lines = 0;
let refused = 0;
let heuristic = 0;
const started = performance.now();
for (const path of paths) {
  const truth = truthByPath.get(path);
  if (truth === undefined || truth.error !== undefined) {
    refused += 1;
    continue;
  }
  let text;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    refused += 1;
    continue;
  }
  files += 1;
  lines += text.split("\n").length;
  const { symbols, method } = await extractSymbols("python", text);
  if (method !== "tree-sitter") heuristic += 1;
  const found = { top: new Set(), members: new Set() };
  for (const symbol of symbols) {
    if (!DEFINITION_KINDS.has(symbol.kind)) continue;
    found[symbol.parent === null ? "top" : "members"].add(symbol.qualified_name);
  }
  const expected = { top: new Set(truth.top), members: new Set(truth.members) };
  addFile(agreement, path, expected, found);
}
console.log(
  `${files} files, ${lines.toLocaleString("en-US")} lines (${refused} skipped: ast refuses them or they are not UTF-8), ${heuristic} outlined heuristically, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
printAgreement(agreement, {
  kind: "definitions",
  reference: "ast",
  labels: {
    top: "top-level classes and functions",
    members: "class members (methods, nested classes)",
  },
  showMisses,
});
