import {
  defineTool,
  joinSentences,
  type MountedTools,
  ok,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import { z } from "zod";
import { openZip, type ZipArchive } from "./internal/container/zip.js";
import { rewriteZip } from "./internal/container/zip-write.js";
import { prepareOfficeTool } from "./internal/office-tool.js";
import { extensionOf } from "./internal/read-support.js";
import { parseCellReference } from "./internal/sheet/cell-reference.js";
import { cellTextField } from "./internal/sheet/cell-text-field.js";
import { DateStyles } from "./internal/sheet/date-styles.js";
import {
  type CellKind,
  type CellWrite,
  classifyValue,
  dropCachedResults,
  type PreviousCell,
  writeCells,
} from "./internal/sheet/sheet-cells.js";
import {
  dropCalcChainReference,
  forceFullCalculation,
  listSheets,
  pickSheet,
  sharedStrings,
  usesDate1904,
} from "./internal/sheet/workbook-parts.js";
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  expectedShaField,
  loadDocument,
  type OfficeWriteToolOptions,
  officeWriteOptionsSchema,
  replaceDocument,
} from "./internal/write-support.js";

/** The default name of the spreadsheet edit tool. */
export const EDIT_SHEET_TOOL_NAME = "edit_sheet";

/** Most cells one call writes. */
export const MAX_CELLS_PER_CALL = 1_000;

/** Options of {@link createEditSheetTool}. */
export type EditSheetToolOptions = OfficeWriteToolOptions;

/** One cell `edit_sheet` wrote. */
export interface WrittenCell {
  /** Its reference (`B2`). */
  cell: string;
  /** How the value was stored: `number`, `text`, `boolean`, `date`, `formula` or `empty` (cleared). */
  kind: CellKind;
  /** What it held before (a formula with its `=`), or `null` when it was empty or absent. */
  previous: string | null;
}

/** What `edit_sheet` returns. */
export interface EditSheetToolData {
  /** The workbook, relative to the root. */
  path: string;
  /** The sheet written. */
  sheet: string;
  /** Each cell written, in the order given. */
  cells: WrittenCell[];
  /** Rows that did not exist before. */
  rows_added: number;
  /** Always true: the workbook is marked to recalculate every formula when next opened. */
  recalculate_on_open: boolean;
  /** Formula cells of the sheet whose cached (now possibly stale) results were dropped, so readers compute them afresh. */
  cleared_results: number;
  /** The file's sha-256 before. */
  previous_sha: string;
  /** The file's sha-256 now: what `expected_sha` takes next. */
  sha: string;
}

const cellValue = cellTextField(
  'Text; a number ("42", "3.5"); TRUE or FALSE; "=SUM(A1:A3)" (a formula); "2024-05-01" or "2024-05-01T09:30" (a date); "\'=x" (text as is); "" clears the cell.',
);

/** The spreadsheet edit tool's input schema. */
export const editSheetInputSchema = z.object({
  path: z.string().min(1).describe("The .xlsx file, relative to the workspace root."),
  sheet: z
    .string()
    .min(1)
    .optional()
    .describe("The sheet's name as on its tab. Default: the first sheet."),
  cells: z
    .array(
      z.object({
        cell: z.string().min(2).max(12).describe("A1-style reference, e.g. B2."),
        value: cellValue,
      }),
    )
    .min(1)
    .max(MAX_CELLS_PER_CALL)
    .describe("The cells to write."),
  expected_sha: expectedShaField,
});

/** The spreadsheet edit tool's input. */
export type EditSheetInput = z.infer<typeof editSheetInputSchema>;

/** The spreadsheet edit tool's type. */
export type EditSheetTool = Tool<typeof editSheetInputSchema, EditSheetToolData>;

