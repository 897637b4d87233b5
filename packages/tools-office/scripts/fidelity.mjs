#!/usr/bin/env node
// Fidelity of document readers on the corpus (scripts/build-corpus.mjs): real Markdown, RST and
// manual pages from Debian converted by pandoc and LibreOffice, read back by
//   ours           read_document from packages/tools-office/dist (when it is built there)
//   pandoc         `pandoc -f <docx|odt|epub> -t gfm --wrap=none` (Debian's pandoc 2.17)
//   markitdown-ts  0.0.10 (`new MarkItDown().convert(file)`), the bench package's devDependency
//   officeparser   7.8 (`OfficeConverter.convert(file, "md")`), only when asked for (--readers
//                  …,officeparser) and installed in bench/ by hand (`pnpm --filter @agentool/bench
//                  add -D officeparser@7.8.0`; not a devDependency: it brings ~130 MB — an OCR
//                  engine, a second pdf.js, a native canvas); 8.x needs Node 22.13
// and scored against the SOURCE's structure. Every reader's Markdown is parsed by the same
// parser (pandoc -f gfm -t json; an HTML table a writer fell back to is parsed by pandoc's HTML
// reader), so no reader is judged by its own parser. Per format and reader:
//   headings P/R     "level|text" — a heading found at the wrong level does not count
//   list items P/R   "depth|text" — an item at the wrong nesting depth does not count
//   table cells P/R  each non-empty cell's text
//   links P/R        each link target
//   text F1          bag-of-words F1 of the whole text (lib/structure.mjs, tokenF1)
//   ms/doc           median wall time per document (pandoc: a process per document, as a user runs it);
//                    the readers take turns document by document, so a changing load weighs on all alike
// P/R are micro-averaged over the format's documents (found and shared items summed); "–" where
// the source has none of the kind. A reader that fails on a document scores it as empty.
//
//   node scripts/fidelity.mjs [--small] [--json] [--readers ours,pandoc,markitdown-ts,officeparser] [--formats docx,pdf]
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { buildCorpus, FORMATS } from "./build-corpus.mjs";
import { scoreStructure, structureOfAst } from "./lib/structure.mjs";

const run = promisify(execFile);
const packageDirectory = resolve(import.meta.dirname, "..");
const repository = resolve(packageDirectory, "../..");

/** Pandoc's input format per corpus format (those its reader handles). */
const PANDOC_FORMATS = { docx: "docx", "docx-libreoffice": "docx", odt: "odt", epub: "epub" };

/**
 * Parses a reader's Markdown into a structure with pandoc's gfm reader; a run of raw HTML that
 * holds a table (pandoc's gfm writer falls back to HTML for tables it cannot draw with pipes) is
 * parsed by pandoc's HTML reader in its place.
 *
 * @param {string} markdown - a reader's output
 * @returns {Promise<import("./lib/structure.mjs").Structure>}
 */
export async function structureOfMarkdown(markdown) {
  const ast = await pandocJson(markdown, "gfm");
  const blocks = [];
  let html = [];
  const flush = async () => {
    if (html.length === 0) return;
    const text = html.join("\n");
    html = [];
    if (/<table[\s>]/i.test(text)) blocks.push(...(await pandocJson(text, "html")).blocks);
  };
  for (const block of ast.blocks) {
    if (block.t === "RawBlock" && block.c[0] === "html") html.push(block.c[1]);
    else {
      await flush();
      blocks.push(block);
    }
  }
  await flush();
  return structureOfAst({ blocks });
}

/** pandoc -f <from> -t json on a text. */
async function pandocJson(text, from) {
  const child = run("pandoc", ["-f", from, "-t", "json"], { maxBuffer: 1 << 28 });
  child.child.stdin.end(text);
  return JSON.parse((await child).stdout);
}

/**
 * A reader under test.
 *
 * @typedef {object} Reader
 * @property {string} name - its row label
 * @property {(format: string) => boolean} handles - whether it claims the format at all
 * @property {(file: string, relative: string) => Promise<string>} read - the file's Markdown
 */

/** @returns {Reader} pandoc's own reader, a process per document */
function pandocReader() {
  return {
    name: "pandoc -t gfm",
    handles: (format) => format in PANDOC_FORMATS,
    read: async (file, _relative, format) => {
      const { stdout } = await run(
        "pandoc",
        ["-f", PANDOC_FORMATS[format], "-t", "gfm", "--wrap=none", "--", file],
        { maxBuffer: 1 << 28 },
      );
      return stdout;
    },
  };
}

/** @returns {Promise<Reader>} markitdown-ts, resolved from the bench package */
async function markitdownReader() {
  const require = createRequire(join(repository, "bench", "package.json"));
  const { MarkItDown } = await import(pathToFileURL(require.resolve("markitdown-ts")).href);
  const converter = new MarkItDown();
  return {
    name: "markitdown-ts",
    handles: () => true,
    read: async (file) => {
      const result = await converter.convert(file);
      if (result === null || result === undefined) throw new Error("no converter for this file");
      return result.markdown ?? result.text_content ?? "";
    },
  };
}

