import {
  defineTool,
  fail,
  formatCount,
  formatPageMarker,
  isOffsetPastEnd,
  joinSentences,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import { type MarkdownHeading, parseMarkdown } from "./internal/markdown.js";
import { decodeText } from "./internal/text-codec.js";
import {
  directoryNotFile,
  limitsInOrder,
  pageLimitOptionsShape,
  pathNotFound,
  type WorkspaceToolOptions,
  workspaceToolOptionsShape,
} from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the table-of-contents tool. */
export const EXTRACT_TOC_TOOL_NAME = "extract_toc";

/** Default cap on the size of a document `extract_toc` and `count_words` read: 10 MiB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Default page size (`limit` when the model gives none): 500 headings. */
export const DEFAULT_TOC_LIMIT = 500;

/** Default largest `limit` a model may ask for: 5,000 headings. */
export const DEFAULT_MAX_TOC_LIMIT = 5000;

/** Options of {@link createExtractTocTool}. */
export interface ExtractTocToolOptions extends WorkspaceToolOptions {
  /** Largest document read (bytes); larger ones are refused with `TOO_LARGE`. Default {@link DEFAULT_MAX_DOCUMENT_BYTES} (10 MiB). */
  maxFileBytes?: number;
  /** Headings on a page when the model gives no `limit`. Default {@link DEFAULT_TOC_LIMIT} (500). */
  defaultLimit?: number;
  /** Largest `limit` accepted. Default {@link DEFAULT_MAX_TOC_LIMIT} (5,000). */
  maxLimit?: number;
}

const optionsSchema = z
  .object({
    ...workspaceToolOptionsShape,
    maxFileBytes: z.number().int().min(1).optional(),
    ...pageLimitOptionsShape,
  })
  .refine(...limitsInOrder(DEFAULT_TOC_LIMIT, DEFAULT_MAX_TOC_LIMIT));

function createInputSchema(defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({ unit: "heading", defaultLimit, maxLimit });
  return z.object({
    path: z.string().describe("Markdown file, relative to the workspace root."),
    offset: paging.offset.describe("1-based first heading (default 1)."),
    limit: paging.limit.describe(`Most headings (default ${defaultLimit}).`),
  });
}

/** The input schema of `extract_toc` (with the default limits in its descriptions). */
export const extractTocInputSchema = createInputSchema(DEFAULT_TOC_LIMIT, DEFAULT_MAX_TOC_LIMIT);

/**
 * Names from other toolsets accepted silently for a document tool's `path` (`extract_toc`,
 * `count_words`).
 */
export const DOCUMENT_PATH_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
  file: "path",
});

/** The input of `extract_toc`. */
export type ExtractTocInput = z.output<typeof extractTocInputSchema>;

/** One heading of a table of contents. */
export type TocEntry = MarkdownHeading;

/** What `extract_toc` returns. */
export interface ExtractTocToolData {
  /** The document, as a workspace path. */
  path: string;
  /** The 1-based position (among the headings) of the first heading of this page. */
  offset: number;
  /** The page size that applied (the `limit` asked for, or the default). */
  limit: number;
  /** This page's headings, in document order: `{ level, title, line }`. */
  toc: TocEntry[];
  /** All headings in the document (exact). */
  total: number;
  /** The `offset` of the next page of headings; absent on the last page. */
  next_offset?: number;
  /** Whether headings after this page were left out. */
  truncated: boolean;
  /** Lines in the document. */
  lines: number;
}

/** The `extract_toc` tool's type. */
export type ExtractTocTool = Tool<typeof extractTocInputSchema, ExtractTocToolData>;

