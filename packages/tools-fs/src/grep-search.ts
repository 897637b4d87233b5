import {
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
  truncateText,
} from "@agentool/contract";
import { z } from "zod";
import { createJsSearcher } from "./internal/js-search.js";
import type {
  GrepOutputMode,
  SearchLine,
  SearchRequest,
  SearchScope,
  TextSearcher,
} from "./internal/search-types.js";
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the search tool. */
export const GREP_SEARCH_TOOL_NAME = "grep_search";

/** Default number of results (matching lines, or files) when the model gives no `limit`. */
export const DEFAULT_GREP_LIMIT = 100;

/** Default highest `limit` a model may ask for. */
export const DEFAULT_GREP_MAX_LIMIT = 1_000;

/** Default longest line shown; longer lines are cut around the match. */
export const DEFAULT_GREP_MAX_LINE_CHARACTERS = 300;

/** Default cap on the rendered result, in characters. */
export const DEFAULT_GREP_MAX_OUTPUT_CHARACTERS = 40_000;

/** Most lines of context a model may ask for. */
export const MAX_GREP_CONTEXT_LINES = 10;

/** Default time limit of one search: 30 seconds. */
export const DEFAULT_GREP_TIMEOUT_MS = 30_000;

/** The output modes of `grep_search`. */
export const GREP_OUTPUT_MODES = ["content", "files_with_matches", "count"] as const;

/** Why a search found nothing. */
export type GrepEmptyReason =
  | "no_match"
  | "no_files"
  | "glob_matched_nothing"
  | "only_hidden_or_ignored";

/** One matching or context line. */
export type GrepSearchLine = SearchLine;

/** The results in one file. */
export interface GrepSearchFile {
  /** Workspace path, relative to the root (POSIX). */
  path: string;
  /** Matching lines found in the file (count mode: all of them). */
  count: number;
  /** Matching and context lines, in order (content mode only). */
  lines?: GrepSearchLine[];
}

/** What `grep_search` returns. */
export interface GrepSearchToolData {
  /** The pattern searched for. */
  pattern: string;
  /** The searched path as shown to the model (`.` for the root). */
  path: string;
  /** The glob, when one was given. */
  glob?: string;
  /** How results are reported. */
  outputMode: GrepOutputMode;
  /** Files with results, sorted by path. */
  files: GrepSearchFile[];
  /** Matching lines in the result. */
  matchCount: number;
  /** Whether the search stopped at the limit (more results exist). */
  truncated: boolean;
  /** Results found beyond the limit before the search stopped (at least this many more exist). */
  overflow: number;
  /** The limit that applied. */
  limit: number;
  /** Why the result is empty, when it is. */
  emptyReason?: GrepEmptyReason;
  /** What the model should know about the result (why it is empty, how to get the rest). */
  message?: string;
}

/** Options of {@link createGrepSearchTool}. */
export interface GrepSearchToolOptions {
  /** The workspace (confinement, secret paths, seam). */
  workspace: Workspace;
  /**
   * The search engine. Default: the pure-JS engine over the workspace's seam. The Node entry
   * passes `createRipgrepSearcher({ root })` from `@agentool/tools-fs/node`.
   */
  searcher?: TextSearcher;
  /** Results when the model gives no limit. Default {@link DEFAULT_GREP_LIMIT} (100). */
  defaultLimit?: number;
  /** Highest limit a model may ask for. Default {@link DEFAULT_GREP_MAX_LIMIT} (1,000). */
  maxLimit?: number;
  /** Longest line shown. Default {@link DEFAULT_GREP_MAX_LINE_CHARACTERS} (300). */
  maxLineCharacters?: number;
  /** Cap on the rendered result. Default {@link DEFAULT_GREP_MAX_OUTPUT_CHARACTERS} (40,000). */
  maxOutputCharacters?: number;
  /** Time limit of one search in ms (`0` = none). Default {@link DEFAULT_GREP_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const searcherOption = z.custom<TextSearcher>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as TextSearcher).search === "function",
  { error: "expected a TextSearcher ({ kind, search(request, signal) })" },
);

const grepSearchOptionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  searcher: searcherOption.optional(),
  defaultLimit: z.number().int().min(1).max(100_000).optional(),
  maxLimit: z.number().int().min(1).max(100_000).optional(),
  maxLineCharacters: z.number().int().min(20).max(100_000).optional(),
  maxOutputCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  timeoutMs: z.number().int().min(0).optional(),
});

function createGrepSearchInputSchema(maxLimit: number, defaultLimit: number) {
  return z.object({
    pattern: z
      .string()
      .min(1)
      .describe(
        "Regular expression (Rust/ripgrep syntax) to search file contents for; plain text when literal=true.",
      ),
    path: z
      .string()
      .optional()
      .describe(
        "Directory or file to search, relative to the workspace root. Default: the whole workspace.",
      ),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Only search files whose path (relative to the root) matches this glob, e.g. '*.ts', 'src/**/*.md'; '!*.min.js' excludes.",
      ),
    ignore_case: z.boolean().optional().describe("Match regardless of letter case. Default false."),
    literal: z
      .boolean()
      .optional()
      .describe("Treat pattern as plain text, not a regular expression. Default false."),
    context_lines: z
      .number()
      .int()
      .min(0)
      .max(MAX_GREP_CONTEXT_LINES)
      .optional()
      .describe(
        `Lines shown before and after each match (0-${MAX_GREP_CONTEXT_LINES}, content mode). Default 0.`,
      ),
    output_mode: z
      .enum(GREP_OUTPUT_MODES)
      .optional()
      .describe(
        '"content" (matching lines, default), "files_with_matches" (paths only) or "count" (matches per file).',
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .optional()
      .describe(
        `Most results: matching lines in content mode, files otherwise (1-${maxLimit}). Default ${defaultLimit}.`,
      ),
  });
}