/**
 * officeparser's Markdown (its documented one-step `OfficeConverter.convert(file, "md")`, default
 * options), resolved from the bench package where it was installed by hand.
 *
 * @returns {Promise<Reader | undefined>} undefined when the bench package does not have it
 */
async function officeparserReader() {
  const require = createRequire(join(repository, "bench", "package.json"));
  let entry;
  try {
    entry = require.resolve("officeparser");
  } catch {
    return undefined;
  }
  const { OfficeConverter } = await import(pathToFileURL(entry).href);
  const manifest = join(dirname(entry), "..", "package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8"));
  return {
    name: `officeparser ${version}`,
    handles: () => true,
    read: async (file) => String((await OfficeConverter.convert(file, "md")).value ?? ""),
  };
}

/**
 * Our read_document from the built package, every page read (next_offset followed).
 *
 * @param {string} root - the corpus folder (the tool's workspace)
 * @returns {Promise<Reader | undefined>} undefined while dist has no read_document
 */
export async function oursReader(root) {
  const entry = join(packageDirectory, "dist", "index.js");
  if (!existsSync(entry)) return undefined;
  const office = await import(pathToFileURL(entry).href);
  if (typeof office.createReadDocumentTool !== "function") return undefined;
  // pages as large as the options allow: a document is read in as few calls as possible
  const tool = office.createReadDocumentTool({ root, maxPageChars: 10_000_000 });
  return {
    name: "ours (read_document)",
    handles: () => true,
    read: async (_file, relative) => readWhole(tool, relative),
  };
}

/**
 * Reads a whole document with read_document, following next_offset (at most 500 calls).
 *
 * @param {{ run: (input: object) => Promise<any> }} tool - read_document
 * @param {string} path - the document, relative to the tool's root
 * @returns {Promise<string>} the Markdown of every page, joined
 */
export async function readWhole(tool, path) {
  const parts = [];
  let offset;
  for (let call = 0; call < 500; call += 1) {
    const result = await tool.run(
      offset === undefined ? { path, limit: 5_000 } : { path, offset, limit: 5_000 },
    );
    if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
    const data = result.data;
    parts.push(data.markdown ?? data.content ?? data.text ?? "");
    if (data.next_offset === undefined || data.next_offset === null) break;
    offset = data.next_offset;
  }
  return parts.join("\n\n");
}

/** Sums the P/R counts of many documents' scores (micro-average). */
function addScores(total, score) {
  for (const kind of ["headings", "listItems", "cells", "links"]) {
    const into = total[kind];
    into.shared += score[kind].shared;
    into.found += score[kind].found;
    into.expected += score[kind].expected;
  }
  total.text.push(score.text);
}

const emptyTotal = () => ({
  headings: { shared: 0, found: 0, expected: 0 },
  listItems: { shared: 0, found: 0, expected: 0 },
  cells: { shared: 0, found: 0, expected: 0 },
  links: { shared: 0, found: 0, expected: 0 },
  text: [],
  times: [],
  failed: [],
});

const median = (values) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Precision and recall of summed counts; undefined where nothing was expected/found.
 *
 * @param {{ shared: number, found: number, expected: number }} counts
 */
function ratios(counts) {
  return {
    precision: counts.found === 0 ? undefined : counts.shared / counts.found,
    recall: counts.expected === 0 ? undefined : counts.shared / counts.expected,
  };
}

/**
 * Measures readers on the corpus.
 *
 * @param {{ small?: boolean, readers?: string[], formats?: string[], log?: (line: string) => void }} [options]
 * @returns {Promise<{ corpus: object, results: Record<string, Record<string, object>> }>}
 *   per format, per reader: { documents, failed, headings: {precision, recall}, listItems, cells,
 *   links, text (mean F1), millisecondsPerDocument (median) } — or { unsupported: reason }
 */
