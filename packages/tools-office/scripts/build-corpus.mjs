#!/usr/bin/env node
// The fidelity corpus: documents nobody here wrote, converted by other people's tools.
//
// Sources (Debian's files on this machine): Markdown and reStructuredText from /usr/share/doc,
// manual pages (groff sources read by `pandoc -f man`), and real tables (CSV from /usr/share,
// iso-codes' JSON, the tz database's zone1970.tab, the first table of Markdown sources).
// Conversions:
//   pandoc      source → .docx, .odt, .epub, .pptx
//   LibreOffice odt → .docx ("docx-libreoffice"), pandoc's .docx → .pdf, CSV → .xlsx and .ods
// Ground truth per source: its structure as pandoc's JSON AST of the SOURCE holds it (headings
// with levels, list items with depth, table cells, link targets, the words) — see lib/structure.mjs.
//
//   node scripts/build-corpus.mjs [--small] [--rebuild] [--out DIR]
//
// Cached under <repository>/.cache/office-corpus/ (git-ignored, never committed): a conversion
// whose output exists is not redone; --rebuild redoes everything. --small builds the CI-sized
// set (4 text sources, 2 tables). Prints the files per format; writes manifest.json beside them.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gunzipSync } from "node:zlib";
import { structureOfAst, wordsOf } from "./lib/structure.mjs";

const run = promisify(execFile);
const repository = resolve(import.meta.dirname, "../../..");

/** Where the corpus is cached unless told otherwise. */
export const DEFAULT_CORPUS_DIRECTORY = join(repository, ".cache", "office-corpus");

/**
 * A text source: a Debian file, the pandoc reader that parses it, and a short id.
 *
 * @typedef {{ id: string, path: string, from: "gfm" | "rst" | "man" }} TextSource
 */

/** @type {TextSource[]} chosen for variety: tables, nested lists, links, headings, long prose */
export const TEXT_SOURCES = [
  { id: "node-dns", path: "/usr/share/doc/nodejs/api/dns.md", from: "gfm" },
  { id: "node-building", path: "/usr/share/doc/nodejs/BUILDING.md", from: "gfm" },
  {
    id: "node-tooling-tiers",
    path: "/usr/share/doc/nodejs/contributing/diagnostic-tooling-support-tiers.md",
    from: "gfm",
  },
  { id: "node-documentation", path: "/usr/share/doc/nodejs/api/documentation.md", from: "gfm" },
  {
    id: "node-collaborator-guide",
    path: "/usr/share/doc/nodejs/contributing/collaborator-guide.md",
    from: "gfm",
  },
  { id: "node-intl", path: "/usr/share/doc/nodejs/api/intl.md", from: "gfm" },
  { id: "node-esm", path: "/usr/share/doc/nodejs/api/esm.md", from: "gfm" },
  { id: "node-path", path: "/usr/share/doc/nodejs/api/path.md", from: "gfm" },
  { id: "zstd-readme", path: "/usr/share/doc/zstd/README.md.gz", from: "gfm" },
  { id: "bubblewrap-readme", path: "/usr/share/doc/bubblewrap/README.md.gz", from: "gfm" },
  { id: "systemd-uids-gids", path: "/usr/share/doc/systemd/UIDS-GIDS.md.gz", from: "gfm" },
  { id: "libffi-readme", path: "/usr/share/doc/libffi8/README.md.gz", from: "gfm" },
  { id: "pip-user-guide", path: "/usr/share/doc/python3-pip/html/user_guide.rst.gz", from: "rst" },
  { id: "python-readme", path: "/usr/share/doc/python3.11/README.rst.gz", from: "rst" },
  {
    id: "pip-anatomy",
    path: "/usr/share/doc/python3-pip/html/development/architecture/anatomy.rst.gz",
    from: "rst",
  },
  {
    id: "pip-install",
    path: "/usr/share/doc/python3-pip/html/cli/pip_install.rst.gz",
    from: "rst",
  },
  { id: "jdcal-readme", path: "/usr/share/doc/python3-jdcal/README.rst", from: "rst" },
  { id: "lazr-uri", path: "/usr/share/doc/python3-lazr.uri/index.rst", from: "rst" },
  { id: "man-signal", path: "/usr/share/man/man7/signal.7.gz", from: "man" },
  { id: "man-open", path: "/usr/share/man/man2/open.2.gz", from: "man" },
  { id: "man-regex", path: "/usr/share/man/man7/regex.7.gz", from: "man" },
  { id: "man-passwd", path: "/usr/share/man/man5/passwd.5.gz", from: "man" },
  { id: "man-ls", path: "/usr/share/man/man1/ls.1.gz", from: "man" },
];

