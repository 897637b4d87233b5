#!/usr/bin/env node
// How good is repo_map's overview? Ground truth nobody here wrote: for every top-level
// declaration of a folder, the number of *other files* that import it, then the recall of the
// most-imported symbols among the top-level symbols a map shows, at the default budget, 2× and 4×.
//
//   pnpm --filter @agentool/tools-code build
//   node packages/tools-code/scripts/repo-map-quality.mjs <folder> [--budget N] [--show]
//
// TypeScript/JavaScript: the TypeScript compiler API's syntax trees; an import counts for the
// declaration it reaches through relative module paths (`./x.js` → `x.ts`, folders → `index.ts`),
// named re-exports (`export { a } from`), `export *` and local `export { a }`: named imports,
// default imports, `import * as ns` followed by `ns.X` (values and types), named re-exports (the
// re-exporting file counts as a user of the symbol). Python: python-imports.py (Python's `ast`:
// from-imports and `module.attr` uses). The folder is copied to a temporary directory first, so a
// `.gitignore` above it (node_modules) does not hide it from the map.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const { createRepoMapTool, DEFAULT_REPO_MAP_BUDGET_TOKENS } = await import("../dist/index.js");

const args = process.argv.slice(2);
const budgetAt = args.indexOf("--budget");
const baseBudget = budgetAt === -1 ? DEFAULT_REPO_MAP_BUDGET_TOKENS : Number(args[budgetAt + 1]);
const show = args.includes("--show");
const folder = args.find((arg, index) => !arg.startsWith("--") && args[index - 1] !== "--budget");
if (folder === undefined) {
  console.error("usage: repo-map-quality.mjs <folder> [--budget N] [--show]");
  process.exit(2);
}
const root = resolve(folder);

const TS_FILE = /\.(?:[cm]?[jt]sx?)$/;