/** The input schema of `grep_search` (default limits). */
export const grepSearchInputSchema = createGrepSearchInputSchema(
  DEFAULT_GREP_MAX_LIMIT,
  DEFAULT_GREP_LIMIT,
);

/** The input of `grep_search`. */
export type GrepSearchInput = z.input<typeof grepSearchInputSchema>;

/** The `grep_search` tool's type. */
export type GrepSearchTool = Tool<typeof grepSearchInputSchema, GrepSearchToolData>;

function defaultDescription(defaultLimit: number): string {
  return [
    "Search file contents in the workspace with a regular expression (ripgrep). Use it to find where",
    "something is defined or used before reading files. Respects .gitignore; skips hidden, binary and",
    "secret files. Results are sorted by path with line numbers.",
    'Start broad with output_mode="files_with_matches" or "count", then narrow with glob (e.g. "src/**/*.ts")',
    "or path and read the hits with read_file. Use literal=true for text with regex characters like ( [ . *;",
    `context_lines for surrounding lines. At most ${defaultLimit} results by default (limit to change);`,
    "a truncated result says how to narrow it. Find files by name with glob_search instead.",
  ].join(" ");
}

function renderLines(lines: readonly SearchLine[]): string {
  const out: string[] = [];
  let previous: number | undefined;
  for (const line of lines) {
    if (previous !== undefined && line.line > previous + 1) out.push("--");
    const suffix = line.cut !== undefined ? ` …[line cut: ${line.cut} characters not shown]` : "";
    out.push(`${line.line}${line.kind === "match" ? ":" : "-"} ${line.text}${suffix}`);
    previous = line.line;
  }
  return out.join("\n");
}

/**
 * Renders a `grep_search` result for the model: a summary line, then per file its path and its
 * lines (`12: match`, `13- context`, `--` between groups), or paths / counts, and the truncation
 * marker when the search stopped at the limit.
 *
 * @param data - the tool's data
 * @param maxOutputCharacters - cap on the text
 * @returns model-facing text
 * @example
 * formatGrepSearchResult(data); // "3 matches in 2 files for /TODO/ in .:\nsrc/a.ts\n12: // TODO…"
 */
export function formatGrepSearchResult(
  data: GrepSearchToolData,
  maxOutputCharacters: number = DEFAULT_GREP_MAX_OUTPUT_CHARACTERS,
): string {
  const where = `${data.path}${data.glob === undefined ? "" : ` (glob ${data.glob})`}`;
  if (data.files.length === 0)
    return data.message ?? `No match for ${JSON.stringify(data.pattern)} in ${where}.`;
  const fileWord = data.files.length === 1 ? "file" : "files";
  const head =
    data.outputMode === "files_with_matches"
      ? `${data.files.length} ${fileWord} contain ${JSON.stringify(data.pattern)} in ${where}:`
      : `${data.matchCount} matching line${data.matchCount === 1 ? "" : "s"} in ${data.files.length} ${fileWord} for ${JSON.stringify(data.pattern)} in ${where}:`;
  let body: string;
  if (data.outputMode === "content") {
    body = data.files.map((file) => `${file.path}\n${renderLines(file.lines ?? [])}`).join("\n\n");
  } else if (data.outputMode === "count") {
    body = data.files.map((file) => `${file.path}: ${file.count}`).join("\n");
  } else {
    body = data.files.map((file) => file.path).join("\n");
  }
  const text = truncateText(`${head}\n${body}`, {
    maxCharacters: maxOutputCharacters,
    next: 'narrow the search with glob or path, lower context_lines, or use output_mode="files_with_matches"',
  }).text;
  return data.message === undefined ? text : `${text}\n${data.message}`;
}

function dirname(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash);
}

/**
 * Creates the `grep_search` tool: regex or literal search over file contents, confined to the
 * workspace, `.gitignore`-aware, never reading hidden or secret files whatever the glob. Results
 * are sorted by path and line and capped; the engine stops as soon as the cap is reached, and the
 * result's truncation marker says how to narrow the search. An empty result says why: no match,
 * a glob that matched no file, or matches only in hidden or ignored files.
 *
 * @param options - the workspace, the engine (default: pure JS over the seam) and the caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const grep = createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root }) });
 * await grep.run({ pattern: "TODO", glob: "src/**\/*.ts", output_mode: "files_with_matches" });
 */