/** The CI-sized text sources: a table, nested lists, RST and a manual page. */
export const SMALL_TEXT_SOURCES = ["node-path", "node-documentation", "pip-anatomy", "man-regex"];

/**
 * A table source: rows of cells read from a Debian file.
 *
 * @typedef {{ id: string, path: string, rows: () => string[][] }} TableSource
 */

/** @returns {string[][]} the rows of a simple comma-separated file (no quoted commas in these) */
const csvRows = (path) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => line.split(","));

/** @returns {string[][]} the rows of a tab-separated file, comment lines left out */
const tabRows = (path) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.length > 0 && !line.startsWith("#"))
    .map((line) => line.split("\t"));

/** @returns {string[][]} one iso-codes JSON list as rows, the given keys as columns */
const isoRows = (path, key, columns) => {
  const entries = JSON.parse(readFileSync(path, "utf8"))[key];
  return [columns, ...entries.map((entry) => columns.map((column) => entry[column] ?? ""))];
};

/** @type {TableSource[]} */
export const TABLE_SOURCES = [
  {
    id: "distro-debian",
    path: "/usr/share/distro-info/debian.csv",
    rows: () => csvRows("/usr/share/distro-info/debian.csv"),
  },
  {
    id: "distro-ubuntu",
    path: "/usr/share/distro-info/ubuntu.csv",
    rows: () => csvRows("/usr/share/distro-info/ubuntu.csv"),
  },
  {
    id: "iso-3166-countries",
    path: "/usr/share/iso-codes/json/iso_3166-1.json",
    rows: () =>
      isoRows("/usr/share/iso-codes/json/iso_3166-1.json", "3166-1", [
        "alpha_2",
        "alpha_3",
        "numeric",
        "name",
        "official_name",
      ]),
  },
  {
    id: "iso-4217-currencies",
    path: "/usr/share/iso-codes/json/iso_4217.json",
    rows: () =>
      isoRows("/usr/share/iso-codes/json/iso_4217.json", "4217", ["alpha_3", "numeric", "name"]),
  },
  {
    id: "tz-zone1970",
    path: "/usr/share/zoneinfo/zone1970.tab",
    rows: () => tabRows("/usr/share/zoneinfo/zone1970.tab"),
  },
];

/** The CI-sized table sources. */
export const SMALL_TABLE_SOURCES = ["distro-debian", "iso-4217-currencies"];

/** Text sources whose first table also becomes a spreadsheet (a table someone typed in Markdown). */
const TABLES_FROM_TEXT = ["node-tooling-tiers", "libffi-readme", "node-documentation"];

/** Every format of the corpus: folder name, file extension, what made it. */
export const FORMATS = [
  { format: "docx", extension: "docx", madeBy: "pandoc from the source" },
  { format: "odt", extension: "odt", madeBy: "pandoc from the source" },
  { format: "epub", extension: "epub", madeBy: "pandoc from the source" },
  { format: "pptx", extension: "pptx", madeBy: "pandoc from the source" },
  { format: "docx-libreoffice", extension: "docx", madeBy: "LibreOffice from pandoc's .odt" },
  { format: "pdf", extension: "pdf", madeBy: "LibreOffice from pandoc's .docx" },
  { format: "xlsx", extension: "xlsx", madeBy: "LibreOffice from CSV" },
  { format: "ods", extension: "ods", madeBy: "LibreOffice from CSV" },
];