function* walk(directory) {
  for (const entry of readdirSync(directory).sort()) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** Import counts for TypeScript/JavaScript: Map<"path|name", users>. */
function typescriptCounts(files) {
  const ts = require("typescript");
  const modules = new Map();
  for (const path of files) {
    const text = readFileSync(path, "utf8");
    const kind = path.endsWith("x") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
    const module = {
      path,
      declared: new Set(),
      defaultName: undefined,
      localExports: new Map(), // exported name -> local name
      reexports: new Map(), // exported name -> { from, name }
      stars: [], // modules of `export * from`
      imports: new Map(), // local name -> { from, name } (name "*" for a namespace)
      source,
    };
    for (const statement of source.statements) {
      const isDefault = statement.modifiers?.some(
        (modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword,
      );
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations)
          if (ts.isIdentifier(declaration.name)) module.declared.add(declaration.name.text);
      } else if (
        (ts.isFunctionDeclaration(statement) ||
          ts.isClassDeclaration(statement) ||
          ts.isInterfaceDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) ||
          ts.isEnumDeclaration(statement) ||
          ts.isModuleDeclaration(statement)) &&
        statement.name !== undefined &&
        ts.isIdentifier(statement.name)
      ) {
        module.declared.add(statement.name.text);
        if (isDefault) module.defaultName = statement.name.text;
      } else if (ts.isExportAssignment(statement) && ts.isIdentifier(statement.expression)) {
        module.localExports.set("default", statement.expression.text);
      } else if (
        ts.isImportDeclaration(statement) &&
        ts.isStringLiteral(statement.moduleSpecifier)
      ) {
        const from = resolveModule(path, statement.moduleSpecifier.text);
        const clause = statement.importClause;
        if (from === undefined || clause === undefined) continue;
        if (clause.name !== undefined)
          module.imports.set(clause.name.text, { from, name: "default" });
        const bindings = clause.namedBindings;
        if (bindings !== undefined && ts.isNamespaceImport(bindings))
          module.imports.set(bindings.name.text, { from, name: "*" });
        else if (bindings !== undefined)
          for (const element of bindings.elements)
            module.imports.set(element.name.text, {
              from,
              name: (element.propertyName ?? element.name).text,
            });
      } else if (ts.isExportDeclaration(statement)) {
        const from =
          statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier)
            ? resolveModule(path, statement.moduleSpecifier.text)
            : undefined;
        const clause = statement.exportClause;
        if (clause === undefined) {
          if (from !== undefined) module.stars.push(from);
        } else if (ts.isNamedExports(clause)) {
          for (const element of clause.elements) {
            const name = (element.propertyName ?? element.name).text;
            if (statement.moduleSpecifier === undefined)
              module.localExports.set(element.name.text, name);
            else if (from !== undefined) module.reexports.set(element.name.text, { from, name });
          }
        }
      }
    }
    modules.set(path, module);
  }

  function resolveModule(fromPath, specifier) {
    if (!specifier.startsWith(".")) return undefined;
    const base = resolve(dirname(fromPath), specifier);
    const stem = base.replace(/\.(?:[cm]?js|jsx)$/, "");
    const tries = [
      base,
      ...[".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".d.ts"].map((ext) => stem + ext),
      ...["index.ts", "index.tsx", "index.js", "index.mjs"].map((name) => join(base, name)),
    ];
    return tries.find((candidate) => modules.has(candidate) || isFile(candidate));
  }

  /** The declaring (path, name) of `name` as exported or declared by `path`. */
  function resolveName(path, name, seen = new Set()) {
    const key = `${path}|${name}`;
    const module = modules.get(path);
    if (module === undefined || seen.has(key)) return undefined;
    seen.add(key);
    if (name === "default" && module.defaultName !== undefined)
      return { path, name: module.defaultName };
    if (module.declared.has(name)) return { path, name };
    const local = module.localExports.get(name);
    if (local !== undefined && local !== name) return resolveName(path, local, seen);
    const imported = module.imports.get(local ?? name);
    if (imported !== undefined && imported.name !== "*")
      return resolveName(imported.from, imported.name, seen);
    const reexport = module.reexports.get(name);
    if (reexport !== undefined) return resolveName(reexport.from, reexport.name, seen);
    for (const star of module.stars) {
      const found = resolveName(star, name, seen);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  const users = new Map();
  const use = (user, found) => {
    if (found === undefined || found.path === user) return;
    const key = `${found.path}|${found.name}`;
    if (!users.has(key)) users.set(key, new Set());
    users.get(key).add(user);
  };
  for (const module of modules.values()) {
    const namespaces = new Map();
    for (const [local, imported] of module.imports) {
      if (imported.name === "*") namespaces.set(local, imported.from);
      else use(module.path, resolveName(imported.from, imported.name));
    }
    for (const reexport of module.reexports.values())
      use(module.path, resolveName(reexport.from, reexport.name));
    if (namespaces.size > 0) {
      const visit = (node) => {
        let left;
        let right;
        if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
          left = node.expression.text;
          right = node.name.text;
        } else if (ts.isQualifiedName(node) && ts.isIdentifier(node.left)) {
          left = node.left.text;
          right = node.right.text;
        }
        if (left !== undefined && namespaces.has(left))
          use(module.path, resolveName(namespaces.get(left), right));
        ts.forEachChild(node, visit);
      };
      visit(module.source);
    }
  }
  const counts = new Map();
  for (const module of modules.values())
    for (const name of module.declared) {
      const key = `${relative(root, module.path)}|${name}`;
      counts.set(key, users.get(`${module.path}|${name}`)?.size ?? 0);
    }
  return counts;
}

function isFile(path) {
  return existsSync(path) && statSync(path).isFile();
}

function pythonCounts() {
  const run = spawnSync("python3", [join(here, "python-imports.py"), root], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  const counts = new Map();
  for (const row of JSON.parse(run.stdout)) counts.set(`${row.path}|${row.name}`, row.files);
  return counts;
}

const all = [...walk(root)];
const tsFiles = all.filter((path) => TS_FILE.test(path));
const pyFiles = all.filter((path) => path.endsWith(".py"));
const counts = tsFiles.length >= pyFiles.length ? typescriptCounts(tsFiles) : pythonCounts();
const ranked = [...counts]
  .filter(([, users]) => users > 0)
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

const scratch = mkdtempSync(join(tmpdir(), "repo-map-quality-"));
const copy = join(scratch, basename(root));
cpSync(root, copy, { recursive: true });
try {
  const tool = createRepoMapTool({ root: copy, maxBudgetTokens: 65_536 });
  console.log(
    `${basename(root)}: ${tsFiles.length + pyFiles.length} files, ${counts.size} top-level declarations, ${ranked.length} imported by another file; top-20 cut at ${ranked[19]?.[1] ?? 0} importing files, top-50 at ${ranked[49]?.[1] ?? 0}`,
  );
  console.log(
    "| budget | files shown | top-level symbols shown | top-20 recall | top-50 recall | ms (cold, warm) |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const budget of [baseBudget, baseBudget * 2, baseBudget * 4]) {
    let started = performance.now();
    const fresh = createRepoMapTool({ root: copy, maxBudgetTokens: 65_536 });
    await fresh.run({ budget_tokens: budget });
    const cold = performance.now() - started;
    started = performance.now();
    const result = await fresh.run({ budget_tokens: budget });
    const warm = performance.now() - started;
    if (!result.success) throw new Error(result.error.message);
    const shown = new Set();
    for (const file of result.data.files)
      for (const symbol of file.symbols)
        if (symbol.depth === 0) shown.add(`${file.path}|${symbol.name}`);
    const recall = (size) => {
      const top = ranked.slice(0, size);
      return top.length === 0 ? 1 : top.filter(([key]) => shown.has(key)).length / top.length;
    };
    console.log(
      `| ${budget.toLocaleString("en-US")} | ${result.data.files.length} | ${shown.size} | ${recall(20).toFixed(2)} | ${recall(50).toFixed(2)} | ${Math.round(cold)}, ${Math.round(warm)} |`,
    );
    if (show && budget === baseBudget) {
      console.log(tool.renderResult(result));
      for (const [key, users] of ranked.slice(0, 50))
        console.log(`${shown.has(key) ? "✓" : " "} ${String(users).padStart(4)} ${key}`);
    }
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