function description(mounted: ReturnType<typeof mountedTools>): string {
  return joinSentences(
    [
      "Outline of a Markdown document: every heading (ATX or Setext, not in code blocks or comments) with its level and line number.",
      mounted.when(
        "read_file",
        "Use it on a long document, then call read_file with offset at a heading's line to read that section.",
      ),
      "A cut result ends with the exact call for the next page.",
    ],
    "\n",
  );
}

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
  if (stat === undefined) return pathNotFound(resolved.display);
  if (stat.type === "directory") {
    return directoryNotFile(resolved.display, `${toolName} reads a text document`);
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

/** Options of {@link formatTableOfContents}. */
export interface TableOfContentsFormatOptions {
  /** The tool's name, for the next-page call. Default `"extract_toc"`. */
  toolName?: string;
  /** The mounted tool that reads a file's lines, named when a document has no headings. */
  readTool?: string;
}

/**
 * Renders a table of contents as an indented outline (two spaces a level below the shallowest
 * heading of the page), each heading with its line number, and the contract's page marker when
 * more headings remain.
 *
 * @param data - the table of contents
 * @param options - the tool's name and the reading tool to suggest
 * @returns model-facing text
 */
export function formatTableOfContents(
  data: ExtractTocToolData,
  options: TableOfContentsFormatOptions = {},
): string {
  if (data.total === 0) {
    return `${data.path} has no Markdown headings (no '#' lines or ===/--- underlined titles outside code blocks) in its ${formatCount(data.lines)} ${data.lines === 1 ? "line" : "lines"}.${options.readTool === undefined ? "" : ` Read it with ${options.readTool} instead.`}`;
  }
  const shallowest = Math.min(...data.toc.map((entry) => entry.level));
  const shown = data.toc.length;
  const range =
    data.offset === 1 && !data.truncated
      ? `${data.total} ${data.total === 1 ? "heading" : "headings"}`
      : `headings ${data.offset}–${data.offset + shown - 1} of ${data.total}`;
  const lines = [`Table of contents of ${data.path} (${range}, ${data.lines} lines):`];
  for (const entry of data.toc) {
    lines.push(
      `${"  ".repeat(entry.level - shallowest)}- ${entry.title} (H${entry.level}, line ${entry.line})`,
    );
  }
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: options.toolName ?? EXTRACT_TOC_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "headings",
        args: { path: data.path, limit: data.limit },
      }),
    );
  }
  return lines.join("\n");
}

/**
 * Creates the `extract_toc` tool: the headings of a Markdown document (ATX and Setext, never
 * inside fenced or indented code, comments or front matter) as `{ level, title, line }`, paged
 * with `offset` / `limit`.
 *
 * @param options - the workspace, caps, the mounted tools and name/description overrides
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
  const defaultLimit = parsed.defaultLimit ?? DEFAULT_TOC_LIMIT;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_TOC_LIMIT;
  const name = parsed.name ?? EXTRACT_TOC_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const readTool = mounted.first("read_file");
  return defineTool({
    name,
    description: parsed.description ?? description(mounted),
    input: createInputSchema(defaultLimit, maxLimit),
    aliases: DOCUMENT_PATH_ALIASES,
    annotations: { title: "Extract table of contents", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    execute: async (request) => {
      const loaded = await loadTextDocument(workspace, request.path, maxBytes, name);
      if (!loaded.success) return loaded;
      const document = parseMarkdown(loaded.data.text);
      const offset = request.offset ?? 1;
      const total = document.headings.length;
      if (isOffsetPastEnd(offset, total)) {
        return offsetPastEnd({ tool: name, offset, total, unit: "headings" });
      }
      const limit = request.limit ?? defaultLimit;
      const end = offset - 1 + limit;
      const data: ExtractTocToolData = {
        path: loaded.data.display,
        offset,
        limit,
        toc: document.headings.slice(offset - 1, end),
        total,
        truncated: end < total,
        lines: document.lines,
      };
      if (end < total) data.next_offset = end + 1;
      return ok(data);
    },
    render: (data) =>
      formatTableOfContents(data, {
        toolName: name,
        ...(readTool === undefined ? {} : { readTool }),
      }),
  });
}