/**
 * Reads a source file, gunzipping `.gz`.
 *
 * @param {string} path - the file
 * @returns {string} its text
 */
export function readSource(path) {
  const bytes = readFileSync(path);
  return (path.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8");
}

/**
 * Runs LibreOffice headless on a batch of files with a private profile (so a LibreOffice another
 * process runs — a developer's, a parallel test's — is never joined or disturbed).
 *
 * @param {{ profile: string, convertTo: string, outputDirectory: string, files: string[], inputFilter?: string }} options
 */
export async function libreOffice({ profile, convertTo, outputDirectory, files, inputFilter }) {
  if (files.length === 0) return;
  mkdirSync(outputDirectory, { recursive: true });
  const args = [
    `-env:UserInstallation=${pathToFileURL(profile).href}`,
    "--headless",
    "--norestore",
    ...(inputFilter === undefined ? [] : [`--infilter=${inputFilter}`]),
    "--convert-to",
    convertTo,
    "--outdir",
    outputDirectory,
    ...files,
  ];
  await run("soffice", args, { maxBuffer: 1 << 24, timeout: 600_000 });
}

/** Quotes one CSV cell when it needs it. */
const csvCell = (cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/** The plain text of a pandoc table cell (its inlines' strings). */
function cellText(blocks) {
  const parts = [];
  const walk = (node) => {
    if (Array.isArray(node)) for (const child of node) walk(child);
    else if (node !== null && typeof node === "object") {
      if (node.t === "Str") parts.push(node.c);
      else if (node.t === "Space" || node.t === "SoftBreak") parts.push(" ");
      else if (node.t === "Code") parts.push(node.c[1]);
      else walk(node.c);
    }
  };
  walk(blocks);
  return parts.join("").trim();
}

/** A pandoc AST with every Image inline removed. */
function withoutImages(ast) {
  const strip = (node) => {
    if (Array.isArray(node)) {
      return node
        .filter((child) => !(child !== null && typeof child === "object" && child.t === "Image"))
        .map(strip);
    }
    if (node !== null && typeof node === "object") {
      return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, strip(value)]));
    }
    return node;
  };
  return strip(ast);
}

/** The rows of the first table of a pandoc AST, or undefined. */
function firstTableRows(ast) {
  let found;
  const walk = (node) => {
    if (found !== undefined) return;
    if (Array.isArray(node)) for (const child of node) walk(child);
    else if (node !== null && typeof node === "object") {
      if (node.t === "Table") found = node.c;
      else walk(node.c);
    }
  };
  walk(ast.blocks);
  if (found === undefined) return undefined;
  const [, , , head, bodies] = found;
  const rows = [...head[1], ...bodies.flatMap((body) => [...body[2], ...body[3]])];
  return rows.map((row) => row[1].map((cell) => cellText(cell[4])));
}

/** The ground truth of a table: its non-empty cells and its words. */
function tableTruth(rows) {
  const cells = rows
    .flat()
    .map((cell) => wordsOf(cell).slice(0, 24).join(" "))
    .filter(Boolean);
  return {
    headings: [],
    listItems: [],
    cells,
    links: [],
    words: wordsOf(rows.map((row) => row.join(" ")).join(" ")),
  };
}

/**
 * Builds (or reuses) the corpus.
 *
 * @param {{ directory?: string, small?: boolean, rebuild?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<{ directory: string, documents: Array<{ id: string, source: string, kind: string, truth: import("./lib/structure.mjs").Structure, files: Record<string, string> }>, skipped: string[] }>}
 *   every document with the source's structure and its converted files by format (paths relative
 *   to `directory`); sources missing on this machine are listed in `skipped`
 */
