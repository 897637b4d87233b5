// Benchmark: read_document on big real documents, beside the peers a user would pick instead.
//   a 200-page .docx   Node.js's API reference (Debian's nodejs docs, Markdown) → pandoc
//   a 100,000-row .xlsx ISO 639-3's 7,910 languages (Debian's iso-codes), repeated → LibreOffice
//   a 300-slide .pptx  Node.js's API reference → pandoc (one slide per section)
//   a 500-page PDF     Node.js's API reference → pandoc .docx → LibreOffice
// Built once into <repository>/.cache/office-bench/ (git-ignored); page and slide counts are
// measured on the files, not assumed. Needs pandoc and LibreOffice (`node scripts/setup-system.mjs test`).
//
// Rows (bench/lib/discipline.mjs: ours and one baseline interleaved call by call, rounds until
// the spread is under 10%, refused while another process uses over 20% of a core): read_document
// (from dist/) — the whole document, following next_offset with limit 5,000 and pages of up to
// 10 M characters, and the first page
// an agent reads by default; a middle page for the sheet — against `pandoc -t gfm` (a process per
// call, as a user runs it; .docx only: pandoc 2.17 reads no .xlsx/.pptx/.pdf), markitdown-ts
// 0.0.10 (.docx, .xlsx, .pdf) and the bare library call (mammoth's convertToHtml for .docx,
// exceljs's streaming WorkbookReader for .xlsx, fflate + saxes over every slide for .pptx —
// the libraries read_document builds on — and PDFium's FPDFText_GetText over every page for .pdf).
// Memory: each operation once more in a fresh process — peak RSS (the kernel's maxRSS) minus the
// RSS before the call, modules already loaded; pandoc's peak RSS from /usr/bin/time.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";

const run = promisify(execFile);
const packageDirectory = resolve(import.meta.dirname, "..");
const repository = resolve(packageDirectory, "../..");
const cache = join(repository, ".cache", "office-bench");
const profile = join(cache, ".libreoffice-profile");
const requireHere = createRequire(join(packageDirectory, "package.json"));
const requireBench = createRequire(join(repository, "bench", "package.json"));
const requireMarkitdown = createRequire(requireBench.resolve("markitdown-ts"));
// Words of Node's API reference per target, measured: pandoc's .docx laid out by LibreOffice
// makes 44,000 words 194 pages and 110,000 words 430 pages (code blocks and tables: short pages).
const DOCX_WORDS = 46_000;
const PDF_WORDS = 128_000;

/** Node's API reference pages, in name order (the same on every Debian machine with nodejs). */
function nodeApiPages() {
  const folder = "/usr/share/doc/nodejs/api";
  return readdirSync(folder)
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join(folder, name));
}

