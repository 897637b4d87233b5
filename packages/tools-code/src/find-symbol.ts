import {
  AgentoolError,
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
  ToolFailureError,
} from "@agentool/contract";
import type { SearchRequest, TextSearcher } from "@agentool/tools-fs";
import { createRipgrepSearcher, workspaceFromOptions } from "@agentool/tools-fs/node";
import { z } from "zod";
import { refuseSpecialFile } from "./internal/ast-grep/skipped-files.js";
import {
  type CodeToolOptions,
  codeToolOptionsShape,
  DEFAULT_CODE_TIMEOUT_MS,
  DEFAULT_MAX_FILE_BYTES,
} from "./internal/code-support.js";
import { definitionsIn } from "./internal/definitions-in.js";
import { formatLineRange, symbolText } from "./internal/render-symbols.js";
import { symbolCacheOf } from "./internal/symbol-cache.js";
import { matchesSymbol, parseSymbolQuery } from "./internal/symbol-query.js";
import { preloadLanguages } from "./internal/tree-sitter/parse-pool.js";
import type { CodeSymbol, SymbolKind } from "./internal/tree-sitter/symbol.js";

/** The default name of the symbol search tool. */
export const FIND_SYMBOL_TOOL_NAME = "find_symbol";

/** Default hits per page. */
export const DEFAULT_FIND_SYMBOL_LIMIT = 50;

/** Most hits one page may hold. */
export const MAX_FIND_SYMBOL_LIMIT = 500;

/** Most files the text search may shortlist; past it the total is a lower bound. */
export const MAX_SHORTLISTED_FILES = 20_000;

/** Options of {@link createFindSymbolTool}. */
export interface FindSymbolToolOptions extends CodeToolOptions {
  /**
   * The text search that shortlists files. Default: ripgrep over `root` (`createRipgrepSearcher`
   * of `@agentool/tools-fs/node`); required with `workspace`.
   */
  searcher?: TextSearcher;
}

/** One definition found. */
export interface SymbolHit extends CodeSymbol {
  /** The file, relative to the root. */
  path: string;
  /** Its language. */
  language: string;
  /** Present when the file's outline is heuristic (too large or too slow to parse): the span is approximate. */
  heuristic?: true;
}

/** What `find_symbol` returns. */
export interface FindSymbolToolData {
  /** The name searched for, as given. */
  name: string;
  /** The kind filter, when given. */
  kind?: string;
  /** The searched path (`.` for the whole workspace). */
  path: string;
  /** This page of definitions, in path order then line order. */
  hits: SymbolHit[];
  /** 1-based position of the page's first hit. */
  offset: number;
  /** Definitions in all (exact, when every shortlisted file was read). */
  total: number;
  /** A lower bound instead of `total` when more files mention the name than were read. */
  total_at_least?: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether hits after this page were left out. */
  truncated: boolean;
  /** Files whose text contains the name (the shortlist). */
  files_mentioning: number;
  /** Shortlisted files parsed (those of a language with a grammar). */
  files_parsed: number;
  /** The call's arguments besides offset (the next-page marker repeats them). */
  call_arguments: Record<string, string | number>;
  /** Why nothing was found and what to try, when the result is empty. */
  message?: string;
}

/** The kinds `find_symbol` filters on (the heuristic outlines' headings, keys… are not offered). */
export const FIND_SYMBOL_KINDS = [
  "class",
  "interface",
  "struct",
  "trait",
  "enum",
  "type",
  "function",
  "method",
  "constructor",
  "property",
  "field",
  "variable",
  "constant",
  "module",
  "namespace",
] as const satisfies readonly SymbolKind[];

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds.
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

function createInputSchema() {
  return z.object({
    name: z
      .string()
      .min(1)
      .max(300)
      .refine((value) => !CONTROL_CHARACTER.test(value), "name has a control character.")
      .describe("A name (parse) or qualified name (Parser.parse, module.func, Outer::Inner)."),
    kind: z.enum(FIND_SYMBOL_KINDS).optional().describe("Only this kind."),
    path: z.string().optional().describe("Only under this directory or file (default: all)."),
    ...pagingInputShape({
      unit: "definition",
      defaultLimit: DEFAULT_FIND_SYMBOL_LIMIT,
      maxLimit: MAX_FIND_SYMBOL_LIMIT,
      offsetDescription: "1-based first definition (default 1).",
      limitDescription: `Most definitions (default ${DEFAULT_FIND_SYMBOL_LIMIT}).`,
    }),
  });
}

