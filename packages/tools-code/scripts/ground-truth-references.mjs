#!/usr/bin/env node
// Ground truth for find_references: compares its syntactic occurrences with the TypeScript
// language service's findReferences (type-resolved) on a folder of real TypeScript sources
// nobody here wrote, for a deterministic sample of exported declarations and class members.
//
//   pnpm --filter @agentool/tools-code build
//   node packages/tools-code/scripts/ground-truth-references.mjs <folder> [--symbols 60] [--show-misses]
//
// Both sides are reduced to (file, offset) of each occurrence inside the folder. precision =
// ours ∩ service / ours (how many of ours the service also reports); recall = ours ∩ service /
// service (how many of the service's we find). Micro-averaged over the sampled symbols, one row
// for top-level exports and one for class and interface members.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";

const require = createRequire(import.meta.url);
const ts = require("typescript");
const { createFindReferencesTool } = await import("../dist/find-references.js");

const args = process.argv.slice(2);
const showMisses = args.includes("--show-misses");
const symbolsAt = args.indexOf("--symbols");
const wanted = symbolsAt === -1 ? 60 : Number(args[symbolsAt + 1]);
const root = args.find((arg, index) => !arg.startsWith("--") && args[index - 1] !== "--symbols");
if (root === undefined) {
  console.error("usage: ground-truth-references.mjs <folder> [--symbols N] [--show-misses]");
  process.exit(2);
}

function* walk(path) {
  for (const entry of readdirSync(path).sort()) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const full = join(path, entry);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (/\.(?:[cm]?ts|tsx)$/.test(entry) && !/\.d\.[cm]?ts$/.test(entry)) yield full;
  }
}

const files = [...walk(root)];
const texts = new Map(files.map((file) => [file, readFileSync(file, "utf8")]));
const options = {
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
};
const service = ts.createLanguageService(
  {
    getScriptFileNames: () => files,
    getScriptVersion: () => "1",
    getScriptSnapshot: (file) => {
      const text = texts.get(file) ?? (ts.sys.fileExists(file) ? ts.sys.readFile(file) : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (settings) => ts.getDefaultLibFilePath(settings),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  },
  ts.createDocumentRegistry(),
);
const program = service.getProgram();

/** Exported top-level declarations and members of exported classes/interfaces: { file, name, position, group }. */
function candidates() {
  const found = [];
  for (const file of files) {
    const source = program.getSourceFile(file);
    if (source === undefined) continue;
    for (const statement of source.statements) {
      const exported = ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Export;
      if (!exported) continue;
      const names = [];
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.push(declaration.name);
        }
      } else if (statement.name !== undefined && ts.isIdentifier(statement.name)) {
        names.push(statement.name);
      }
      for (const name of names)
        found.push({
          file,
          name: name.text,
          position: name.getStart(source),
          group: "top-level exports",
        });
      if (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) {
        for (const member of statement.members) {
          if (
            member.name !== undefined &&
            ts.isIdentifier(member.name) &&
            member.name.text !== "constructor"
          ) {
            found.push({
              file,
              name: member.name.text,
              position: member.name.getStart(source),
              group: "class and interface members",
            });
          }
        }
      }
    }
  }
  return found;
}

function sample(list, count) {
  const byGroup = new Map();
  for (const item of list) byGroup.set(item.group, [...(byGroup.get(item.group) ?? []), item]);
  const chosen = [];
  for (const items of byGroup.values()) {
    // Each name once (the first declaration), then every k-th: deterministic, spread over the folder.
    const unique = [...new Map(items.map((item) => [item.name, item])).values()];
    const step = Math.max(1, Math.floor(unique.length / Math.ceil(count / byGroup.size)));
    for (
      let index = 0;
      index < unique.length &&
      chosen.filter((item) => item.group === unique[0].group).length <
        Math.ceil(count / byGroup.size);
      index += step
    ) {
      chosen.push(unique[index]);
    }
  }
  return chosen;
}

function lineStarts(text) {
  const starts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1))
    starts.push(index + 1);
  return starts;
}
const starts = new Map();
function offsetOf(file, line, column) {
  if (!starts.has(file)) starts.set(file, lineStarts(texts.get(file)));
  return starts.get(file)[line - 1] + column - 1;
}

const tool = createFindReferencesTool({ root, maxFileBytes: 8_000_000, timeoutMs: 0 });
async function ours(name) {
  const keys = new Set();
  for (let offset = 1; ; ) {
    const result = await tool.run({ name, offset, limit: 1000 });
    if (!result.success) throw new Error(result.error.message);
    for (const file of result.data.files) {
      const full = join(root, file.path);
      if (!texts.has(full)) continue; // .js or .d.ts beside the sources: outside the comparison
      for (const occurrence of file.occurrences)
        keys.add(`${full}|${offsetOf(full, occurrence.line, occurrence.column)}`);
    }
    if (result.data.next_offset === undefined) break;
    offset = result.data.next_offset;
  }
  return keys;
}

function theirs(item) {
  const keys = new Set();
  for (const group of service.findReferences(item.file, item.position) ?? []) {
    for (const reference of group.references) {
      if (texts.has(reference.fileName))
        keys.add(`${reference.fileName}|${reference.textSpan.start}`);
    }
  }
  return keys;
}

const rows = new Map();
const misses = [];
for (const item of sample(candidates(), wanted)) {
  const mine = await ours(item.name);
  const service = theirs(item);
  let both = 0;
  for (const key of mine) if (service.has(key)) both += 1;
  const row = rows.get(item.group) ?? { symbols: 0, service: 0, ours: 0, both: 0 };
  row.symbols += 1;
  row.service += service.size;
  row.ours += mine.size;
  row.both += both;
  rows.set(item.group, row);
  if (showMisses && (both < mine.size || both < service.size)) {
    misses.push(
      `${relative(root, item.file)} ${item.name}: ours ${mine.size}, service ${service.size}, both ${both}`,
    );
  }
}

const fixed = (value) => value.toFixed(3);
console.log(
  `find_references vs the TypeScript ${ts.version} language service's findReferences on ${root} (${files.length} files)\n`,
);
console.log("| set | symbols | service | ours | both | precision | recall |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
const total = { symbols: 0, service: 0, ours: 0, both: 0 };
for (const [group, row] of rows) {
  for (const key of Object.keys(total)) total[key] += row[key];
  console.log(
    `| ${group} | ${row.symbols} | ${row.service} | ${row.ours} | ${row.both} | ${fixed(row.both / row.ours)} | ${fixed(row.both / row.service)} |`,
  );
}
console.log(
  `| all | ${total.symbols} | ${total.service} | ${total.ours} | ${total.both} | ${fixed(total.both / total.ours)} | ${fixed(total.both / total.service)} |`,
);
if (showMisses) console.log(`\n${misses.join("\n")}`);
