import {
  defineTool,
  joinSentences,
  type MountedTools,
  ok,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import type { Workspace } from "@agentool/tools-fs";
import { marked } from "marked";
import { z } from "zod";
import { prepareOfficeTool } from "./internal/office-tool.js";
import { extensionOf } from "./internal/read-support.js";
import { cellTextField } from "./internal/sheet/cell-text-field.js";
import {
  type ImageLoader,
  type LoadedImage,
  markdownToDocx,
} from "./internal/write/docx-writer.js";
import { imageSize } from "./internal/write/inline-spans.js";
import {
  markdownSheets,
  markdownToPptx,
  type SheetValue,
  sheetsToXlsx,
} from "./internal/write/pptx-xlsx-writers.js";
import {
  createDocument,
  DEFAULT_MAX_DOCUMENT_BYTES,
  type OfficeWriteToolOptions,
  officeWriteOptionsSchema,
} from "./internal/write-support.js";

/** The default name of the document writing tool. */
export const WRITE_DOCUMENT_TOOL_NAME = "write_document";

/** Most rows `rows` takes. */
export const MAX_WRITE_ROWS = 50_000;

/** Options of {@link createWriteDocumentTool}. */
export type WriteDocumentToolOptions = OfficeWriteToolOptions;

/** The formats `write_document` makes. */
export type WrittenFormat = "docx" | "pptx" | "xlsx";

/** What `write_document` returns. */
export interface WriteDocumentToolData {
  /** The document, relative to the root. */
  path: string;
  /** Its format. */
  format: WrittenFormat;
  /** Whether it is new (false: an existing file was replaced with `overwrite`). */
  created: boolean;
  /** Its size in bytes. */
  bytes: number;
  /** Slides made (.pptx), else null. */
  slides: number | null;
  /** Sheets made (.xlsx), else null. */
  sheets: number | null;
  /** Non-empty cells written (.xlsx), else null. */
  cells: number | null;
  /** Images embedded. */
  images: number;
  /** Images the Markdown named that could not be embedded (missing, outside the root, remote or not PNG/JPEG/GIF): their alt text stands instead. */
  missing_images: string[];
  /** The replaced file's sha-256, or null when the file is new. */
  previous_sha: string | null;
  /** The file's sha-256: what `expected_sha` of the edit tools takes. */
  sha: string;
}

const sheetValue = cellTextField("A cell.");

/** The document writing tool's input schema. */
export const writeDocumentInputSchema = z.object({
  path: z
    .string()
    .min(1)
    .describe(
      "The new file: .docx (Word), .pptx (PowerPoint) or .xlsx (Excel), relative to the workspace root.",
    ),
  markdown: z
    .string()
    .max(5_000_000)
    .optional()
    .describe(
      "The content as Markdown. .pptx: a slide per # heading or --- rule. .xlsx: a sheet per table.",
    ),
  rows: z
    .array(z.array(sheetValue).max(16_384))
    .max(MAX_WRITE_ROWS)
    .optional()
    .describe(
      '.xlsx only, instead of markdown: rows of cells (numbers, booleans, text, "=SUM(A1:A3)", "2024-05-01", null).',
    ),
  overwrite: z
    .boolean()
    .optional()
    .describe("Replace the file if it exists. Default false (refused)."),
});

/** The document writing tool's input. */
export type WriteDocumentInput = z.infer<typeof writeDocumentInputSchema>;

/** The document writing tool's type. */
export type WriteDocumentTool = Tool<typeof writeDocumentInputSchema, WriteDocumentToolData>;

/** Field aliases `write_document` accepts silently (alias → field). */
export const WRITE_DOCUMENT_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  content: "markdown",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Create a Word (.docx), PowerPoint (.pptx) or Excel (.xlsx) file from Markdown: headings, bold/italic/code, links, nested lists, tables, code blocks and workspace images become real Word structure; each # heading or --- starts a slide; each Markdown table (or rows) becomes a sheet with numbers, dates and =formulas typed.",
    "An existing file is refused unless overwrite: true.",
    mounted.when("edit_document", "To change part of an existing document use edit_document"),
    mounted.when("edit_sheet", "edit_sheet for cells"),
    mounted.when("write_file", "For plain-text files use write_file."),
  ]);
}

/**
 * Renders the result for a model.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatWriteDocument(result.data); // "Created report.docx (12,345 bytes). sha …"
 */
export function formatWriteDocument(data: WriteDocumentToolData): string {
  const counts = [
    data.slides === null ? "" : `${data.slides} slide${data.slides === 1 ? "" : "s"}`,
    data.sheets === null
      ? ""
      : `${data.sheets} sheet${data.sheets === 1 ? "" : "s"}, ${data.cells} cells`,
    data.images > 0 ? `${data.images} image${data.images === 1 ? "" : "s"}` : "",
  ].filter((part) => part !== "");
  const missing =
    data.missing_images.length > 0
      ? `\nNot embedded (alt text kept): ${data.missing_images.join(", ")}`
      : "";
  return `${data.created ? "Created" : "Replaced"} ${data.path} (${data.bytes} bytes${counts.length > 0 ? `; ${counts.join(", ")}` : ""}). sha ${data.sha}${missing}`;
}

