// Bundles the `agentool-mcp` bin (issue 29: start to first answer). Node's ES module loader pays
// per module: the compiled bin reached ~650 modules (the families, zod, the MCP SDK), the
// reference filesystem server ~210. Bundled, the bin is a handful of files: the entry, one chunk
// per lazily loaded family (each family still loads only when one of its tools is first called or
// listed), and the three worker threads the families start by file (tools-web's converter,
// tools-knowledge's index builder, tools-office's PDF reader, where PDFium runs) written beside
// the chunks under the names the families look for. Left outside: Node's own modules, rg's
// binary package (found on disk beside its module), playwright-core (an optional peer, checked at
// run time) and the code family's engines:
// @ast-grep/napi (a native .node binary, required at run time), web-tree-sitter (it loads its
// own web-tree-sitter.wasm from beside its module) and @vscode/tree-sitter-wasm (the grammars,
// .wasm files resolved by path at run time) — and the office family's sharp (a native binary
// with its libvips, loaded at read_image's first image) and @embedpdf/pdfium (PDFium's
// WebAssembly build: the PDF worker reads its pdfium.wasm by path) — dependencies of this
// package, so they resolve from dist/bin/ as rg does. The office family's pure-JavaScript
// libraries (exceljs, docx, pptxgenjs, marked, fflate, saxes) are bundled into its chunk.
//
// Run after `tsc` (the package's build script): node scripts/bundle-bin.mjs
// Writes dist/bin/ (agentool-mcp.js, its chunks and workers) and dist/bin/THIRD-PARTY-NOTICES.md,
// the licence of every package whose code the bundle carries.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const packageDirectory = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(join(packageDirectory, "package.json"));
const outputDirectory = join(packageDirectory, "dist", "bin");

/** A package's compiled file, resolved from this package as the bin resolves it. */
function packageFile(name, file) {
  return join(dirname(require.resolve(`${name}/package.json`)), file);
}

const input = {
  "agentool-mcp": join(packageDirectory, "dist", "cli.js"),
  // The families start these by `new URL("./<name>.js", import.meta.url)`: same folder, same name.
  "converter-worker": packageFile("@agentool/tools-web", "dist/node/converter-worker.js"),
  "lexical-build-worker": packageFile(
    "@agentool/tools-knowledge",
    "dist/search/node/internal/lexical-build-worker.js",
  ),
  "pdf-worker": packageFile("@agentool/tools-office", "dist/internal/readers/pdf/pdf-worker.js"),
  // tools-code's parse worker: every tree-sitter parse runs there, off the event loop.
  "tree-sitter-worker": packageFile(
    "@agentool/tools-code",
    "dist/internal/tree-sitter/tree-sitter-worker.js",
  ),
};
for (const file of Object.values(input)) {
  if (!existsSync(file)) throw new Error(`bundle-bin: ${file} is missing — build first.`);
}

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
/** Imported at run time from node_modules, never bundled. */
const OUTSIDE = [
  /^@vscode\/ripgrep(\/|$)/,
  /^playwright-core(\/|$)/,
  /^@ast-grep\/napi(\/|$)/,
  /^web-tree-sitter(\/|$)/,
  /^@vscode\/tree-sitter-wasm(\/|$)/,
  /^sharp(\/|$)/,
  /^@embedpdf\/pdfium(\/|$)/,
];
const isOutside = (id) => builtins.has(id) || OUTSIDE.some((pattern) => pattern.test(id));

const unresolved = [];
const bundle = await rolldown({
  input,
  platform: "node",
  external: isOutside,
  logLevel: "warn",
  onLog(level, log, handler) {
    // An import the bundle cannot find would fail at run time: refuse to write such a bin.
    if (log.code === "UNRESOLVED_IMPORT") unresolved.push(log.message);
    else handler(level, log);
  },
});
if (unresolved.length > 0) {
  throw new Error(`bundle-bin: unresolved imports:\n${unresolved.join("\n")}`);
}
rmSync(outputDirectory, { recursive: true, force: true });
const { output } = await bundle.write({
  dir: outputDirectory,
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "[name]-[hash].js",
  // Keeps `#!/usr/bin/env node` of the entry; the rest as written (readable stack traces).
  minify: false,
});
await bundle.close();

// ── the licences of what the bundle carries ─────────────────────────────────────────────────
/** The package folder of a bundled module (the last node_modules segment), if it is a dependency. */
function packageFolderOf(moduleId) {
  const path = moduleId.replace(/^\0/, "").split("?")[0];
  const marker = `${sep}node_modules${sep}`;
  const at = path.lastIndexOf(marker);
  if (at === -1) return undefined;
  const rest = path.slice(at + marker.length).split(sep);
  const depth = rest[0]?.startsWith("@") ? 2 : 1;
  return path.slice(0, at + marker.length) + rest.slice(0, depth).join(sep);
}

const folders = new Set();
for (const item of output) {
  if (item.type !== "chunk") continue;
  for (const id of item.moduleIds) {
    const folder = packageFolderOf(id);
    if (folder !== undefined) folders.add(folder);
  }
}
const notices = [];
for (const folder of [...folders].sort()) {
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  if (manifest.name?.startsWith("@agentool/")) continue; // ours, MIT, this package's licence
  const licenceFile = readdirSync(folder).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
  const text =
    licenceFile === undefined ? undefined : readFileSync(join(folder, licenceFile), "utf8");
  notices.push(
    `## ${manifest.name} ${manifest.version}\n\nLicence: ${manifest.license ?? "see the package"}\n\n${
      text === undefined ? "(the package ships no licence file)" : `\`\`\`\n${text.trim()}\n\`\`\``
    }\n`,
  );
}
writeFileSync(
  join(outputDirectory, "THIRD-PARTY-NOTICES.md"),
  `# Third-party code in the agentool-mcp bin\n\nThe bin (dist/bin/) bundles the code of these packages; their licences follow.\n\n${notices.join("\n")}`,
);
const files = output.filter((item) => item.type === "chunk").length;
console.log(
  `bundle-bin: dist/bin/ — ${files} files, ${notices.length} third-party packages noticed`,
);
