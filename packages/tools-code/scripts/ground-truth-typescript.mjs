#!/usr/bin/env node
// Ground truth for TypeScript: compares the declarations the tree-sitter engine finds (what
// code_outline shows and find_symbol searches) with the TypeScript compiler API's own syntax
// tree, file by file, on folders of real sources nobody here wrote.
//
//   pnpm --filter @agentool/tools-code build
//   node packages/tools-code/scripts/ground-truth-typescript.mjs <folder-or-file>... [--show-misses]
//
// Two tables: top-level declarations (at file or namespace level: functions, classes,
// interfaces, type aliases, enums, namespaces/modules, each variable of a variable statement)
// and members of classes and interfaces (methods, constructors, properties, accessors; named
// ones only: call/construct/index signatures and static blocks have no name). Keys are
// qualified names per file (`file|Namespace.Class.member`), compared as sets (overloads and
// get/set pairs count once). `declare global { }` is transparent on both sides.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { addFile, createAgreement, printAgreement } from "./lib/agreement.mjs";

const require = createRequire(import.meta.url);
const ts = require("typescript");
const { extractSymbols } = await import("../dist/internal/tree-sitter/extract-symbols.js");

const args = process.argv.slice(2);
const showMisses = args.includes("--show-misses");
const roots = args.filter((arg) => !arg.startsWith("--"));
if (roots.length === 0) {
  console.error("usage: ground-truth-typescript.mjs <folder-or-file>... [--show-misses]");
  process.exit(2);
}

function* walk(path) {
  const stat = statSync(path);
  if (stat.isFile()) {
    if (/\.(?:[cm]?ts|tsx)$/.test(path)) yield path;
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    yield* walk(join(path, entry));
  }
}

function memberName(name, file) {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText(file);
}

function bindingNames(name, out) {
  if (ts.isIdentifier(name)) out.push(name.text);
  else
    for (const element of name.elements)
      if (!ts.isOmittedExpression(element)) bindingNames(element.name, out);
}

function compilerDeclarations(path, text) {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const top = new Set();
  const members = new Set();
  const qualify = (prefix, name) => (prefix === "" ? name : `${prefix}.${name}`);
  function statements(list, prefix) {
    for (const statement of list) {
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          const names = [];
          bindingNames(declaration.name, names);
          for (const name of names) top.add(qualify(prefix, name));
        }
      } else if (ts.isModuleDeclaration(statement)) {
        if (statement.flags & ts.NodeFlags.GlobalAugmentation) {
          if (statement.body !== undefined) statements(statement.body.statements, prefix);
          continue;
        }
        let name = statement.name.text;
        let body = statement.body;
        top.add(qualify(prefix, name));
        // namespace A.B.C { } nests declarations; tree-sitter names it "A.B.C" once.
        while (body !== undefined && ts.isModuleDeclaration(body)) {
          name = `${name}.${body.name.text}`;
          top.add(qualify(prefix, name));
          body = body.body;
        }
        if (body !== undefined && ts.isModuleBlock(body))
          statements(body.statements, qualify(prefix, name));
      } else if (
        ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)
      ) {
        if (statement.name === undefined) continue;
        const qualified = qualify(prefix, statement.name.text);
        top.add(qualified);
        if (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) {
          for (const member of statement.members) {
            const name = ts.isConstructorDeclaration(member)
              ? "constructor"
              : memberName(member.name, file);
            if (name === undefined) continue;
            members.add(`${qualified}.${name}`);
          }
        }
      }
    }
  }
  statements(file.statements, "");
  return { top, members };
}

const MEMBER_KINDS = new Set(["method", "constructor", "property"]);
const TYPE_KINDS = new Set(["class", "interface"]);

async function engineDeclarations(path, text) {
  const language = path.endsWith(".tsx") ? "tsx" : "typescript";
  const { symbols, method } = await extractSymbols(language, text);
  // A name may be declared twice (zod's `interface ZodType` beside `const ZodType`).
  const kinds = new Map();
  for (const symbol of symbols) {
    if (!kinds.has(symbol.qualified_name)) kinds.set(symbol.qualified_name, new Set());
    kinds.get(symbol.qualified_name).add(symbol.kind);
  }
  const top = new Set();
  const members = new Set();
  for (const symbol of symbols) {
    const parentKinds = symbol.parent === null ? undefined : kinds.get(symbol.parent);
    // Members are methods and properties of a class or interface (which a namespace of the same
    // name may merge with: its declarations are top-level ones).
    if (
      parentKinds !== undefined &&
      [...parentKinds].some((kind) => TYPE_KINDS.has(kind)) &&
      MEMBER_KINDS.has(symbol.kind)
    ) {
      members.add(symbol.qualified_name);
    } else if (
      parentKinds === undefined ||
      parentKinds.has("namespace") ||
      parentKinds.has("module")
    ) {
      if (symbol.kind !== "enum_member") top.add(symbol.qualified_name);
    }
  }
  return { top, members, method };
}

const agreement = createAgreement();
let files = 0;
let lines = 0;
let heuristic = 0;
const started = performance.now();
for (const root of roots) {
  for (const path of walk(root)) {
    const text = readFileSync(path, "utf8");
    files += 1;
    lines += text.split("\n").length;
    const truth = compilerDeclarations(path, text);
    const found = await engineDeclarations(path, text);
    if (found.method !== "tree-sitter") heuristic += 1;
    addFile(agreement, path, truth, found);
  }
}
console.log(
  `${files} files, ${lines.toLocaleString("en-US")} lines, ${heuristic} outlined heuristically, ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
printAgreement(agreement, {
  kind: "declarations",
  reference: "compiler",
  labels: { top: "top-level", members: "class/interface members" },
  showMisses,
});
