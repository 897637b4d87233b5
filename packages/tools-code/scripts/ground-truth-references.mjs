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
// service (how many of the service's we find). Micro-averaged over the sampled symbols. Each
// sampled symbol is asked the ways a model would: a top-level export by its plain name (all its
// definitions, grouped) and with defined_in (its own file); a member by its plain name and as
// Type.member (what a model asks for a method). The `all` row sums the plain top-level and the
// Type.member rows.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";

const require = createRequire(import.meta.url);
const ts = require("typescript");
const { createFindReferencesTool } = await import("../dist/find-references.js");

const args = process.argv.slice(2);
const showMisses = args.includes("--show-misses");
// --only NAME: just the sampled symbols so named, each missed and extra occurrence printed.
const onlyAt = args.indexOf("--only");
const only = onlyAt === -1 ? undefined : args[onlyAt + 1];
const symbolsAt = args.indexOf("--symbols");
const wanted = symbolsAt === -1 ? 60 : Number(args[symbolsAt + 1]);
const given = args.find(
  (arg, index) =>
    !arg.startsWith("--") && args[index - 1] !== "--symbols" && args[index - 1] !== "--only",
);
// Absolute: the service reports absolute file names.
const root = given === undefined ? undefined : resolve(given);
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
      if (
        (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) &&
        statement.name !== undefined
      ) {
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
              container: statement.name.text,
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
async function ours(name, extra = {}) {
  const keys = new Set();
  for (let offset = 1; ; ) {
    const result = await tool.run({ name, offset, limit: 1000, ...extra });
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
function count(group, item, mine, service) {
  let both = 0;
  for (const key of mine) if (service.has(key)) both += 1;
  const row = rows.get(group) ?? { symbols: 0, service: 0, ours: 0, both: 0 };
  row.symbols += 1;
  row.service += service.size;
  row.ours += mine.size;
  row.both += both;
  rows.set(group, row);
  if (only !== undefined) {
    const show = (key, mark) => {
      const [file, offset] = key.split("|");
      const text = texts.get(file);
      const start = text.lastIndexOf("\n", Number(offset)) + 1;
      const line = text.slice(0, start).split("\n").length;
      const end = text.indexOf("\n", start);
      console.log(
        `  ${mark} ${relative(root, file)}:${line} ${text.slice(start, end).trim().slice(0, 140)}`,
      );
    };
    console.log(`${group}: ${item.asked}`);
    for (const key of service) if (!mine.has(key)) show(key, "missed");
    for (const key of mine) if (!service.has(key)) show(key, "extra ");
  }
  if (showMisses && (both < mine.size || both < service.size)) {
    misses.push(
      `${group}: ${relative(root, item.file)} ${item.asked}: ours ${mine.size}, service ${service.size}, both ${both}`,
    );
  }
}
const started = performance.now();
for (const item of sample(candidates(), wanted)) {
  if (only !== undefined && item.name !== only) continue;
  const service = theirs(item);
  count(item.group, { ...item, asked: item.name }, await ours(item.name), service);
  if (item.group === "top-level exports") {
    const definedIn = relative(root, item.file);
    count(
      "top-level exports, with defined_in",
      { ...item, asked: `${item.name} defined_in ${definedIn}` },
      await ours(item.name, { defined_in: definedIn }),
      service,
    );
  } else {
    const asked = `${item.container}.${item.name}`;
    count("members as Type.member", { ...item, asked }, await ours(asked), service);
  }
}
const seconds = (performance.now() - started) / 1000;

const fixed = (value) => value.toFixed(3);
console.log(
  `find_references vs the TypeScript ${ts.version} language service's findReferences on ${root} (${files.length} files)\n`,
);
console.log("| set | symbols | service | ours | both | precision | recall |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
const total = { symbols: 0, service: 0, ours: 0, both: 0 };
const order = [
  "top-level exports",
  "top-level exports, with defined_in",
  "class and interface members",
  "members as Type.member",
];
for (const group of order) {
  const row = rows.get(group);
  if (row === undefined) continue;
  if (group === "top-level exports" || group === "members as Type.member")
    for (const key of Object.keys(total)) total[key] += row[key];
  console.log(
    `| ${group} | ${row.symbols} | ${row.service} | ${row.ours} | ${row.both} | ${fixed(row.both / row.ours)} | ${fixed(row.both / row.service)} |`,
  );
}
console.log(
  `| all (top-level + Type.member) | ${total.symbols} | ${total.service} | ${total.ours} | ${total.both} | ${fixed(total.both / total.ours)} | ${fixed(total.both / total.service)} |`,
);
console.log(
  `\n${seconds.toFixed(1)} s for find_references's ${[...rows.values()].reduce((sum, row) => sum + row.symbols, 0)} calls`,
);
if (showMisses) console.log(`\n${misses.join("\n")}`);