/** The symbol search tool's input schema. */
export const findSymbolInputSchema = createInputSchema();

/** The symbol search tool's type. */
export type FindSymbolTool = Tool<typeof findSymbolInputSchema, FindSymbolToolData>;

/** Field aliases `find_symbol` accepts silently (alias → field). */
export const FIND_SYMBOL_ALIASES: Readonly<Record<string, string>> = {
  symbol: "name",
  symbol_name: "name",
  query: "name",
  name_path: "name",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Find where a class, function, method, type or constant is declared across the workspace: each definition as path:start-end with its signature.",
    mounted.has("read_file")
      ? `Open a hit with read_file${mounted.has("code_outline") ? " at its lines" : " (offset=start_line, limit=end_line-start_line+1)"}.`
      : "",
    mounted.when("find_references", "For the places that use a name, call find_references."),
    mounted.when(
      "grep_search",
      "For text in comments, strings or config, or a name built at run time, use grep_search.",
    ),
    "Syntactic (tree-sitter, no type resolution); skips .gitignore'd, hidden and secret files.",
  ]);
}

/** Options of {@link formatFindSymbol}. */
export interface FindSymbolFormatOptions {
  /** The tool's name, for the next-page marker. Default `find_symbol`. */
  toolName?: string;
}

/**
 * Renders definitions for a model: a count line, then `path:start-end  signature  (in Parent)`
 * per hit (the kind first when the signature does not say it), then the next-page marker; an
 * empty result says why and what to try.
 *
 * @param data - the tool's data
 * @param options - the tool's name
 * @returns model-facing text
 * @example
 * formatFindSymbol(result.data); // "2 definitions of parse:\nsrc/a.ts:12-30  method parse(input: string)  (in Parser)\n…"
 */
export function formatFindSymbol(
  data: FindSymbolToolData,
  options: FindSymbolFormatOptions = {},
): string {
  if (data.hits.length === 0) return data.message ?? `No definition of ${data.name} found.`;
  const count =
    data.total_at_least === undefined
      ? formatCount(data.total)
      : `at least ${formatCount(data.total_at_least)}`;
  const where = data.path === "." ? "" : ` under ${data.path}`;
  const lines = [
    `${count} definition${data.total === 1 ? "" : "s"} of ${data.name}${data.kind === undefined ? "" : ` (${data.kind})`}${where}:`,
  ];
  for (const hit of data.hits) {
    const range = formatLineRange(hit.start_line, hit.end_line);
    lines.push(
      `${hit.path}:${range}  ${symbolText(hit, { qualified: true })}${hit.heuristic ? "  (heuristic span)" : ""}`,
    );
  }
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: options.toolName ?? FIND_SYMBOL_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: (data.total_at_least ?? data.total) - data.next_offset + 1,
        unit: "definitions",
        ...(data.total_at_least === undefined ? {} : { atLeast: true }),
        args: data.call_arguments,
      }),
    );
  }
  return lines.join("\n");
}

const optionsSchema = z
  .object({
    ...codeToolOptionsShape,
    searcher: z
      .custom<TextSearcher>(
        (value) =>
          typeof value === "object" &&
          value !== null &&
          typeof (value as TextSearcher).search === "function",
        { error: "expected a TextSearcher (createRipgrepSearcher from @agentool/tools-fs/node)" },
      )
      .optional(),
  })
  .strict();

/**
 * Creates the `find_symbol` tool: definitions of a name across the workspace. A literal text
 * search (ripgrep: `.gitignore`, hidden and secret files skipped) shortlists the files that
 * contain the name; tree-sitter parses each and keeps the declarations whose name (or qualified
 * name) matches. Every shortlisted file is stat'ed, so totals are exact; a file's symbols are
 * parsed once per version (size, mtime and inode) and kept in the workspace's symbol cache
 * (bounded, shared with `repo_map` of the same workspace), so a warm call reads only changed
 * files. Read-only.
 *
 * @param options - `root` (or `workspace` + `searcher`), caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const findSymbol = createFindSymbolTool({ root: "/work/repo" });
 * await findSymbol.run({ name: "Parser.parse" }); // hits: [{ path: "src/parser.ts", start_line: 12, … }]
 */
