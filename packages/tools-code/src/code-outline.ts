import {
  defineTool,
  formatCount,
  formatPageMarker,
  givenCallArguments,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  pageItems,
  pagingInputShape,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import { workspaceFromOptions } from "@agentool/tools-fs/node";
import { z } from "zod";
import {
  type CodeToolOptions,
  codeToolOptionsShape,
  DEFAULT_CODE_TIMEOUT_MS,
  DEFAULT_MAX_FILE_BYTES,
  readSourceFile,
} from "./internal/code-support.js";
import { symbolLine } from "./internal/render-symbols.js";
import {
  type ExtractionMethod,
  extractSymbols,
  type HeuristicReason,
} from "./internal/tree-sitter/extract-symbols.js";
import { type CodeSymbol, toCodeSymbol } from "./internal/tree-sitter/symbol.js";

export type { CodeSymbol, SymbolKind } from "./internal/tree-sitter/symbol.js";

/** The default name of the outline tool. */
export const CODE_OUTLINE_TOOL_NAME = "code_outline";

/** Default symbols per page. */
export const DEFAULT_OUTLINE_LIMIT = 300;

/** Most symbols one page may hold. */
export const MAX_OUTLINE_LIMIT = 2_000;

/** Options of {@link createCodeOutlineTool}. */
export type CodeOutlineToolOptions = CodeToolOptions;

/** What `code_outline` returns. */
export interface CodeOutlineToolData {
  /** The file, relative to the root. */
  path: string;
  /** Its language (`typescript`, `python`…), or `unknown` when neither its name nor a shebang tells. */
  language: string;
  /** `tree-sitter`: from the syntax tree; `heuristic`: from line patterns, approximate. */
  method: ExtractionMethod;
  /** Why the outline is heuristic (`no_grammar`, `too_large`, `parse_timeout`, `grammar_unavailable`, `parse_failed`), when it is. */
  heuristic_reason?: HeuristicReason;
  /** Syntax errors the parser recovered from (the outline may miss declarations near them). */
  syntax_errors: number;
  /** Lines in the file. */
  total_lines: number;
  /** This page of symbols in document order (a container before its members). */
  symbols: CodeSymbol[];
  /** 1-based position of the page's first symbol. */
  offset: number;
  /** Symbols in all (exact). */
  total: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether symbols after this page were left out. */
  truncated: boolean;
  /** The call's arguments besides offset (the next-page marker repeats them). */
  call_arguments: Record<string, string | number>;
  /** Why the outline is empty, when it is. */
  empty_reason?: string;
}

function createInputSchema() {
  return z.object({
    path: z.string().min(1).describe("The source file, relative to the workspace root."),
    ...pagingInputShape({
      unit: "symbol",
      defaultLimit: DEFAULT_OUTLINE_LIMIT,
      maxLimit: MAX_OUTLINE_LIMIT,
      offsetDescription: "1-based first symbol (default 1).",
      limitDescription: `Most symbols (default ${DEFAULT_OUTLINE_LIMIT}).`,
    }),
  });
}

/** The outline tool's input schema. */
export const codeOutlineInputSchema = createInputSchema();

/** The outline tool's type. */
export type CodeOutlineTool = Tool<typeof codeOutlineInputSchema, CodeOutlineToolData>;

/** Field aliases `code_outline` accepts silently (alias → field). */
export const CODE_OUTLINE_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  file: "path",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "List one source file's declarations (classes, functions, methods, fields, types…) with start-end lines and one-line signatures, nested; no bodies.",
    `Call it before reading a large file${mounted.when("read_file", ", then read_file with offset=start_line and limit=end_line-start_line+1 to open just the part you need")}.`,
    "Parsed with tree-sitter for most languages; others (JSON, YAML, Markdown…) get a labelled heuristic outline.",
  ]);
}

const REASONS: Readonly<Record<HeuristicReason, string>> = {
  no_grammar: "no grammar for this language: keys, headings or keyword lines found by pattern",
  too_large: "the file is over the parse size cap: keyword lines found by pattern",
  parse_timeout: "parsing took too long: keyword lines found by pattern",
  grammar_unavailable: "the grammar could not be loaded: keyword lines found by pattern",
  parse_failed: "the parser failed on this file: keyword lines found by pattern",
};

/** Options of {@link formatCodeOutline}. */
export interface CodeOutlineFormatOptions {
  /** The tool's name, for the next-page marker. Default `code_outline`. */
  toolName?: string;
}

/**
 * Renders an outline for a model: a header with the language and counts, then one line per
 * symbol (`start-end  signature`, indented by depth, the kind first when the signature does not
 * say it), then the next-page marker.
 *
 * @param data - the tool's data
 * @param options - the tool's name
 * @returns model-facing text
 * @example
 * formatCodeOutline(result.data); // "src/a.ts — typescript, 3 symbols, 9 lines\n1-9       export class Parser\n…"
 */