const FORMATS: Readonly<Record<string, WrittenFormat>> = {
  docx: "docx",
  pptx: "pptx",
  xlsx: "xlsx",
};

function imageLoader(
  workspace: Workspace,
  maxBytes: number,
  report: { embedded: Set<string>; missing: Set<string> },
): ImageLoader {
  return async (href) => {
    let image: LoadedImage | undefined;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(href)) {
      try {
        const resolved = await workspace.resolve(decodeURIComponent(href), {
          allowRoot: false,
          argument: "image",
        });
        const stat = await workspace.fileSystem.stat(resolved.real);
        if (stat !== undefined && stat.type !== "directory" && stat.size <= maxBytes) {
          const data = await workspace.fileSystem.readFile(resolved.real);
          const size = imageSize(data);
          if (size !== undefined) image = { data, ...size };
        }
      } catch (error) {
        if (!(error instanceof ToolFailureError)) throw error;
      }
    }
    (image === undefined ? report.missing : report.embedded).add(href);
    return image;
  };
}

/**
 * Creates the `write_document` tool: Markdown → .docx (the `docx` library), .pptx
 * (`pptxgenjs`), rows or Markdown tables → .xlsx (`exceljs`). Images are read from the
 * workspace only (confined, secrets refused); remote images are never fetched. Refuses an
 * existing file unless `overwrite`; writes atomically through the tools-fs workspace.
 *
 * @param options - `root` (or a tools-fs `workspace`) and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const writeDocument = createWriteDocumentTool({ root: "/work/out" });
 * await writeDocument.run({ path: "report.docx", markdown: "# Report\n\n- one\n- two" });
 */
export function createWriteDocumentTool(options: WriteDocumentToolOptions): WriteDocumentTool {
  const { workspace, mounted, maxFileBytes, definition } = prepareOfficeTool(
    "createWriteDocumentTool",
    officeWriteOptionsSchema,
    options,
    {
      kind: "write",
      name: WRITE_DOCUMENT_TOOL_NAME,
      title: "Write a document",
      describe: defaultDescription,
      maxFileBytes: DEFAULT_MAX_DOCUMENT_BYTES,
    },
  );
  return defineTool({
    ...definition,
    input: writeDocumentInputSchema,
    aliases: WRITE_DOCUMENT_ALIASES,
    execute: async (request) => {
      const extension = extensionOf(request.path);
      const format = FORMATS[extension];
      if (format === undefined) {
        throw new ToolFailureError(
          "UNSUPPORTED",
          `${request.path}: write_document makes .docx, .pptx and .xlsx files, not ${extension === "" ? "files without an extension" : `.${extension}`}.`,
          {
            hint: mounted.has("write_file")
              ? "Write text files (.md, .csv, .html…) with write_file."
              : "Name a .docx, .pptx or .xlsx path.",
          },
        );
      }
      if ((request.markdown === undefined) === (request.rows === undefined)) {
        throw new ToolFailureError("INVALID_INPUT", "Give exactly one of markdown and rows.", {
          hint: "rows is for .xlsx only; otherwise send markdown.",
        });
      }
      if (request.rows !== undefined && format !== "xlsx") {
        throw new ToolFailureError(
          "INVALID_INPUT",
          `rows makes a spreadsheet; ${request.path} is a .${format}.`,
          { hint: "Send markdown (a table for tabular data), or name an .xlsx path." },
        );
      }
      const tokens = request.markdown === undefined ? [] : marked.lexer(request.markdown);
      const title = request.path.slice(request.path.lastIndexOf("/") + 1).replace(/\.[^.]+$/, "");
      const report = { embedded: new Set<string>(), missing: new Set<string>() };
      const images = imageLoader(workspace, maxFileBytes, report);
      let counts = {
        slides: null as number | null,
        sheets: null as number | null,
        cells: null as number | null,
      };
      const build = async (): Promise<Uint8Array> => {
        if (format === "docx") return markdownToDocx(tokens, images, title);
        if (format === "pptx") {
          const { bytes, slides } = await markdownToPptx(tokens, images, title);
          counts = { ...counts, slides };
          return bytes;
        }
        const sheets =
          request.rows !== undefined
            ? [{ name: "Sheet1", rows: request.rows as SheetValue[][], header: false }]
            : markdownSheets(tokens);
        if (sheets.length === 0) {
          throw new ToolFailureError(
            "INVALID_INPUT",
            "The Markdown has no table to put in a sheet.",
            { hint: "Send a Markdown table (| a | b |) or rows." },
          );
        }
        const { bytes, cells } = await sheetsToXlsx(sheets);
        counts = { ...counts, sheets: sheets.length, cells };
        return bytes;
      };
      const written = await createDocument(workspace, request.path, build, {
        overwrite: request.overwrite === true,
      });
      return ok({
        path: written.resolved.display,
        format,
        created: written.previousSha === undefined,
        bytes: written.bytes,
        ...counts,
        images: report.embedded.size,
        missing_images: [...report.missing],
        previous_sha: written.previousSha ?? null,
        sha: written.sha,
      });
    },
    render: formatWriteDocument,
  });
}
