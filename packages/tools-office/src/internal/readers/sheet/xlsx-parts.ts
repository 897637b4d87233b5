import {
  attribute,
  childElement,
  childElements,
  createXmlStream,
  type XmlElement,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import type { ZipArchive } from "../../container/zip.js";

/**
 * The workbook-wide parts of an .xlsx: shared strings (streamed), number formats (which cells
 * are dates or percentages), and the formula translation that shared formulas need.
 *
 * @internal
 */

/**
 * Streams an entry through a SAX parser (UTF-8 decoded chunk by chunk).
 *
 * @param archive - the package
 * @param name - the part
 * @param handlers - SAX callbacks; `stop()` ends the read early
 * @param yielder - yields between slices
 */
export async function streamPart(
  archive: ZipArchive,
  name: string,
  handlers: Parameters<typeof createXmlStream>[0],
  yielder: Yielder,
  control: { stopped: boolean } = { stopped: false },
): Promise<void> {
  const decoder = new TextDecoder("utf-8");
  const stream = createXmlStream(handlers, name);
  await archive.stream(
    name,
    (chunk) => {
      stream.write(decoder.decode(chunk, { stream: true }));
      return !control.stopped;
    },
    yielder,
  );
  if (!control.stopped) {
    stream.write(decoder.decode());
    stream.close();
  }
}

/** Reads `sharedStrings.xml` into an array (rich text runs joined, phonetic runs left out). */
export async function readSharedStrings(
  archive: ZipArchive,
  name: string | undefined,
  yielder: Yielder,
): Promise<string[]> {
  const strings: string[] = [];
  if (name === undefined || !archive.has(name)) return strings;
  let current = "";
  let inText = false;
  let phonetic = 0;
  await streamPart(
    archive,
    name,
    {
      open: (tag) => {
        const local = tag.slice(tag.indexOf(":") + 1);
        if (local === "si") current = "";
        else if (local === "t") inText = true;
        else if (local === "rPh") phonetic += 1;
      },
      close: (tag) => {
        const local = tag.slice(tag.indexOf(":") + 1);
        if (local === "si") strings.push(current);
        else if (local === "t") inText = false;
        else if (local === "rPh") phonetic -= 1;
      },
      text: (text) => {
        if (inText && phonetic === 0) current += text;
      },
    },
    yielder,
  );
  return strings;
}

/** How a style shows numbers. */
export type NumberKind = "number" | "date" | "datetime" | "time" | "percent";

const BUILTIN_DATES = new Set([
  14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58,
]);
const BUILTIN_TIMES = new Set([18, 19, 20, 21, 32, 33, 45, 46, 47, 55, 56]);

function kindOfCode(code: string): NumberKind {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\\./g, "")
    .replace(/\[(?!h\]|m\]|s\])[^\]]*\]/gi, "");
  if (/%/.test(bare)) return "percent";
  const hasDate = /[dy]/i.test(bare) || (/m/i.test(bare) && !/[hs]/i.test(bare));
  const hasTime = /[hs]/i.test(bare);
  if (hasDate && hasTime) return "datetime";
  if (hasDate) return "date";
  if (hasTime) return "time";
  return "number";
}

/** Reads `styles.xml`: the number kind of each cell format (`s` attribute index). */
export function numberKinds(styles: XmlElement | undefined): NumberKind[] {
  if (styles === undefined) return [];
  const custom = new Map<number, string>();
  const formats = childElement(styles, "numFmts");
  for (const format of formats === undefined ? [] : childElements(formats, "numFmt")) {
    custom.set(Number(attribute(format, "numFmtId")), attribute(format, "formatCode") ?? "");
  }
  const xfs = childElement(styles, "cellXfs");
  return (xfs === undefined ? [] : childElements(xfs, "xf")).map((xf) => {
    const id = Number(attribute(xf, "numFmtId") ?? 0);
    const code = custom.get(id);
    if (code !== undefined) return kindOfCode(code);
    if (BUILTIN_DATES.has(id)) return id === 22 ? "datetime" : "date";
    if (BUILTIN_TIMES.has(id)) return "time";
    if (id === 9 || id === 10) return "percent";
    return "number";
  });
}

/**
 * Moves a formula's relative references by a row and column offset (a shared formula's
 * dependents), leaving `$`-anchored parts, quoted text and function names alone.
 *
 * @param formula - the master formula
 * @param rows - rows to move
 * @param columns - columns to move
 * @returns the moved formula
 */
export function shiftFormula(formula: string, rows: number, columns: number): string {
  const letters = (value: number) => {
    let out = "";
    for (let rest = value; rest > 0; rest = Math.floor((rest - 1) / 26))
      out = String.fromCharCode(65 + ((rest - 1) % 26)) + out;
    return out;
  };
  return formula
    .split('"')
    .map((piece, index) =>
      index % 2 === 1
        ? piece
        : piece.replace(
            /(?<![A-Za-z_\d.!])(\$?)([A-Z]{1,3})(\$?)(\d+)(?![\d(A-Za-z_])/g,
            (_match, columnAnchor: string, column: string, rowAnchor: string, row: string) => {
              let number = 0;
              for (const character of column) number = number * 26 + character.charCodeAt(0) - 64;
              const newColumn = columnAnchor === "" ? number + columns : number;
              const newRow = rowAnchor === "" ? Number(row) + rows : Number(row);
              if (newColumn < 1 || newRow < 1) return "#REF!";
              return `${columnAnchor}${letters(newColumn)}${rowAnchor}${newRow}`;
            },
          ),
    )
    .join('"');
}