export async function buildCorpus(options = {}) {
  const directory = options.directory ?? DEFAULT_CORPUS_DIRECTORY;
  const log = options.log ?? (() => {});
  if (options.rebuild) rmSync(directory, { recursive: true, force: true });
  for (const { format } of FORMATS) mkdirSync(join(directory, format), { recursive: true });
  mkdirSync(join(directory, "sources"), { recursive: true });
  const profile = join(directory, ".libreoffice-profile");
  const fresh = (path) => existsSync(path) && statSync(path).size > 0;
  const texts = options.small
    ? TEXT_SOURCES.filter((source) => SMALL_TEXT_SOURCES.includes(source.id))
    : TEXT_SOURCES;
  const tables = options.small
    ? TABLE_SOURCES.filter((source) => SMALL_TABLE_SOURCES.includes(source.id))
    : TABLE_SOURCES;
  const documents = [];
  const skipped = [];
  const tableRows = [];

  for (const source of texts) {
    if (!existsSync(source.path)) {
      skipped.push(`${source.id} (${source.path} is not on this machine)`);
      continue;
    }
    const extension = { gfm: "md", rst: "rst", man: "man" }[source.from];
    const sourceFile = join(directory, "sources", `${source.id}.${extension}`);
    writeFileSync(sourceFile, readSource(source.path));
    const { stdout } = await run(
      "pandoc",
      ["--sandbox", "-f", source.from, "-t", "json", "--", sourceFile],
      { maxBuffer: 1 << 28 },
    );
    // Images are left out before converting: their files are not here (and pandoc would try to
    // fetch remote ones); the truth does not count them either. The converters then read this
    // very AST, so the truth is exactly what they were given.
    const ast = withoutImages(JSON.parse(stdout));
    const astFile = join(directory, "sources", `${source.id}.json`);
    writeFileSync(astFile, JSON.stringify(ast));
    const truth = structureOfAst(ast);
    if (!options.small && TABLES_FROM_TEXT.includes(source.id)) {
      const rows = firstTableRows(ast);
      if (rows !== undefined) tableRows.push({ id: `${source.id}-table`, path: source.path, rows });
    }
    const files = {};
    for (const format of ["docx", "odt", "epub", "pptx"]) {
      const output = join(directory, format, `${source.id}.${format}`);
      if (!fresh(output)) {
        const title = format === "epub" ? ["--metadata", `title=${source.id}`] : [];
        await run("pandoc", ["-f", "json", ...title, "-o", output, "--", astFile], {
          maxBuffer: 1 << 24,
        });
        log(`pandoc ${basename(sourceFile)} → ${format}`);
      }
      files[format] = join(format, `${source.id}.${format}`);
    }
    files["docx-libreoffice"] = join("docx-libreoffice", `${source.id}.docx`);
    files.pdf = join("pdf", `${source.id}.pdf`);
    documents.push({ id: source.id, source: source.path, kind: source.from, truth, files });
  }

  // LibreOffice in two batches (one start each): odt → docx, pandoc's docx → pdf.
  const textDocuments = documents.filter((document) => document.kind !== "table");
  const odtToDocx = textDocuments.filter(
    (document) => !fresh(join(directory, document.files["docx-libreoffice"])),
  );
  await libreOffice({
    profile,
    convertTo: "docx:MS Word 2007 XML",
    outputDirectory: join(directory, "docx-libreoffice"),
    files: odtToDocx.map((document) => join(directory, document.files.odt)),
  });
  if (odtToDocx.length > 0) log(`LibreOffice odt → docx: ${odtToDocx.length} files`);
  const docxToPdf = textDocuments.filter((document) => !fresh(join(directory, document.files.pdf)));
  await libreOffice({
    profile,
    convertTo: "pdf",
    outputDirectory: join(directory, "pdf"),
    files: docxToPdf.map((document) => join(directory, document.files.docx)),
  });
  if (docxToPdf.length > 0) log(`LibreOffice docx → pdf: ${docxToPdf.length} files`);

  // Tables: CSV (UTF-8, comma, double quotes) → xlsx and ods with LibreOffice's CSV filter, which
  // types the cells as a user opening the CSV would get them (numbers, dates).
  for (const source of tables) {
    if (!existsSync(source.path)) {
      skipped.push(`${source.id} (${source.path} is not on this machine)`);
      continue;
    }
    tableRows.push({ id: source.id, path: source.path, rows: source.rows() });
  }
  const csvFiles = [];
  for (const table of tableRows) {
    const csv = join(directory, "sources", `${table.id}.csv`);
    writeFileSync(csv, `${table.rows.map((row) => row.map(csvCell).join(",")).join("\n")}\n`);
    csvFiles.push(csv);
    documents.push({
      id: table.id,
      source: table.path,
      kind: "table",
      truth: tableTruth(table.rows),
      files: { xlsx: join("xlsx", `${table.id}.xlsx`), ods: join("ods", `${table.id}.ods`) },
    });
  }
  for (const format of ["xlsx", "ods"]) {
    const missing = csvFiles.filter(
      (csv) => !fresh(join(directory, format, basename(csv).replace(/\.csv$/, `.${format}`))),
    );
    await libreOffice({
      profile,
      convertTo: format === "xlsx" ? "xlsx:Calc MS Excel 2007 XML" : "ods",
      outputDirectory: join(directory, format),
      files: missing,
      // comma, double quote, UTF-8 (76), from line 1
      inputFilter: "CSV:44,34,76,1",
    });
    if (missing.length > 0) log(`LibreOffice csv → ${format}: ${missing.length} files`);
  }

  for (const document of documents) {
    for (const [format, file] of Object.entries(document.files)) {
      if (!fresh(join(directory, file))) {
        skipped.push(`${document.id}.${format} (the conversion left no file)`);
        delete document.files[format];
      }
    }
  }
  writeFileSync(
    join(directory, options.small ? "manifest-small.json" : "manifest.json"),
    `${JSON.stringify({ documents, skipped }, null, 1)}\n`,
  );
  return { directory, documents, skipped };
}

