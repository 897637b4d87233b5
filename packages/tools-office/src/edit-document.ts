import {
  defineTool,
  joinSentences,
  type MountedTools,
  ok,
  type Tool,
  ToolFailureError,
} from "@agentool/contract";
import { z } from "zod";
import { openZip } from "./internal/container/zip.js";
import { rewriteZip } from "./internal/container/zip-write.js";
import { prepareOfficeTool } from "./internal/office-tool.js";
import { extensionOf } from "./internal/read-support.js";
import {
  diagnoseMissing,
  excerpt,
  listOccurrences,
  placeOf,
} from "./internal/run-text/diagnose.js";
import { type EditableFormat, scanDocumentParts } from "./internal/run-text/document-parts.js";
import { findOccurrences, replaceInPart } from "./internal/run-text/replace-in-runs.js";
import {
  DEFAULT_MAX_DOCUMENT_BYTES,
  expectedShaField,
  loadDocument,
  type OfficeWriteToolOptions,
  officeWriteOptionsSchema,
  replaceDocument,
} from "./internal/write-support.js";

/** The default name of the document edit tool. */
export const EDIT_DOCUMENT_TOOL_NAME = "edit_document";

/** Most changed paragraphs the result lists. */
export const MAX_LISTED_EDITS = 20;

/** Options of {@link createEditDocumentTool}. */
export type EditDocumentToolOptions = OfficeWriteToolOptions;

/** One paragraph `edit_document` changed. */
export interface EditedParagraph {
  /** Where it is: `body paragraph 3`, `header 1 paragraph 1`, `slide 2 paragraph 1`. */
  place: string;
  /** Its text after the edit (cut to 240 characters around the change). */
  text: string;
}

/** What `edit_document` returns. */
export interface EditDocumentToolData {
  /** The document, relative to the root. */
  path: string;
  /** Its format: `docx`, `pptx` or `odt`. */
  format: EditableFormat;
  /** Occurrences replaced. */
  replacements: number;
  /** The changed paragraphs (at most {@link MAX_LISTED_EDITS}). */
  paragraphs: EditedParagraph[];
  /** The zip parts rewritten (every other part is byte-identical). */
  parts: string[];
  /** The file's sha-256 before. */
  previous_sha: string;
  /** The file's sha-256 now: what `expected_sha` takes next. */
  sha: string;
}

/** The document edit tool's input schema. */
export const editDocumentInputSchema = z.object({
  path: z
    .string()
    .min(1)
    .describe("The .docx, .pptx or .odt file, relative to the workspace root."),
  old_text: z
    .string()
    .min(1)
    .describe(
      "Text to replace, exactly as the document reads, within one paragraph (formatting may change inside it).",
    ),
  new_text: z
    .string()
    .describe("The replacement (plain text, no line breaks); empty deletes old_text."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of requiring exactly one. Default false."),
  expected_sha: expectedShaField,
});

/** The document edit tool's input. */
export type EditDocumentInput = z.infer<typeof editDocumentInputSchema>;

/** The document edit tool's type. */
export type EditDocumentTool = Tool<typeof editDocumentInputSchema, EditDocumentToolData>;

/** Field aliases `edit_document` accepts silently (alias → field). */
export const EDIT_DOCUMENT_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  old_string: "old_text",
  new_string: "new_text",
  old_str: "old_text",
  new_str: "new_text",
};

const FORMATS: Readonly<Record<string, EditableFormat>> = {
  docx: "docx",
  pptx: "pptx",
  odt: "odt",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Replace text inside a Word (.docx), PowerPoint (.pptx) or OpenDocument (.odt) file, keeping its formatting: old_text is matched on the paragraph's visible text even where bold/italic runs split it, the new text takes the formatting of the run where the match starts, and everything else in the file stays byte-identical.",
    "old_text must occur exactly once (searched in the body, headers, footers, footnotes; every slide) unless replace_all; a miss shows the closest paragraph, several matches are listed with their paragraph numbers.",
    mounted.when(
      "read_document",
      "Read the document with read_document first and copy old_text from it.",
    ),
    mounted.when("edit_file", "For plain-text files use edit_file."),
    mounted.when("edit_sheet", "For .xlsx cells use edit_sheet."),
  ]);
}

/**
 * Renders the result for a model: what was replaced, where, and the new sha.
 *
 * @param data - the tool's data
 * @returns model-facing text
 * @example
 * formatEditDocument(result.data); // "Edited report.docx: replaced 1 occurrence (body paragraph 3). sha …"
 */
export function formatEditDocument(data: EditDocumentToolData): string {
  const count = `${data.replacements} occurrence${data.replacements === 1 ? "" : "s"}`;
  const places = [...new Set(data.paragraphs.map((paragraph) => paragraph.place))];
  return [
    `Edited ${data.path}: replaced ${count} (${places.join(", ")}${data.replacements > data.paragraphs.length ? ", …" : ""}). sha ${data.sha}`,
    ...data.paragraphs.map((paragraph) => `${paragraph.place}: ${paragraph.text}`),
  ].join("\n");
}