export function createFindSymbolTool(options: FindSymbolToolOptions): FindSymbolTool {
  const parsed = parseOptions("createFindSymbolTool", optionsSchema, options);
  const workspace = workspaceFromOptions("createFindSymbolTool", parsed);
  if (parsed.searcher === undefined && parsed.root === undefined) {
    throw new AgentoolError(
      "createFindSymbolTool: with a workspace, also give searcher (createRipgrepSearcher({ root }) from @agentool/tools-fs/node).",
    );
  }
  const searcher = parsed.searcher ?? createRipgrepSearcher({ root: parsed.root as string });
  const name = parsed.name ?? FIND_SYMBOL_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const cache = symbolCacheOf(workspace);
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: findSymbolInputSchema,
    aliases: FIND_SYMBOL_ALIASES,
    annotations: { title: "Find symbol definitions", readOnly: true, idempotent: true },
    tags: ["code", "code:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_CODE_TIMEOUT_MS,
    execute: async (request, context) => {
      // A fresh process compiles the WebAssembly runtime while rg shortlists.
      preloadLanguages();
      const query = parseSymbolQuery(request.name);
      const resolved = await workspace.resolve(request.path, { argument: "path" });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined) {
        throw new ToolFailureError("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
          hint: "Omit path to search the whole workspace.",
        });
      }
      // A FIFO would block the search until the time limit; a socket or device is no source.
      refuseSpecialFile(resolved, stat.type);
      const searchRequest: SearchRequest = {
        path: resolved.real,
        pathType: stat.type === "directory" ? "directory" : "file",
        glob: undefined,
        includeHiddenAndIgnored: false,
        isSecret: (path) => workspace.isSecret(path),
        secretGlobs: workspace.secretPaths,
        pattern: query.last,
        literal: true,
        ignoreCase: false,
        contextLines: 0,
        outputMode: "files_with_matches",
        offset: 1,
        limit: MAX_SHORTLISTED_FILES,
        maxLineCharacters: 300,
      };
      const shortlist = await searcher.search(searchRequest, context.signal);
      const { hits, parsedFiles } = await definitionsIn(
        { workspace, cache, maxFileBytes, signal: context.signal, progress: context.progress },
        shortlist.files.map((file) => file.path),
        (symbol, path) =>
          (request.kind === undefined || symbol.kind === request.kind) &&
          matchesSymbol(symbol, query, path),
      );
      const offset = request.offset ?? 1;
      if (hits.length > 0 && isOffsetPastEnd(offset, hits.length)) {
        return offsetPastEnd({ tool: name, offset, total: hits.length, unit: "definitions" });
      }
      const { items, page } = pageItems(hits, {
        offset,
        limit: request.limit ?? DEFAULT_FIND_SYMBOL_LIMIT,
      });
      const data: FindSymbolToolData = {
        name: request.name,
        ...(request.kind === undefined ? {} : { kind: request.kind }),
        path: resolved.display,
        hits: items,
        offset,
        ...page,
        files_mentioning: shortlist.files.length,
        files_parsed: parsedFiles,
        call_arguments: givenCallArguments(request) as Record<string, string | number>,
      };
      if (shortlist.total === undefined) data.total_at_least = hits.length;
      if (hits.length === 0) data.message = emptyMessage(data, query.last, mounted);
      return ok(data);
    },
    render: (data) => formatFindSymbol(data, { toolName: name }),
  });
}

function emptyMessage(data: FindSymbolToolData, last: string, mounted: MountedTools): string {
  const where = data.path === "." ? "the workspace" : data.path;
  const kind = data.kind === undefined ? "" : ` of kind ${data.kind}`;
  if (data.files_mentioning === 0) {
    return joinSentences([
      `No definition of ${data.name}: no file in ${where} contains the text ${JSON.stringify(last)} (.gitignore'd, hidden and secret files are not searched).`,
      "Check the spelling and letter case.",
      mounted.when("grep_search", "grep_search with ignore_case=true finds near spellings."),
    ]);
  }
  return joinSentences([
    `No definition of ${data.name}${kind} in the ${formatCount(data.files_mentioning)} file${data.files_mentioning === 1 ? "" : "s"} of ${where} that mention it (${formatCount(data.files_parsed)} parsed).`,
    "It may be declared outside the workspace (a dependency), in a language without a grammar, or built at run time.",
    data.kind === undefined ? "" : "Try again without kind.",
    mounted.when("find_references", "find_references lists where it is used."),
    mounted.when("grep_search", "grep_search shows every line that mentions it."),
  ]);
}