/** Field aliases `edit_sheet` accepts silently (alias → field). */
export const EDIT_SHEET_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  sheet_name: "sheet",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Write cells of an Excel workbook (.xlsx) in place, keeping every style, sheet and chart: each cell keeps its formatting; numbers, booleans and ISO dates are stored typed, text starting with = is a formula (recalculated when the file is opened), null clears a cell.",
    "Missing rows and cells are added in order; everything else in the file stays byte-identical.",
    mounted.when("read_document", "Read the sheet with read_document first to see its cells."),
    mounted.when("write_document", "To make a new workbook use write_document."),
  ]);
}

/**
 * Renders the result for a model: the cells written with what they held before.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatEditSheet(result.data); // "Wrote 2 cells of Sheet1 in book.xlsx … B2 = 42 (number; was 41)"
 */
export function formatEditSheet(data: EditSheetToolData): string {
  const lines = data.cells.map(
    (cell) =>
      `${cell.cell}: ${cell.kind}${cell.previous === null ? " (was empty)" : ` (was ${JSON.stringify(cell.previous)})`}`,
  );
  return [
    `Wrote ${data.cells.length} cell${data.cells.length === 1 ? "" : "s"} of ${data.sheet} in ${data.path}${data.rows_added > 0 ? ` (${data.rows_added} new row${data.rows_added === 1 ? "" : "s"})` : ""}; formulas recalculate when the file is opened. sha ${data.sha}`,
    ...lines,
  ].join("\n");
}

function parseWrites(cells: EditSheetInput["cells"]) {
  const seen = new Set<string>();
  return cells.map(({ cell, value }) => {
    const reference = parseCellReference(cell);
    if (reference === undefined) {
      throw new ToolFailureError(
        "INVALID_INPUT",
        `${JSON.stringify(cell)} is not a cell reference inside Excel's grid (A1 to XFD1048576).`,
        {
          hint: "Name one cell per entry, like B2.",
        },
      );
    }
    if (seen.has(reference.name)) {
      throw new ToolFailureError("INVALID_INPUT", `${reference.name} is named twice.`, {
        hint: "Give each cell once.",
      });
    }
    if (typeof value === "number" && !Number.isFinite(value)) {
      throw new ToolFailureError(
        "INVALID_INPUT",
        `${reference.name}: ${value} is not a finite number.`,
      );
    }
    seen.add(reference.name);
    return { reference, value };
  });
}

async function describePrevious(
  archive: ZipArchive,
  previous: PreviousCell | undefined,
  strings: { list?: string[] },
): Promise<string | null> {
  if (previous === undefined) return null;
  if (previous.formula !== undefined) return `=${previous.formula}`;
  if (previous.inline !== undefined) return previous.inline;
  if (previous.value === undefined) return null;
  if (previous.type === "s") {
    if (strings.list === undefined) {
      strings.list = archive.has("xl/sharedStrings.xml")
        ? sharedStrings(await archive.readText("xl/sharedStrings.xml"))
        : [];
    }
    return strings.list[Number(previous.value)] ?? null;
  }
  if (previous.type === "b") return previous.value === "1" ? "TRUE" : "FALSE";
  return previous.value;
}

/**
 * Creates the `edit_sheet` tool: writes cells of one sheet of an .xlsx workbook in place. The
 * sheet's XML is edited where the cells are (each keeps its style index), dates get a date
 * format (a copy of the cell's style), formulas are written without a cached value and the
 * workbook is marked `fullCalcOnLoad` (the calculation chain dropped when formulas change);
 * every other zip entry is copied byte for byte. Written through the tools-fs workspace:
 * confined, secrets and `.git` refused, `expected_sha` checked, atomic.
 *
 * @param options - `root` (or a tools-fs `workspace`) and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const editSheet = createEditSheetTool({ root: "/work/books" });
 * await editSheet.run({ path: "q3.xlsx", sheet: "Sales", cells: [{ cell: "B7", value: "=SUM(B2:B6)" }] });
 */
