/**
 * A notebook's JSON edited as text: the spans of the `cells` array's elements found by a linear
 * scan, so a replaced, inserted or deleted cell is spliced in at the indentation Jupyter used
 * (nbformat writes `indent=1`, keys sorted) and every other byte — other cells' outputs, number
 * spellings like `1.0` that a JSON round trip would change — stays as it was.
 *
 * @internal
 */

/** Where the cells are in the text. */
export interface CellLayout {
  /** Each cell's span (`{` … `}`). */
  cells: Array<{ start: number; end: number }>;
  /** Position of the array's `[`. */
  open: number;
  /** Position of its `]`. */
  close: number;
  /** One level of indentation (`" "` for nbformat's indent=1). */
  unit: string;
  /** The indentation of a cell's first line. */
  cellIndent: string;
}

function skipString(text: string, at: number): number {
  for (let index = at + 1; index < text.length; index += 1) {
    const character = text[index];
    if (character === "\\") index += 1;
    else if (character === '"') return index + 1;
  }
  return text.length;
}

function valueEnd(text: string, at: number): number {
  let depth = 0;
  for (let index = at; index < text.length; index += 1) {
    const character = text[index];
    if (character === '"') {
      index = skipString(text, index) - 1;
      if (depth === 0) return index + 1;
    } else if (character === "{" || character === "[") depth += 1;
    else if (character === "}" || character === "]") {
      depth -= 1;
      if (depth === 0) return index + 1;
      if (depth < 0) return index;
    } else if (depth === 0 && (character === "," || character === "\n")) return index;
  }
  return text.length;
}

/**
 * Finds the cells array of a notebook's text (already known to parse as JSON).
 *
 * @param text - the notebook file's text
 * @returns the layout, or undefined when there is no top-level `cells` array
 */
export function cellLayout(text: string): CellLayout | undefined {
  const top = text.indexOf("{");
  let at = top + 1;
  while (at < text.length) {
    const quote = text.indexOf('"', at);
    if (quote === -1) return undefined;
    const keyEnd = skipString(text, quote);
    const key = JSON.parse(text.slice(quote, keyEnd)) as string;
    const colon = text.indexOf(":", keyEnd);
    let valueStart = colon + 1;
    while (/\s/.test(text[valueStart] ?? "")) valueStart += 1;
    const end = valueEnd(text, valueStart);
    if (key === "cells" && text[valueStart] === "[") {
      const cells: Array<{ start: number; end: number }> = [];
      let index = valueStart + 1;
      for (;;) {
        while (/[\s,]/.test(text[index] ?? "")) index += 1;
        if (text[index] !== "{") break;
        const cellEnd = valueEnd(text, index);
        cells.push({ start: index, end: cellEnd });
        index = cellEnd;
      }
      const lineStart = text.lastIndexOf("\n", top + 2);
      const unit =
        /^\n([ \t]*)/.exec(text.slice(lineStart === -1 ? top + 1 : lineStart))?.[1] ?? " ";
      const first = cells[0];
      const cellIndent =
        first === undefined
          ? unit.repeat(2)
          : text.slice(text.lastIndexOf("\n", first.start) + 1, first.start);
      return {
        cells,
        open: valueStart,
        close: end - 1,
        unit: unit.length === 0 ? " " : unit,
        cellIndent,
      };
    }
    at = end;
  }
  return undefined;
}

/**
 * Serialises a cell as Jupyter does (keys as given, `unit` indentation) starting at `indent`.
 *
 * @param cell - the cell object
 * @param layout - the notebook's layout
 * @returns the cell's text (its first line unindented)
 */
export function serializeCell(cell: unknown, layout: CellLayout): string {
  return JSON.stringify(cell, null, layout.unit).replace(/\n/g, `\n${layout.cellIndent}`);
}

/**
 * Splits source text into Jupyter's list of lines (each but the last keeps its `\n`).
 *
 * @param source - the cell's text
 * @returns the lines
 */
export function sourceLines(source: string): string[] {
  return source.length === 0 ? [] : (source.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}