export async function measureFidelity(options = {}) {
  const log = options.log ?? (() => {});
  const corpus = await buildCorpus({ small: options.small, log });
  const wanted = options.readers ?? ["ours", "pandoc", "markitdown-ts"];
  const readers = [];
  if (wanted.includes("ours")) {
    const ours = await oursReader(corpus.directory);
    if (ours === undefined) log("ours: packages/tools-office/dist has no read_document yet");
    else readers.push(ours);
  }
  if (wanted.includes("pandoc")) readers.push(pandocReader());
  if (wanted.includes("markitdown-ts")) readers.push(await markitdownReader());
  if (wanted.includes("officeparser")) {
    const officeparser = await officeparserReader();
    if (officeparser === undefined) {
      log("officeparser: not in bench/ (pnpm --filter @agentool/bench add -D officeparser@7.8.0)");
    } else readers.push(officeparser);
  }
  const formats = FORMATS.map((entry) => entry.format).filter(
    (format) => options.formats === undefined || options.formats.includes(format),
  );
  const results = {};
  for (const format of formats) {
    const documents = corpus.documents.filter((document) => document.files[format] !== undefined);
    if (documents.length === 0) continue;
    results[format] = {};
    const reading = readers.filter((reader) => reader.handles(format));
    const totals = new Map(reading.map((reader) => [reader, emptyTotal()]));
    // Interleaved document by document (the readers' order alternating), so a machine's load
    // changing over the run weighs on every reader alike.
    for (const [index, document] of documents.entries()) {
      const relative = document.files[format];
      const file = join(corpus.directory, relative);
      const order = index % 2 === 0 ? reading : [...reading].reverse();
      for (const reader of order) {
        const total = totals.get(reader);
        const started = performance.now();
        let markdown = "";
        try {
          markdown = await reader.read(file, relative, format);
          total.times.push(performance.now() - started);
        } catch (error) {
          const message = String(error?.message ?? error)
            .split("\n")[0]
            .replaceAll(`${corpus.directory}/`, "");
          total.failed.push(`${document.id}: ${message.slice(0, 160)}`);
        }
        const found = await structureOfMarkdown(markdown);
        addScores(total, scoreStructure(found, document.truth));
      }
    }
    for (const reader of readers) {
      const total = totals.get(reader);
      if (total === undefined) {
        results[format][reader.name] = { unsupported: `does not read .${format}` };
        continue;
      }
      if (total.failed.length === documents.length) {
        results[format][reader.name] = { unsupported: `fails on every file: ${total.failed[0]}` };
        continue;
      }
      results[format][reader.name] = {
        documents: documents.length,
        failed: total.failed,
        headings: ratios(total.headings),
        listItems: ratios(total.listItems),
        cells: ratios(total.cells),
        links: ratios(total.links),
        expected: {
          headings: total.headings.expected,
          listItems: total.listItems.expected,
          cells: total.cells.expected,
          links: total.links.expected,
        },
        text: total.text.reduce((sum, value) => sum + value, 0) / total.text.length,
        millisecondsPerDocument: median(total.times),
      };
      log(`${format} ${reader.name}: done`);
    }
  }
  return { corpus, results };
}

const percent = (value) => (value === undefined ? "–" : `${Math.round(value * 100)}`);
const pair = (value) => `${percent(value.precision)} / ${percent(value.recall)}`;

/**
 * The Markdown tables of a measurement, one per format.
 *
 * @param {Awaited<ReturnType<typeof measureFidelity>>} measurement
 * @returns {string}
 */
export function formatFidelity({ corpus, results }) {
  const lines = [];
  for (const [format, byReader] of Object.entries(results)) {
    const made = FORMATS.find((entry) => entry.format === format)?.madeBy ?? "";
    const documents = corpus.documents.filter((document) => document.files[format] !== undefined);
    const first = Object.values(byReader).find((result) => result.expected !== undefined);
    const expected = first?.expected;
    lines.push(
      `\n**${format}** — ${documents.length} files, ${made}${expected ? `; the sources hold ${expected.headings} headings, ${expected.listItems} list items, ${expected.cells} table cells, ${expected.links} links` : ""}`,
      "",
      "| reader | headings P / R | list items P / R | table cells P / R | links P / R | text F1 | ms / doc |",
      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    );
    for (const [reader, result] of Object.entries(byReader)) {
      if (result.unsupported !== undefined) {
        lines.push(`| ${reader} | n/a: ${result.unsupported} | | | | | |`);
        continue;
      }
      const failed = result.failed.length > 0 ? ` (failed on ${result.failed.length})` : "";
      lines.push(
        `| ${reader}${failed} | ${pair(result.headings)} | ${pair(result.listItems)} | ${pair(result.cells)} | ${pair(result.links)} | ${percent(result.text)} | ${result.millisecondsPerDocument.toFixed(0)} |`,
      );
    }
    for (const [reader, result] of Object.entries(byReader)) {
      for (const failure of result.failed ?? []) lines.push(`- ${reader} failed on ${failure}`);
    }
  }
  return lines.join("\n");
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const args = process.argv.slice(2);
  const listAfter = (flag) => {
    const index = args.indexOf(flag);
    return index >= 0 ? args[index + 1]?.split(",") : undefined;
  };
  const json = args.includes("--json");
  const measurement = await measureFidelity({
    small: args.includes("--small"),
    readers: listAfter("--readers"),
    formats: listAfter("--formats"),
    log: json ? undefined : (line) => console.error(line),
  });
  if (json) {
    console.log(JSON.stringify(measurement.results));
  } else {
    const commit = await run("git", ["rev-parse", "--short", "HEAD"], { cwd: repository }).then(
      (result) => result.stdout.trim(),
      () => "unknown",
    );
    console.log(
      `fidelity of document readers, ${new Date().toISOString().slice(0, 10)}, commit ${commit}, Node ${process.version}; P / R in %, micro-averaged over the files; text F1 = bag-of-words F1 in %, mean over the files`,
    );
    console.log(formatFidelity(measurement));
  }
}