export function createEditSheetTool(options: EditSheetToolOptions): EditSheetTool {
  const { workspace, maxFileBytes, definition } = prepareOfficeTool(
    "createEditSheetTool",
    officeWriteOptionsSchema,
    options,
    {
      kind: "write",
      name: EDIT_SHEET_TOOL_NAME,
      title: "Write spreadsheet cells",
      describe: defaultDescription,
      maxFileBytes: DEFAULT_MAX_DOCUMENT_BYTES,
    },
  );
  return defineTool({
    ...definition,
    input: editSheetInputSchema,
    aliases: EDIT_SHEET_ALIASES,
    execute: async (request) => {
      const extension = extensionOf(request.path);
      if (extension !== "xlsx" && extension !== "xlsm") {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${request.path}: edit_sheet writes .xlsx workbooks${extension === "xls" ? " (not the old binary .xls: convert it to .xlsx first)" : ""}.`,
          {
            hint:
              extension === "docx" || extension === "pptx" || extension === "odt"
                ? "Change document text with edit_document."
                : "Check the path.",
          },
        );
      }
      const writes = parseWrites(request.cells);
      const loaded = await loadDocument(workspace, request.path, {
        maxFileBytes,
        expectedSha: request.expected_sha,
        missingHint: "Check the path; to create a workbook use write_document.",
      });
      const display = loaded.resolved.display;
      const archive = openZip(loaded.bytes, { label: display });
      for (const needed of ["xl/workbook.xml", "xl/_rels/workbook.xml.rels"]) {
        if (!archive.has(needed))
          throw new ToolFailureError(
            "UNSUPPORTED",
            `${display} is not an Excel workbook (no ${needed}).`,
          );
      }
      const workbook = await archive.readText("xl/workbook.xml");
      const relations = await archive.readText("xl/_rels/workbook.xml.rels");
      const sheet = pickSheet(listSheets(workbook, relations), request.sheet);
      if (!archive.has(sheet.part) || !sheet.part.includes("worksheets/")) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${sheet.name} is not a worksheet (a chart sheet or a missing part); it has no cells.`,
        );
      }
      const date1904 = usesDate1904(workbook);
      const classified: CellWrite[] = writes.map(({ reference, value }) => ({
        reference,
        value: classifyValue(value, date1904),
      }));
      const needsStyles =
        classified.some((write) => write.value.kind === "date") && archive.has("xl/styles.xml");
      const styles = new DateStyles(
        needsStyles ? await archive.readText("xl/styles.xml") : undefined,
      );
      const edit = writeCells(await archive.readText(sheet.part), classified, styles);
      const encoder = new TextEncoder();
      const recalculated = dropCachedResults(edit.xml);
      const changes = new Map<string, Uint8Array | null>([
        [sheet.part, encoder.encode(recalculated.xml)],
      ]);
      if (styles.changed) changes.set("xl/styles.xml", encoder.encode(styles.text()));
      changes.set("xl/workbook.xml", encoder.encode(forceFullCalculation(workbook)));
      if (edit.formulasTouched && archive.has("xl/calcChain.xml")) {
        changes.set("xl/calcChain.xml", null);
        changes.set(
          "xl/_rels/workbook.xml.rels",
          encoder.encode(dropCalcChainReference(relations)),
        );
        if (archive.has("[Content_Types].xml")) {
          changes.set(
            "[Content_Types].xml",
            encoder.encode(dropCalcChainReference(await archive.readText("[Content_Types].xml"))),
          );
        }
      }
      const sha = await replaceDocument(workspace, loaded, rewriteZip(loaded.bytes, changes));
      const strings: { list?: string[] } = {};
      const cells: WrittenCell[] = [];
      for (const write of classified) {
        const previous = await describePrevious(
          archive,
          edit.previous.get(write.reference.name),
          strings,
        );
        cells.push({ cell: write.reference.name, kind: write.value.kind, previous });
      }
      return ok({
        path: display,
        sheet: sheet.name,
        cells,
        rows_added: edit.rowsAdded,
        recalculate_on_open: true,
        cleared_results: recalculated.cleared,
        previous_sha: loaded.sha,
        sha,
      });
    },
    render: formatEditSheet,
  });
}