export function createGrepSearchTool(options: GrepSearchToolOptions): GrepSearchTool {
  const parsed = parseOptions("createGrepSearchTool", grepSearchOptionsSchema, options);
  const workspace = parsed.workspace;
  const maxLimit = parsed.maxLimit ?? DEFAULT_GREP_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_GREP_LIMIT, maxLimit);
  const maxLineCharacters = parsed.maxLineCharacters ?? DEFAULT_GREP_MAX_LINE_CHARACTERS;
  const maxOutputCharacters = parsed.maxOutputCharacters ?? DEFAULT_GREP_MAX_OUTPUT_CHARACTERS;
  const searcher = parsed.searcher ?? createJsSearcher({ fileSystem: workspace.fileSystem });
  const secretGlobs = workspace.secretPaths;
  const name = parsed.name ?? GREP_SEARCH_TOOL_NAME;
  const input = createGrepSearchInputSchema(
    maxLimit,
    defaultLimit,
  ) as unknown as typeof grepSearchInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(defaultLimit),
    input,
    annotations: { title: "Search file contents", readOnly: true, idempotent: true },
    tags: ["fs:search"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_GREP_TIMEOUT_MS,
    execute: (request, context) =>
      guardFileSystem(async () => {
        const resolved = await workspace.resolve(request.path, { argument: "path" });
        const stat = await workspace.fileSystem.stat(resolved.real);
        if (stat === undefined) {
          return fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
            hint: "Call glob_search or list_directory to find the right path, or omit path to search the whole workspace.",
          });
        }
        const glob = request.glob?.trim() || undefined;
        const scope: SearchScope = {
          path: resolved.real,
          pathType: stat.type === "directory" ? "directory" : "file",
          glob,
          includeHiddenAndIgnored: false,
          isSecret: (path) => workspace.isSecret(path),
          secretGlobs,
        };
        const limit = request.limit ?? defaultLimit;
        const outputMode = request.output_mode ?? "content";
        const searchRequest: SearchRequest = {
          ...scope,
          pattern: request.pattern,
          literal: request.literal ?? false,
          ignoreCase: request.ignore_case ?? false,
          contextLines: outputMode === "content" ? (request.context_lines ?? 0) : 0,
          outputMode,
          limit,
          maxLineCharacters,
        };
        const outcome = await searcher.search(searchRequest, context.signal);
        const files: GrepSearchFile[] = outcome.files.map((file) =>
          outputMode === "content"
            ? { path: file.path, count: file.count, lines: file.lines }
            : { path: file.path, count: file.count },
        );
        const data: GrepSearchToolData = {
          pattern: request.pattern,
          path: resolved.display,
          outputMode,
          files,
          matchCount: files.reduce((sum, file) => sum + file.count, 0),
          truncated: outcome.truncated,
          overflow: outcome.overflow,
          limit,
        };
        if (glob !== undefined) data.glob = glob;
        const where = `${resolved.display}${glob === undefined ? "" : ` (glob ${glob})`}`;
        if (outcome.truncated) {
          const unit = outputMode === "content" ? "matches at least" : "files at least";
          const raise = limit < maxLimit ? ` or raise limit (up to ${maxLimit})` : "";
          data.message = formatTruncationMarker({
            omitted: Math.max(1, outcome.overflow),
            unit,
            next: `the search stopped at limit=${limit}; narrow it with glob (e.g. "src/**/*.ts") or path, use output_mode="files_with_matches" or "count" for an overview${raise}`,
          });
        } else if (files.length === 0) {
          const probe = await searcher.search(
            {
              ...searchRequest,
              includeHiddenAndIgnored: true,
              outputMode: "files_with_matches",
              limit: 1,
              contextLines: 0,
            },
            context.signal,
          );
          const example = probe.files[0]?.path;
          if (example !== undefined) {
            data.emptyReason = "only_hidden_or_ignored";
            data.message = `No match for ${JSON.stringify(request.pattern)} in the searched files of ${where}; matches exist only in hidden or .gitignore'd files (e.g. ${example}). To search there, call again with path="${dirname(example)}".`;
          } else if (!outcome.searchedAnyFile) {
            data.emptyReason = glob === undefined ? "no_files" : "glob_matched_nothing";
            data.message =
              glob === undefined
                ? `No match: there is no searchable file in ${resolved.display}. Check the path with list_directory.`
                : `No match: the glob ${JSON.stringify(glob)} matched no file in ${resolved.display} (globs match paths relative to the root, e.g. "**/*.ts" or "src/**"). Check it with glob_search, or drop the glob.`;
          } else {
            data.emptyReason = "no_match";
            data.message = `No match for ${JSON.stringify(request.pattern)} in ${where}${request.literal ? "" : " (a regular expression; pass literal=true for plain text)"}${request.ignore_case ? "" : "; try ignore_case=true"} or a broader pattern.`;
          }
        }
        return ok(data);
      }),
    render: (data) => formatGrepSearchResult(data, maxOutputCharacters),
  });
}