function formatOf(path: string): EditableFormat {
  const extension = extensionOf(path);
  const format = FORMATS[extension];
  if (format === undefined) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${path}: edit_document edits .docx, .pptx and .odt files, not ${extension === "" ? "files without an extension" : `.${extension}`}.`,
      {
        hint:
          extension === "xlsx"
            ? "Change spreadsheet cells with edit_sheet."
            : extension === "ipynb"
              ? "Change notebook cells with edit_notebook."
              : "Edit plain-text files with edit_file.",
      },
    );
  }
  return format;
}

/**
 * Creates the `edit_document` tool: str_replace on a Word, PowerPoint or OpenDocument file's
 * text, across run boundaries, keeping formatting. Only the zip parts holding a match are
 * re-written (as the same bytes outside the changed runs); every other zip entry is copied byte
 * for byte. Written through the tools-fs workspace: confined, secrets and `.git` refused,
 * `expected_sha` checked, atomic.
 *
 * @param options - `root` (or a tools-fs `workspace`) and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const editDocument = createEditDocumentTool({ root: "/work/docs" });
 * await editDocument.run({ path: "report.docx", old_text: "Q3 revenue", new_text: "Q4 revenue" });
 */
export function createEditDocumentTool(options: EditDocumentToolOptions): EditDocumentTool {
  const { workspace, maxFileBytes, definition } = prepareOfficeTool(
    "createEditDocumentTool",
    officeWriteOptionsSchema,
    options,
    {
      kind: "write",
      name: EDIT_DOCUMENT_TOOL_NAME,
      title: "Edit a document's text",
      describe: defaultDescription,
      maxFileBytes: DEFAULT_MAX_DOCUMENT_BYTES,
    },
  );
  return defineTool({
    ...definition,
    input: editDocumentInputSchema,
    aliases: EDIT_DOCUMENT_ALIASES,
    execute: async (request) => {
      const format = formatOf(request.path);
      if (/[\r\n]/.test(request.new_text)) {
        throw new ToolFailureError(
          "INVALID_INPUT",
          "new_text holds a line break; edit_document replaces text within one paragraph.",
          { hint: "Edit one paragraph per call (its text without line breaks)." },
        );
      }
      if (request.old_text === request.new_text) {
        throw new ToolFailureError(
          "INVALID_INPUT",
          "old_text and new_text are the same; nothing to do.",
        );
      }
      const loaded = await loadDocument(workspace, request.path, {
        maxFileBytes,
        expectedSha: request.expected_sha,
        missingHint: "Check the path; to create a document use write_document.",
      });
      const display = loaded.resolved.display;
      const archive = openZip(loaded.bytes, { label: display });
      const parts = await scanDocumentParts(archive, format);
      if (parts.some((part) => /<!DOCTYPE/i.test(part.xml.slice(0, 4_096)))) {
        throw new ToolFailureError(
          "BLOCKED",
          `${display} declares a DTD — office files never do; refused as hostile.`,
        );
      }
      const occurrences = findOccurrences(parts, request.old_text);
      if (occurrences.length === 0) {
        const { detail, hint } = diagnoseMissing(parts, request.old_text);
        throw new ToolFailureError(
          "PATTERN_NOT_FOUND",
          `old_text does not occur in ${display}.${detail}`,
          { hint },
        );
      }
      if (occurrences.length > 1 && request.replace_all !== true) {
        throw new ToolFailureError(
          "PATTERN_NOT_UNIQUE",
          `old_text occurs ${occurrences.length} times in ${display}: ${listOccurrences(occurrences)}.`,
          {
            hint: "Add surrounding words to old_text to pick one, or pass replace_all: true to change every one.",
          },
        );
      }
      const changes = new Map<string, Uint8Array>();
      const encoder = new TextEncoder();
      for (const part of parts) {
        const mine = occurrences.filter((occurrence) => occurrence.part === part);
        if (mine.length === 0) continue;
        const result = replaceInPart(part, mine, request.new_text);
        if ("noText" in result) {
          throw new ToolFailureError(
            "UNSUPPORTED",
            `old_text at ${placeOf(part, result.noText.paragraph)} covers only tabs or breaks; there is no run to put new_text in.`,
            { hint: "Include a word next to it in old_text (and in new_text)." },
          );
        }
        changes.set(part.name, encoder.encode(result.xml));
      }
      const sha = await replaceDocument(workspace, loaded, rewriteZip(loaded.bytes, changes));
      const paragraphs = editedParagraphs(occurrences, request.new_text);
      return ok({
        path: display,
        format,
        replacements: occurrences.length,
        paragraphs,
        parts: [...changes.keys()],
        previous_sha: loaded.sha,
        sha,
      });
    },
    render: formatEditDocument,
  });
}

function editedParagraphs(
  occurrences: ReturnType<typeof findOccurrences>,
  newText: string,
): EditedParagraph[] {
  const seen = new Map<string, EditedParagraph>();
  for (const occurrence of occurrences) {
    const place = placeOf(occurrence.part, occurrence.paragraph);
    if (seen.has(place) || seen.size >= MAX_LISTED_EDITS) continue;
    const before = occurrence.part.paragraphs[occurrence.paragraph]?.text ?? "";
    // The paragraph's text after every replacement in it.
    const mine = occurrences.filter(
      (other) => other.part === occurrence.part && other.paragraph === occurrence.paragraph,
    );
    let text = "";
    let at = 0;
    for (const other of mine) {
      text += before.slice(at, other.start) + newText;
      at = other.end;
    }
    text += before.slice(at);
    seen.set(place, { place, text: excerpt(text, occurrence.start) });
  }
  return [...seen.values()];
}
