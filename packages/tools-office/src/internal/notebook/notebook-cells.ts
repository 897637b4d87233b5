import { randomBytes } from "node:crypto";
import { type CellLayout, serializeCell, sourceLines } from "./notebook-json.js";

/**
 * The cell-level steps of `edit_notebook`: finding a cell by id or position, making a new cell
 * as nbformat writes it, replacing one (outputs cleared, type changes) and splicing the result
 * into the notebook's text.
 *
 * @internal
 */

/** A notebook cell's type. */
export type NotebookCellType = "code" | "markdown" | "raw";

/** The change a call asks for. */
export interface CellChange {
  /** Delete the cell. */
  delete?: boolean | undefined;
  /** Insert a new cell before or after it. */
  insert?: "before" | "after" | undefined;
  /** The new source. */
  new_source?: string | undefined;
  /** The inserted cell's type, or the replaced one's new type. */
  cell_type?: NotebookCellType | undefined;
}

/** What a change did (the tool's data without path and shas). */
export interface CellChangeSummary {
  /** 1-based position. */
  cell_number: number;
  /** Its id, or null. */
  cell_id: string | null;
  /** Its type. */
  cell_type: NotebookCellType;
  /** Whether outputs were cleared. */
  outputs_cleared: boolean;
  /** Cells now. */
  total_cells: number;
}

/** A cell as parsed. */
export type Cell = Record<string, unknown> & { cell_type?: string; id?: string; source?: unknown };
/** The index of a cell named by id or 1-based position. */
export function findCell(cells: readonly Cell[], wanted: string): number | undefined {
  const byId = cells.findIndex((cell) => cell.id === wanted);
  if (byId !== -1) return byId;
  const position = /^#?(\d+)$/.exec(wanted.trim());
  if (position !== null) {
    const index = Number(position[1]) - 1;
    if (index >= 0 && index < cells.length) return index;
  }
  return undefined;
}

function newCell(
  type: NotebookCellType,
  source: string,
  id: string | undefined,
  asList: boolean,
): Cell {
  const body = asList ? sourceLines(source) : source;
  // nbformat writes keys sorted.
  return type === "code"
    ? {
        cell_type: "code",
        execution_count: null,
        ...(id === undefined ? {} : { id }),
        metadata: {},
        outputs: [],
        source: body,
      }
    : { cell_type: type, ...(id === undefined ? {} : { id }), metadata: {}, source: body };
}

function freshId(cells: readonly Cell[]): string {
  const taken = new Set(cells.map((cell) => cell.id));
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!taken.has(id)) return id;
  }
}

function replaced(
  cell: Cell,
  source: string,
  type: NotebookCellType | undefined,
): { cell: Cell; cleared: boolean } {
  const targetType = type ?? (cell.cell_type as NotebookCellType);
  const body = Array.isArray(cell.source) ? sourceLines(source) : source;
  if (targetType === cell.cell_type) {
    const cleared =
      targetType === "code" &&
      ((cell.outputs as unknown[] | undefined)?.length ?? 0) +
        (cell.execution_count == null ? 0 : 1) >
        0;
    const next: Cell = { ...cell, source: body };
    if (targetType === "code") Object.assign(next, { outputs: [], execution_count: null });
    return { cell: next, cleared };
  }
  const { outputs: _outputs, execution_count: _count, attachments: _attachments, ...rest } = cell;
  const converted = newCell(
    targetType,
    source,
    typeof cell.id === "string" ? cell.id : undefined,
    Array.isArray(cell.source),
  );
  return {
    cell: { ...converted, metadata: rest.metadata ?? {} },
    cleared: cell.cell_type === "code",
  };
}

/**
 * Applies a change to the notebook text.
 *
 * @returns the new text and the summary
 */
export function applyAction(
  text: string,
  cells: Cell[],
  index: number,
  layout: CellLayout,
  request: CellChange,
  usesIds: boolean,
): {
  text: string;
  summary: CellChangeSummary;
} {
  const span = layout.cells[index] as { start: number; end: number };
  const target = cells[index] as Cell;
  const separator = `,\n${layout.cellIndent}`;
  if (request.delete === true) {
    const next = layout.cells[index + 1];
    const previous = layout.cells[index - 1];
    const cut =
      next !== undefined
        ? { start: span.start, end: next.start }
        : previous !== undefined
          ? { start: previous.end, end: span.end }
          : { start: layout.open + 1, end: layout.close };
    return {
      text: text.slice(0, cut.start) + text.slice(cut.end),
      summary: {
        cell_number: index + 1,
        cell_id: typeof target.id === "string" ? target.id : null,
        cell_type: target.cell_type as NotebookCellType,
        outputs_cleared: false,
        total_cells: cells.length - 1,
      },
    };
  }
  const source = request.new_source ?? "";
  if (request.insert !== undefined) {
    const ids = usesIds || cells.some((cell) => typeof cell.id === "string");
    const id = ids ? freshId(cells) : undefined;
    const type = request.cell_type ?? "code";
    const cell = serializeCell(
      newCell(type, source, id, Array.isArray(target.source) || !("source" in target)),
      layout,
    );
    const spliced =
      request.insert === "before"
        ? text.slice(0, span.start) + cell + separator + text.slice(span.start)
        : text.slice(0, span.end) + separator + cell + text.slice(span.end);
    return {
      text: spliced,
      summary: {
        cell_number: request.insert === "before" ? index + 1 : index + 2,
        cell_id: id ?? null,
        cell_type: type,
        outputs_cleared: false,
        total_cells: cells.length + 1,
      },
    };
  }
  const { cell, cleared } = replaced(target, source, request.cell_type);
  return {
    text: text.slice(0, span.start) + serializeCell(cell, layout) + text.slice(span.end),
    summary: {
      cell_number: index + 1,
      cell_id: typeof cell.id === "string" ? cell.id : null,
      cell_type: cell.cell_type as NotebookCellType,
      outputs_cleared: cleared,
      total_cells: cells.length,
    },
  };
}
