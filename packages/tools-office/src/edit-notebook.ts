import {
  defineTool,
  joinSentences,
  type MountedTools,
  ok,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import { commitChangeSet, type FileEditResult, planChangeSet } from "@agentool/tools-fs";
import { z } from "zod";
import {
  applyAction,
  type Cell,
  findCell,
  type NotebookCellType,
} from "./internal/notebook/notebook-cells.js";
import { cellLayout } from "./internal/notebook/notebook-json.js";
import { prepareOfficeTool } from "./internal/office-tool.js";
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  expectedShaField,
  type OfficeWriteToolOptions,
  officeWriteOptionsSchema,
} from "./internal/write-support.js";

/** The default name of the notebook edit tool. */
export const EDIT_NOTEBOOK_TOOL_NAME = "edit_notebook";

/** Options of {@link createEditNotebookTool}. */
export type EditNotebookToolOptions = OfficeWriteToolOptions;

/** A notebook cell's type. */
export type { NotebookCellType } from "./internal/notebook/notebook-cells.js";

/** What `edit_notebook` returns. */
export interface EditNotebookToolData {
  /** The notebook, relative to the root. */
  path: string;
  /** What happened: `replaced`, `inserted` or `deleted`. */
  action: "replaced" | "inserted" | "deleted";
  /** Position of the cell replaced or inserted (1-based), or of the one deleted. */
  cell_number: number;
  /** Its id (nbformat 4.5+), or null. */
  cell_id: string | null;
  /** Its type. */
  cell_type: NotebookCellType;
  /** Whether a code cell's outputs and execution count were cleared. */
  outputs_cleared: boolean;
  /** Cells in the notebook now. */
  total_cells: number;
  /** The file's sha-256 before. */
  previous_sha: string;
  /** The file's sha-256 now: what `expected_sha` takes next. */
  sha: string;
}

/** The notebook edit tool's input schema. */
export const editNotebookInputSchema = z.object({
  path: z.string().min(1).describe("The .ipynb notebook, relative to the workspace root."),
  cell: z
    .string()
    .min(1)
    .max(100)
    .describe('The cell: its id, or its position ("1" is the first cell).'),
  new_source: z
    .string()
    .optional()
    .describe("The cell's new source (replace), or the inserted cell's source."),
  insert: z
    .enum(["before", "after"])
    .optional()
    .describe("Insert a new cell with new_source before or after `cell` instead of replacing it."),
  delete: z.boolean().optional().describe("Delete `cell`."),
  cell_type: z
    .enum(["code", "markdown", "raw"])
    .optional()
    .describe("Type of the inserted cell (default code), or a new type for the replaced one."),
  expected_sha: expectedShaField,
});

/** The notebook edit tool's input. */
export type EditNotebookInput = z.infer<typeof editNotebookInputSchema>;

/** The notebook edit tool's type. */
export type EditNotebookTool = Tool<typeof editNotebookInputSchema, EditNotebookToolData>;

/** Field aliases `edit_notebook` accepts silently (alias → field). */
export const EDIT_NOTEBOOK_ALIASES: Readonly<Record<string, string>> = {
  notebook_path: "path",
  file_path: "path",
  cell_id: "cell",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Edit a Jupyter notebook (.ipynb) cell by cell: replace a cell's source (new_source), insert a new cell before or after one (insert + new_source + cell_type), or delete one (delete: true).",
    "A cell is named by its id or its position (1 = first). An edited code cell's outputs are cleared; the rest of the file — other cells, outputs, metadata, Jupyter's formatting — is kept byte for byte.",
    mounted.when("read_document", "read_document shows the cells with their ids."),
  ]);
}

/**
 * Renders the result for a model.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatEditNotebook(result.data); // "Replaced code cell 3 (id a1b2) of analysis.ipynb; outputs cleared. 12 cells. sha …"
 */
export function formatEditNotebook(data: EditNotebookToolData): string {
  const verb = data.action[0]?.toUpperCase() + data.action.slice(1);
  const id = data.cell_id === null ? "" : ` (id ${data.cell_id})`;
  return `${verb} ${data.cell_type} cell ${data.cell_number}${id} of ${data.path}${data.outputs_cleared ? "; outputs cleared" : ""}. ${data.total_cells} cell${data.total_cells === 1 ? "" : "s"} now. sha ${data.sha}`;
}

function refusal(
  code: "INVALID_INPUT" | "PATTERN_NOT_FOUND" | "UNSUPPORTED",
  error: string,
  hint?: string,
): FileEditResult {
  return { code, error, ...(hint === undefined ? {} : { hint }) };
}