export function formatCodeOutline(
  data: CodeOutlineToolData,
  options: CodeOutlineFormatOptions = {},
): string {
  const lines: string[] = [];
  const counts = `${formatCount(data.total)} symbol${data.total === 1 ? "" : "s"}, ${formatCount(data.total_lines)} line${data.total_lines === 1 ? "" : "s"}`;
  lines.push(`${data.path} — ${data.language}, ${counts}`);
  if (data.method === "heuristic") {
    lines.push(
      `Heuristic outline (${REASONS[data.heuristic_reason ?? "no_grammar"]}); spans are approximate.`,
    );
  }
  if (data.syntax_errors > 0) {
    lines.push(
      `The file has ${formatCount(data.syntax_errors)} syntax error${data.syntax_errors === 1 ? "" : "s"}; declarations near them may be missing.`,
    );
  }
  if (data.empty_reason !== undefined) {
    lines.push(data.empty_reason);
    return lines.join("\n");
  }
  if (data.offset > 1 || data.truncated) {
    lines.push(
      `Symbols ${formatCount(data.offset)}–${formatCount(data.offset + data.symbols.length - 1)} of ${formatCount(data.total)}:`,
    );
  }
  for (const symbol of data.symbols) lines.push(symbolLine(symbol, { indent: true }));
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: options.toolName ?? CODE_OUTLINE_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "symbols",
        args: data.call_arguments,
      }),
    );
  }
  return lines.join("\n");
}

const optionsSchema = z.object(codeToolOptionsShape).strict();

/**
 * Creates the `code_outline` tool: one file's declarations with kinds, signatures and line
 * spans, from its tree-sitter syntax tree (or a labelled heuristic outline where no grammar
 * applies), paged. Read-only; paths confined to the workspace, secrets refused.
 *
 * @param options - `root` (or a tools-fs `workspace`), caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const outline = createCodeOutlineTool({ root: "/work/repo" });
 * await outline.run({ path: "src/parser.ts" }); // { success: true, data: { symbols: [...], … } }
 */
export function createCodeOutlineTool(options: CodeOutlineToolOptions): CodeOutlineTool {
  const parsed = parseOptions("createCodeOutlineTool", optionsSchema, options);
  const workspace = workspaceFromOptions("createCodeOutlineTool", parsed);
  const name = parsed.name ?? CODE_OUTLINE_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const missingHint =
    mounted.first("glob_search", "list_directory") === undefined
      ? "Check the path (relative to the workspace root)."
      : `Find the right path with ${mounted.filter(["glob_search", "list_directory"]).join(" or ")}.`;
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: codeOutlineInputSchema,
    aliases: CODE_OUTLINE_ALIASES,
    annotations: { title: "Outline a source file", readOnly: true, idempotent: true },
    tags: ["code", "code:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_CODE_TIMEOUT_MS,
    execute: async (request, context) => {
      const source = await readSourceFile(workspace, request.path, { maxFileBytes, missingHint });
      const extraction = await extractSymbols(source.language, source.text, {
        signal: context.signal,
      });
      const symbols = extraction.symbols.map(toCodeSymbol);
      const offset = request.offset ?? 1;
      if (isOffsetPastEnd(offset, symbols.length)) {
        return offsetPastEnd({ tool: name, offset, total: symbols.length, unit: "symbols" });
      }
      const { items, page } = pageItems(symbols, {
        offset,
        limit: request.limit ?? DEFAULT_OUTLINE_LIMIT,
      });
      const totalLines =
        source.text.length === 0
          ? 0
          : source.text.split("\n").length - (source.text.endsWith("\n") ? 1 : 0);
      const data: CodeOutlineToolData = {
        path: source.resolved.display,
        language: source.language ?? "unknown",
        method: extraction.method,
        ...(extraction.heuristicReason === undefined
          ? {}
          : { heuristic_reason: extraction.heuristicReason }),
        syntax_errors: extraction.errorCount,
        total_lines: totalLines,
        symbols: items,
        offset,
        ...page,
        call_arguments: givenCallArguments(request) as Record<string, string | number>,
      };
      if (symbols.length === 0) {
        data.empty_reason =
          totalLines === 0
            ? "The file is empty."
            : `No declarations found${source.language === undefined ? " (the language is not known from the file name: only keyword lines were looked for)" : ""}.${mounted.when("read_file", " Read it with read_file.")}`;
      }
      return ok(data);
    },
    render: (data) => formatCodeOutline(data, { toolName: name }),
  });
}
