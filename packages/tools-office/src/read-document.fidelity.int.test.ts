// The README's fidelity table, CI-sized: scripts/fidelity.mjs --small builds four real sources
// (Node's path.md and documentation.md, pip's anatomy.rst, the regex(7) manual page) and two real
// tables (Debian's release dates, ISO 4217) into .docx/.odt/.epub/.pptx with pandoc and
// .docx/.pdf/.xlsx/.ods with LibreOffice, reads them back with read_document (from dist/) and
// with `pandoc -t gfm`, and scores both against the source's own structure (pandoc's AST of the
// Markdown/RST/man source). The floors pin what read_document measured there; pandoc's reader
// is the bar on the formats it reads.
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

interface Ratio {
  precision?: number;
  recall?: number;
}
interface ReaderResult {
  unsupported?: string;
  failed: string[];
  headings: Ratio;
  listItems: Ratio;
  cells: Ratio;
  links: Ratio;
  text: number;
  millisecondsPerDocument: number;
}
type Results = Record<string, Record<string, ReaderResult>>;

const OURS = "ours (read_document)";
const PANDOC = "pandoc -t gfm";
const script = fileURLToPath(new URL("../scripts/fidelity.mjs", import.meta.url));

/** Why the corpus cannot be built here (pandoc or LibreOffice missing), or undefined. */
function missingConverter(): string | undefined {
  for (const [program, name] of [
    ["pandoc", "pandoc"],
    ["soffice", "LibreOffice (libreoffice-writer-nogui, libreoffice-calc-nogui)"],
  ] as const) {
    if (spawnSync(program, ["--version"], { encoding: "utf8" }).status !== 0) {
      return `${name} is not installed: run \`node scripts/setup-system.mjs test\` (as root) to build the fidelity corpus`;
    }
  }
  return undefined;
}

const missing = missingConverter();
if (missing !== undefined) console.warn(`read_document fidelity skipped: ${missing}`);

/** A ratio that must be at least `floor` (a missing ratio — nothing found — fails). */
function atLeast(value: number | undefined, floor: number, label: string): void {
  expect(value ?? 0, label).toBeGreaterThanOrEqual(floor);
}

describe.skipIf(missing !== undefined)(
  "read_document fidelity on real documents (CI-sized corpus)",
  { timeout: 600_000 },
  () => {
    let results: Results = {};

    it("builds the corpus and measures read_document beside pandoc's reader", () => {
      const output = execFileSync(
        process.execPath,
        [script, "--small", "--json", "--readers", "ours,pandoc"],
        { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 540_000 },
      );
      results = JSON.parse(output) as Results;
      for (const format of [
        "docx",
        "docx-libreoffice",
        "odt",
        "epub",
        "pptx",
        "pdf",
        "xlsx",
        "ods",
      ]) {
        const ours = results[format]?.[OURS];
        expect(ours?.unsupported, `${format}: ${ours?.unsupported}`).toBeUndefined();
        expect(ours?.failed, format).toEqual([]);
      }
    });

    it(".docx (pandoc's): headings, lists with depth, cells, links and text as the source has them", () => {
      const ours = results.docx?.[OURS];
      if (ours === undefined) throw new Error("no .docx figures");
      atLeast(ours.headings.recall, 0.95, "headings recall");
      atLeast(ours.headings.precision, 0.9, "headings precision");
      atLeast(ours.listItems.recall, 0.99, "list items recall");
      atLeast(ours.listItems.precision, 0.99, "list items precision");
      atLeast(ours.cells.recall, 0.95, "cells recall");
      atLeast(ours.cells.precision, 0.95, "cells precision");
      atLeast(ours.links.recall, 0.99, "links recall");
      atLeast(ours.links.precision, 0.98, "links precision");
      atLeast(ours.text, 0.98, "text F1");
    });

    it(".odt (pandoc's): lists with depth and links as the source has them", () => {
      const ours = results.odt?.[OURS];
      if (ours === undefined) throw new Error("no .odt figures");
      atLeast(ours.listItems.recall, 0.99, "list items recall");
      atLeast(ours.listItems.precision, 0.99, "list items precision");
      atLeast(ours.links.recall, 0.99, "links recall");
      atLeast(ours.links.precision, 0.98, "links precision");
    });

    it(".docx written by LibreOffice: structure kept, links at least as many as pandoc's reader finds", () => {
      const ours = results["docx-libreoffice"]?.[OURS];
      const pandoc = results["docx-libreoffice"]?.[PANDOC];
      if (ours === undefined || pandoc === undefined)
        throw new Error("no docx-libreoffice figures");
      atLeast(ours.headings.recall, 0.95, "headings recall");
      atLeast(ours.listItems.recall, 0.99, "list items recall");
      atLeast(ours.listItems.precision, 0.99, "list items precision");
      atLeast(ours.cells.recall, 0.95, "cells recall");
      atLeast(ours.links.recall, pandoc.links.recall ?? 0, "links recall vs pandoc");
      atLeast(ours.text, 0.98, "text F1");
    });

    it("on the formats pandoc reads, read_document's recall is within 2 points of pandoc's, or above", () => {
      for (const format of ["docx", "docx-libreoffice", "odt", "epub"]) {
        const ours = results[format]?.[OURS];
        const pandoc = results[format]?.[PANDOC];
        if (ours === undefined || pandoc === undefined || ours.unsupported !== undefined) continue;
        for (const kind of ["headings", "listItems", "cells", "links"] as const) {
          atLeast(ours[kind].recall, (pandoc[kind].recall ?? 0) - 0.02, `${format} ${kind} recall`);
        }
        atLeast(ours.text, pandoc.text - 0.02, `${format} text F1`);
      }
    });

    it(".pptx: headings, bullets with depth, tables, links and text; .pdf: the text; .xlsx/.ods: every cell", () => {
      const pptx = results.pptx?.[OURS];
      const pdf = results.pdf?.[OURS];
      const xlsx = results.xlsx?.[OURS];
      const ods = results.ods?.[OURS];
      if (pptx === undefined || pdf === undefined || xlsx === undefined || ods === undefined) {
        throw new Error("no pptx/pdf/xlsx/ods figures");
      }
      atLeast(pptx.headings.recall, 0.95, "pptx headings recall");
      atLeast(pptx.headings.precision, 0.95, "pptx headings precision");
      atLeast(pptx.listItems.recall, 0.95, "pptx list items recall");
      atLeast(pptx.listItems.precision, 0.95, "pptx list items precision");
      atLeast(pptx.links.precision, 0.9, "pptx links precision");
      atLeast(pptx.cells.recall, 0.85, "pptx cells recall");
      atLeast(pptx.links.recall, 0.85, "pptx links recall");
      atLeast(pptx.text, 0.98, "pptx text F1");
      atLeast(pdf.text, 0.95, "pdf text F1");
      atLeast(xlsx.cells.recall, 0.95, "xlsx cells recall");
      atLeast(xlsx.text, 0.85, "xlsx text F1");
      atLeast(ods.cells.recall, 0.95, "ods cells recall");
      atLeast(ods.text, 0.85, "ods text F1");
    });
  },
);