/**
 * Files and bytes per format of a built corpus.
 *
 * @param {Awaited<ReturnType<typeof buildCorpus>>} corpus - what {@link buildCorpus} returned
 * @returns {Array<{ format: string, files: number, bytes: number, madeBy: string }>}
 */
export function corpusSizes(corpus) {
  return FORMATS.map(({ format, madeBy }) => {
    const files = corpus.documents
      .map((document) => document.files[format])
      .filter((file) => file !== undefined);
    const bytes = files.reduce((sum, file) => sum + statSync(join(corpus.directory, file)).size, 0);
    return { format, files: files.length, bytes, madeBy };
  });
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf("--out");
  const started = performance.now();
  const corpus = await buildCorpus({
    directory: outIndex >= 0 ? resolve(args[outIndex + 1]) : undefined,
    small: args.includes("--small"),
    rebuild: args.includes("--rebuild"),
    log: (line) => console.log(line),
  });
  const texts = corpus.documents.filter((document) => document.kind !== "table").length;
  console.log(
    `\ncorpus in ${corpus.directory} (${((performance.now() - started) / 1000).toFixed(1)} s): ${texts} text sources, ${corpus.documents.length - texts} tables`,
  );
  console.log("| format | files | size | made by |\n| --- | ---: | ---: | --- |");
  for (const row of corpusSizes(corpus)) {
    console.log(
      `| ${row.format} | ${row.files} | ${(row.bytes / 1024).toFixed(0)} KiB | ${row.madeBy} |`,
    );
  }
  for (const line of corpus.skipped) console.log(`skipped: ${line}`);
}