/** Markdown of Node's API pages, concatenated and cut at the first heading past `words` words. */
function apiMarkdown(words) {
  const lines = [];
  let count = 0;
  for (const page of nodeApiPages()) {
    for (const line of readFileSync(page, "utf8").split("\n")) {
      if (count >= words && /^#{1,3} /.test(line)) return lines.join("\n");
      lines.push(line);
      count += line.split(/\s+/).filter(Boolean).length;
    }
    lines.push("");
  }
  return lines.join("\n");
}

async function soffice(convertTo, file) {
  await run(
    "soffice",
    [
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      "--headless",
      "--norestore",
      ...(file.endsWith(".csv") ? ["--infilter=CSV:44,34,76,1"] : []),
      "--convert-to",
      convertTo,
      "--outdir",
      cache,
      file,
    ],
    { timeout: 900_000, maxBuffer: 1 << 24 },
  );
}

/** Builds the four documents when missing; returns their paths. */
async function buildDocuments() {
  mkdirSync(cache, { recursive: true });
  const paths = {
    docx: join(cache, "api-200-pages.docx"),
    xlsx: join(cache, "languages-100000-rows.xlsx"),
    pptx: join(cache, "api-300-slides.pptx"),
    pdf: join(cache, "api-500-pages.pdf"),
  };
  if (!existsSync(paths.docx)) {
    writeFileSync(join(cache, "api-200-pages.md"), apiMarkdown(DOCX_WORDS));
    execFileSync("pandoc", ["-f", "gfm", "-o", paths.docx, join(cache, "api-200-pages.md")]);
    // its page count, as LibreOffice lays it out (api-200-pages.pdf, counted below)
    await soffice("pdf", paths.docx);
  }
  if (!existsSync(paths.pdf)) {
    const markdown = join(cache, "api-500-pages.md");
    writeFileSync(markdown, apiMarkdown(PDF_WORDS));
    const docx = join(cache, "api-500-pages.docx");
    execFileSync("pandoc", ["-f", "gfm", "-o", docx, markdown]);
    await soffice("pdf", docx);
  }
  if (!existsSync(paths.pptx)) {
    // a slide per `##` section (--slide-level=2; a `#` page title is a section slide): pages are
    // added until 300 slides; sections counted from the Markdown, slides counted in the file
    const markdown = join(cache, "api-300-slides.md");
    const parts = [];
    let sections = 0;
    for (const page of nodeApiPages()) {
      const text = readFileSync(page, "utf8");
      parts.push(text);
      sections += (text.match(/^#{1,2} /gm) ?? []).length;
      if (sections >= 300) break;
    }
    writeFileSync(markdown, parts.join("\n\n"));
    execFileSync("pandoc", ["-f", "gfm", "--slide-level=2", "-o", paths.pptx, markdown]);
  }
  if (!existsSync(paths.xlsx)) {
    const languages = JSON.parse(readFileSync("/usr/share/iso-codes/json/iso_639-3.json", "utf8"))[
      "639-3"
    ];
    const columns = [
      "alpha_3",
      "alpha_2",
      "bibliographic",
      "name",
      "inverted_name",
      "scope",
      "type",
    ];
    const quote = (cell) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
    const lines = [columns.join(",")];
    for (let row = 0; lines.length <= 100_000; row += 1) {
      const language = languages[row % languages.length];
      lines.push(columns.map((column) => quote(String(language[column] ?? ""))).join(","));
    }
    const csv = join(cache, "languages-100000-rows.csv");
    writeFileSync(csv, `${lines.join("\n")}\n`);
    await soffice("xlsx:Calc MS Excel 2007 XML", csv);
  }
  return paths;
}

/** The operations measured, by name: each reads one file once. */
async function operations() {
  const office = await import(pathToFileURL(join(packageDirectory, "dist", "index.js")).href);
  // the first page: default options, what an agent gets; the whole document: pages as large as
  // the options allow (limit 5,000, 10 M characters), following next_offset
  // read_document keeps a converted document per tool instance (keyed by size and mtime): every
  // call here gets a new instance, so each reads the file cold (modules already loaded)
  const whole = async (path) => {
    const wholeTool = office.createReadDocumentTool({ root: cache, maxPageChars: 10_000_000 });
    let offset;
    let characters = 0;
    for (let call = 0; call < 10_000; call += 1) {
      const result = await wholeTool.run({ path, limit: 5_000, ...(offset ? { offset } : {}) });
      if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
      characters += result.data.markdown.length;
      if (result.data.next_offset === undefined) return characters;
      offset = result.data.next_offset;
    }
    return characters;
  };
  const page = async (path, input = {}) => {
    const result = await office.createReadDocumentTool({ root: cache }).run({ path, ...input });
    if (!result.success) throw new Error(`${result.error.code}: ${result.error.message}`);
    return result.data.markdown.length;
  };
  const { MarkItDown } = await import(pathToFileURL(requireBench.resolve("markitdown-ts")).href);
  const markitdown = new MarkItDown();
  const mammoth = requireMarkitdown("mammoth");
  const ExcelJS = requireHere("exceljs");
  const { unzipSync } = await import(pathToFileURL(requireHere.resolve("fflate")).href);
  const { SaxesParser } = await import(pathToFileURL(requireHere.resolve("saxes")).href);
  const { init: initPdfium } = await import(
    pathToFileURL(requireHere.resolve("@embedpdf/pdfium")).href
  );
  const pdfium = await initPdfium({
    wasmBinary: readFileSync(requireHere.resolve("@embedpdf/pdfium/pdfium.wasm")),
  });
  pdfium.PDFiumExt_Init();
  return {
    "ours: whole": (file) => whole(file.slice(cache.length + 1)),
    "ours: first page": (file) => page(file.slice(cache.length + 1)),
    "ours: middle page": (file) =>
      page(file.slice(cache.length + 1), { offset: 50_000, limit: 200 }),
    "pandoc -t gfm": async (file) =>
      (await run("pandoc", ["-f", "docx", "-t", "gfm", "--", file], { maxBuffer: 1 << 30 })).stdout
        .length,
    "markitdown-ts": async (file) => (await markitdown.convert(file)).markdown.length,
    "mammoth convertToHtml": async (file) =>
      (await mammoth.convertToHtml({ path: file })).value.length,
    "exceljs WorkbookReader": async (file) => {
      let cells = 0;
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: "cache" });
      for await (const sheet of reader) {
        for await (const row of sheet) cells += row.cellCount;
      }
      return cells;
    },
    "fflate + saxes": async (file) => {
      const entries = unzipSync(readFileSync(file), {
        filter: (entry) => /^ppt\/(slides|notesSlides)\/[^/]+\.xml$/.test(entry.name),
      });
      let characters = 0;
      for (const bytes of Object.values(entries)) {
        const parser = new SaxesParser();
        parser.on("text", (text) => {
          characters += text.length;
        });
        parser.write(new TextDecoder().decode(bytes)).close();
      }
      return characters;
    },
    "PDFium GetText": async (file) => {
      // Every page's plain text (FPDFText_GetText), no layout: the engine read_document runs.
      const bytes = readFileSync(file);
      const { malloc, free } = pdfium.pdfium.wasmExports;
      const data = malloc(bytes.length);
      pdfium.pdfium.HEAPU8.set(bytes, data);
      const document = pdfium.FPDF_LoadMemDocument(data, bytes.length, "");
      let characters = 0;
      for (let index = 0; index < pdfium.FPDF_GetPageCount(document); index += 1) {
        const page = pdfium.FPDF_LoadPage(document, index);
        const text = pdfium.FPDFText_LoadPage(page);
        const count = pdfium.FPDFText_CountChars(text);
        const buffer = malloc((count + 1) * 2);
        pdfium.FPDFText_GetText(text, 0, count, buffer);
        characters += pdfium.pdfium.UTF16ToString(buffer).length;
        free(buffer);
        pdfium.FPDFText_ClosePage(text);
        pdfium.FPDF_ClosePage(page);
      }
      pdfium.FPDF_CloseDocument(document);
      free(data);
      return characters;
    },
  };
}

/**
 * Peak RSS growth of one operation in a fresh process (this file with --memory), which is also
 * the probe that tells whether it completes at all (a peer that runs out of memory is reported,
 * not timed).
 *
 * @returns {{ ok: boolean, text: string }}
 */
function memoryOf(operation, file) {
  if (operation === "pandoc -t gfm") {
    const timed = spawnSync(
      "/usr/bin/time",
      ["-f", "%M", "pandoc", "-f", "docx", "-t", "gfm", "-o", "/dev/null", "--", file],
      { encoding: "utf8" },
    );
    const kilobytes = Number(timed.stderr.trim().split("\n").at(-1));
    return Number.isFinite(kilobytes) && timed.status === 0
      ? { ok: true, text: `${(kilobytes / 1024).toFixed(0)} MB peak (the pandoc process)` }
      : { ok: false, text: `failed: ${timed.stderr.trim().split("\n")[0]}` };
  }
  const child = spawnSync(process.execPath, [import.meta.filename, "--memory", operation, file], {
    encoding: "utf8",
    timeout: 600_000,
  });
  const megabytes = Number(child.stdout.trim().split("\n").at(-1));
  if (child.status === 0 && Number.isFinite(megabytes)) {
    return { ok: true, text: `+${megabytes.toFixed(0)} MB` };
  }
  const reason = /heap out of memory/.test(child.stderr)
    ? "ran out of memory (Node's default heap limit)"
    : child.signal !== null
      ? `killed by ${child.signal}`
      : (child.stderr
          .trim()
          .split("\n")
          .find((line) => /Error/.test(line)) ?? "failed");
  return { ok: false, text: `failed: ${reason}` };
}

if (process.argv[2] === "--memory") {
  const [, , , operation, file] = process.argv;
  const all = await operations();
  const before = process.memoryUsage.rss();
  await all[operation](file);
  const peak = process.resourceUsage().maxRSS * 1024;
  console.log(((peak - before) / 1e6).toFixed(1));
  process.exit(0);
}

console.log(`${benchHeader("read_document on big real documents")}\n`);
const started = performance.now();
const documents = await buildDocuments();
const all = await operations();
const tool = (
  await import(pathToFileURL(join(packageDirectory, "dist", "index.js")).href)
).createReadDocumentTool({ root: cache, maxFileBytes: 500_000_000 });
const facts = {};
const laidOut = join(cache, "api-200-pages.pdf");
const docxPages = existsSync(laidOut)
  ? await tool.run({ path: "api-200-pages.pdf", limit: 1 })
  : undefined;
for (const [format, file] of Object.entries(documents)) {
  const result = await tool.run({ path: file.slice(cache.length + 1), limit: 1 });
  facts[format] = result.success
    ? `${result.data.total.toLocaleString("en")} ${result.data.unit}${format === "docx" && docxPages?.success ? ` (${docxPages.data.total} pages in LibreOffice)` : ""}, ${(statSync(file).size / 1e6).toFixed(1)} MB`
    : `${result.error.code}: ${result.error.message}`;
}
console.log(
  `documents in ${cache} (${((performance.now() - started) / 1000).toFixed(0)} s to build or find):\n${Object.entries(
    documents,
  )
    .map(([format, file]) => `  ${format}: ${file.slice(cache.length + 1)} — ${facts[format]}`)
    .join("\n")}\n`,
);

const rows = [
  ["docx", "ours: whole", "pandoc -t gfm"],
  ["docx", "ours: whole", "markitdown-ts"],
  ["docx", "ours: whole", "mammoth convertToHtml"],
  ["docx", "ours: first page", "mammoth convertToHtml"],
  ["xlsx", "ours: first page", "exceljs WorkbookReader"],
  ["xlsx", "ours: middle page", "exceljs WorkbookReader"],
  ["xlsx", "ours: first page", "markitdown-ts"],
  ["pptx", "ours: whole", "fflate + saxes"],
  ["pptx", "ours: first page", "fflate + saxes"],
  ["pdf", "ours: whole", "markitdown-ts"],
  ["pdf", "ours: whole", "PDFium GetText"],
  ["pdf", "ours: first page", "PDFium GetText"],
];
const only = process.env.BENCH_DOCUMENTS_ONLY?.split(",");
console.log(
  `${"document".padEnd(6)} ${"ours".padEnd(18)} ${"baseline".padEnd(23)} ${"ours".padStart(9)} ${"baseline".padStart(9)}  ratio (ours ÷ baseline)`,
);
const memory = new Map();
for (const [format, operation, baseline] of rows) {
  if (only !== undefined && !only.includes(format)) continue;
  const file = documents[format];
  // memory first: a fresh process per operation, which also tells whether it completes
  for (const name of [operation, baseline]) {
    if (!memory.has(`${format}|${name}`)) memory.set(`${format}|${name}`, memoryOf(name, file));
  }
  const failed = [operation, baseline].find((name) => !memory.get(`${format}|${name}`).ok);
  if (failed !== undefined) {
    console.log(
      `${format.padEnd(6)} ${operation.padEnd(18)} ${baseline.padEnd(23)} ${"".padEnd(21)}  not timed: ${failed} ${memory.get(`${format}|${failed}`).text}`,
    );
    continue;
  }
  let result;
  try {
    result = await measureRatio({
      ours: () => all[operation](file),
      baseline: () => all[baseline](file),
      callsPerRound: 1,
      minRounds: 3,
      maxRounds: 5,
    });
  } catch (error) {
    const message = String(error?.message ?? error).split("\n")[0];
    console.log(
      `${format.padEnd(6)} ${operation.padEnd(18)} ${baseline.padEnd(23)} ${"".padEnd(21)}  failed: ${message.replaceAll(cache, "…")}`,
    );
    continue;
  }
  const times = result.refused
    ? "".padEnd(21)
    : `${(result.ours / 1000).toFixed(2).padStart(7)} s ${(result.baseline / 1000).toFixed(2).padStart(7)} s`;
  console.log(
    `${format.padEnd(6)} ${operation.padEnd(18)} ${baseline.padEnd(23)} ${times}  ${formatRatio(result)}`,
  );
}
console.log("\nmemory (a fresh process per operation: peak RSS minus RSS before the call):");
for (const [key, value] of memory) {
  const [format, name] = key.split("|");
  console.log(`  ${format.padEnd(6)} ${name.padEnd(24)} ${value.text}`);
}