/**
 * Creates the `edit_notebook` tool (Claude Code's NotebookEdit): replace, insert or delete one
 * cell of a Jupyter notebook. The edited cell is spliced into the file's text at Jupyter's
 * indentation, so every other cell and output keeps its bytes; an edited code cell's outputs and
 * execution count are cleared; new cells get an id when the notebook uses ids (nbformat 4.5+).
 * Written through tools-fs's change set: confined, secrets and `.git` refused, `expected_sha`
 * checked, encoding and line endings kept, atomic.
 *
 * @param options - `root` (or a tools-fs `workspace`) and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const editNotebook = createEditNotebookTool({ root: "/work/nb" });
 * await editNotebook.run({ path: "analysis.ipynb", cell: "3", new_source: "df.describe()" });
 */
export function createEditNotebookTool(options: EditNotebookToolOptions): EditNotebookTool {
  const { workspace, mounted, definition } = prepareOfficeTool(
    "createEditNotebookTool",
    officeWriteOptionsSchema,
    options,
    {
      kind: "write",
      name: EDIT_NOTEBOOK_TOOL_NAME,
      title: "Edit a notebook cell",
      describe: defaultDescription,
      maxFileBytes: DEFAULT_MAX_DOCUMENT_BYTES,
    },
  );
  return defineTool({
    ...definition,
    input: editNotebookInputSchema,
    aliases: EDIT_NOTEBOOK_ALIASES,
    execute: async (request, context) => {
      if (!request.path.toLowerCase().endsWith(".ipynb")) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${request.path} is not a Jupyter notebook (.ipynb).`,
          {
            hint: mounted.has("edit_file")
              ? "Edit other text files with edit_file."
              : "Name an .ipynb file.",
          },
        );
      }
      const action =
        request.delete === true
          ? "deleted"
          : request.insert !== undefined
            ? "inserted"
            : "replaced";
      if (
        request.delete === true &&
        (request.insert !== undefined || request.new_source !== undefined)
      ) {
        throw new ToolFailureError(
          "INVALID_INPUT",
          "delete cannot be combined with insert or new_source.",
          { hint: "Send one action per call." },
        );
      }
      if (action !== "deleted" && request.new_source === undefined) {
        throw new ToolFailureError(
          "INVALID_INPUT",
          `${action === "inserted" ? "insert" : "Replacing a cell"} needs new_source.`,
          {
            hint: "Give new_source (or delete: true to remove the cell).",
          },
        );
      }
      let summary: Omit<EditNotebookToolData, "path" | "previous_sha" | "sha"> | undefined;
      const edit = (text: string): FileEditResult => {
        let notebook: { cells?: Cell[]; nbformat?: number; nbformat_minor?: number };
        try {
          notebook = JSON.parse(text) as typeof notebook;
        } catch (error) {
          return refusal(
            "UNSUPPORTED",
            `${request.path} is not valid JSON (${(error as Error).message}).`,
            "Repair the file before editing cells.",
          );
        }
        const cells = notebook.cells;
        const layout = Array.isArray(cells) ? cellLayout(text) : undefined;
        if (!Array.isArray(cells) || layout === undefined || layout.cells.length !== cells.length) {
          return refusal(
            "UNSUPPORTED",
            `${request.path} has no cells list (nbformat 4 notebooks only).`,
          );
        }
        const index = findCell(cells, request.cell);
        if (index === undefined) {
          const ids = cells
            .slice(0, 10)
            .map((cell, at) => `${at + 1}${typeof cell.id === "string" ? ` (${cell.id})` : ""}`);
          return refusal(
            "PATTERN_NOT_FOUND",
            `${request.path} has no cell ${JSON.stringify(request.cell)}; it has ${cells.length} cell${cells.length === 1 ? "" : "s"}: ${ids.join(", ")}${cells.length > 10 ? ", …" : ""}.`,
            "Name a cell by its id or its position (1 = first).",
          );
        }
        const result = applyAction(
          text,
          cells,
          index,
          layout,
          request,
          (notebook.nbformat ?? 4) * 100 + (notebook.nbformat_minor ?? 0) >= 405,
        );
        summary = { action, ...result.summary };
        return result.text;
      };
      const planned = await planChangeSet(
        workspace,
        [
          {
            kind: "update",
            path: request.path,
            ...(request.expected_sha === undefined ? {} : { expectedSha: request.expected_sha }),
            edit,
          },
        ],
        { signal: context.signal },
      );
      if (!planned.success) return planned;
      const committed = await commitChangeSet(workspace, planned.data, {
        signal: context.signal,
        tool: definition.name,
      });
      if (!committed.success) return committed;
      const written = committed.data.files[0];
      if (summary === undefined || written === undefined)
        throw new Error("edit_notebook: the change set returned no file.");
      return ok({
        path: written.path,
        ...summary,
        previous_sha: written.previousSha ?? "",
        sha: written.sha ?? "",
      });
    },
    render: formatEditNotebook,
  });
}
