import {
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { type MarkdownHeading, parseMarkdown } from "./internal/markdown.js";
import { decodeText } from "./internal/text-codec.js";
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the table-of-contents tool. */
export const EXTRACT_TOC_TOOL_NAME = "extract_toc";

/** Default cap on the size of a document `extract_toc` and `count_words` read: 10 MiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Default cap on the headings one call shows: 500. */
export const DEFAULT_MAX_TOC_HEADINGS = 500;

/** Options of {@link createExtractTocTool}. */
export interface ExtractTocToolOptions {
  /** The confined workspace (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). Default `"extract_toc"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Largest document read (bytes); larger ones are refused with `TOO_LARGE`. Default {@link DEFAULT_MAX_DOCUMENT_BYTES} (10 MiB). */
  maxFileBytes?: number;
  /** Most headings shown; the rest are counted in a truncation marker. Default {@link DEFAULT_MAX_TOC_HEADINGS} (500). */
  maxHeadings?: number;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  maxFileBytes: z.number().int().min(1).optional(),
  maxHeadings: z.number().int().min(1).max(100_000).optional(),
});

/** The input schema of `extract_toc`. */
export const extractTocInputSchema = z.object({
  path: z
    .string()
    .describe("The Markdown file, relative to the workspace root (e.g. 'docs/guide.md')."),
});

/** The input of `extract_toc`. */
export type ExtractTocInput = z.output<typeof extractTocInputSchema>;

/** One heading of a table of contents. */
export type TocEntry = MarkdownHeading;

/** What `extract_toc` returns. */
export interface ExtractTocToolData {
  /** The document, as a workspace path. */
  path: string;
  /** The headings shown, in document order: `{ level, title, line }`. */
  toc: TocEntry[];
  /** All headings in the document. */
  totalHeadings: number;
  /** Headings not shown because of the cap. */
  omitted: number;
  /** Lines in the document. */
  lines: number;
}

/** The `extract_toc` tool's type. */
export type ExtractTocTool = Tool<typeof extractTocInputSchema, ExtractTocToolData>;

const DESCRIPTION = [
  "Get the outline of a Markdown document: every heading with its level (1–6) and line number, as an indented table of contents.",
  "Both ATX ('# Title', '## Part ##') and Setext (a line underlined with === or ---) headings are found; '#' lines inside fenced (``` or ~~~) or indented code blocks, HTML comments and front matter are not headings.",
  "Use it on a long document before reading it: then call read_file with offset set to a heading's line to read just that section.",
  "Binary files are refused.",
].join("\n");

/** A decoded document and its resolved path. */
export interface LoadedDocument {
  /** The workspace path as shown to the model. */
  display: string;
  /** The real workspace path. */
  real: string;
  /** The decoded text. */
  text: string;
}

/**
 * Reads a text document for `extract_toc` and `count_words`: confined, secret paths refused,
 * size-capped (`TOO_LARGE`), binary refused (`UNSUPPORTED`), directories refused.
 *
 * @internal
 */
export async function loadTextDocument(
  workspace: Workspace,
  path: string,
  maxBytes: number,
  toolName: string,
): Promise<ToolResult<LoadedDocument>> {
  const fileSystem = workspace.fileSystem;
  const resolved = await workspace.resolve(path, { allowRoot: false });
  const stat = await fileSystem.stat(resolved.real);
  if (stat === undefined) {
    return fail("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
      hint: "Find the document with glob_search (e.g. pattern '**/*.md') or list_directory.",
    });
  }
  if (stat.type === "directory") {
    return fail("INVALID_PATH", `${resolved.display} is a directory, not a document.`, {
      hint: "List it with list_directory and pick a file.",
    });
  }
  if (stat.size > maxBytes) {
    return fail(
      "TOO_LARGE",
      `${resolved.display} is ${stat.size} bytes; ${toolName} reads documents up to ${maxBytes} bytes.`,
      {
        hint: "Use file_stats for its size and lines, or grep_search (e.g. pattern '^#') to find headings.",
      },
    );
  }
  const decoded = decodeText(await fileSystem.readFile(resolved.real));
  if (decoded === undefined) {
    return fail("UNSUPPORTED", `${resolved.display} is a binary file, not a text document.`, {
      hint: "Use file_stats for its size; extract_toc and count_words read text files only.",
    });
  }
  return ok({ display: resolved.display, real: resolved.real, text: decoded.text });
}

/**
 * Renders a table of contents as an indented outline (two spaces a level below the shallowest
 * heading), each heading with its line number.
 *
 * @param data - the table of contents
 * @returns model-facing text
 */
export function formatTableOfContents(data: ExtractTocToolData): string {
  if (data.totalHeadings === 0) {
    return `${data.path} has no Markdown headings (no '#' lines or ===/--- underlined titles outside code blocks) in its ${data.lines} lines. Read it with read_file instead.`;
  }
  const shallowest = Math.min(...data.toc.map((entry) => entry.level));
  const lines = [
    `Table of contents of ${data.path} (${data.totalHeadings} ${data.totalHeadings === 1 ? "heading" : "headings"}, ${data.lines} lines):`,
  ];
  for (const entry of data.toc) {
    lines.push(
      `${"  ".repeat(entry.level - shallowest)}- ${entry.title} (H${entry.level}, line ${entry.line})`,
    );
  }
  if (data.omitted > 0) {
    const last = data.toc[data.toc.length - 1];
    lines.push(
      formatTruncationMarker({
        omitted: data.omitted,
        unit: "headings",
        next: `read the rest of the document with read_file from offset=${(last?.line ?? 0) + 1}`,
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `extract_toc` tool: the headings of a Markdown document (ATX and Setext, never
 * inside fenced or indented code, comments or front matter) as `{ level, title, line }`.
 *
 * @param options - the workspace, caps and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const extractToc = createExtractTocTool({ workspace });
 * await extractToc.run({ path: "README.md" }); // data.toc: [{ level: 1, title: "Demo", line: 1 }, …]
 */
export function createExtractTocTool(options: ExtractTocToolOptions): ExtractTocTool {
  const parsed = parseOptions("createExtractTocTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const maxBytes = parsed.maxFileBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const maxHeadings = parsed.maxHeadings ?? DEFAULT_MAX_TOC_HEADINGS;
  const name = parsed.name ?? EXTRACT_TOC_TOOL_NAME;
  return defineTool({
    name,
    description: parsed.description ?? DESCRIPTION,
    input: extractTocInputSchema,
    annotations: { title: "Extract table of contents", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    execute: (request) =>
      guardFileSystem(async () => {
        const loaded = await loadTextDocument(workspace, request.path, maxBytes, name);
        if (!loaded.success) return loaded;
        const document = parseMarkdown(loaded.data.text);
        return ok({
          path: loaded.data.display,
          toc: document.headings.slice(0, maxHeadings),
          totalHeadings: document.headings.length,
          omitted: Math.max(0, document.headings.length - maxHeadings),
          lines: document.lines,
        });
      }),
    render: formatTableOfContents,
  });
}
