import {
  defineTool,
  fail,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import {
  DEFAULT_GREP_MAX_OUTPUT_CHARACTERS,
  formatGrepSearchResult,
  GREP_SEARCH_TOOL_NAME,
} from "./grep-search-format.js";
import { createJsSearcher } from "./internal/js-search.js";
import { redactPrivateKeyLines } from "./internal/private-key-lines.js";
import type {
  GrepOutputMode,
  SearchFileResult,
  SearchLine,
  SearchRequest,
  SearchScope,
  TextSearcher,
} from "./internal/search-types.js";
import {
  echoPattern,
  pageLimitOptionsShape,
  unlistableOr,
  workspaceOption,
} from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

export {
  DEFAULT_GREP_MAX_OUTPUT_CHARACTERS,
  formatGrepSearchResult,
  GREP_SEARCH_TOOL_NAME,
} from "./grep-search-format.js";

/** Default number of results (matching lines, or files) when the model gives no `limit`. */
export const DEFAULT_GREP_LIMIT = 100;

/** Default highest `limit` a model may ask for. */
export const DEFAULT_GREP_MAX_LIMIT = 1_000;

/** Default longest line shown; longer lines are cut around the match. */
export const DEFAULT_GREP_MAX_LINE_CHARACTERS = 300;

/** Most lines of context a model may ask for. */
export const MAX_GREP_CONTEXT_LINES = 10;

/** Default time limit of one search: 30 seconds. */
export const DEFAULT_GREP_TIMEOUT_MS = 30_000;

/** The output modes of `grep_search`. */
export const GREP_OUTPUT_MODES = ["content", "files_with_matches", "count"] as const;

/**
 * Field names other toolsets use, accepted silently by `grep_search` (alias → field): their
 * meaning is unambiguous here.
 */
export const GREP_SEARCH_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  regex: "pattern",
  query: "pattern",
  include: "glob",
  include_pattern: "glob",
  case_insensitive: "ignore_case",
  fixed_strings: "literal",
  context: "context_lines",
  head_limit: "limit",
  max_results: "limit",
});

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
  /**
   * Content mode: matching lines of this file on this page. Count mode: every matching line of
   * the file. Absent in files_with_matches mode.
   */
  count?: number;
  /** Matching and context lines, in line order (content mode only). */
  lines?: GrepSearchLine[];
}

/** What `grep_search` returns (every key snake_case, as everything crossing the boundary). */
export interface GrepSearchToolData {
  /** The pattern searched for. */
  pattern: string;
  /** The searched path as shown to the model (`.` for the root). */
  path: string;
  /** The glob, when one was given. */
  glob?: string;
  /** How results are reported. */
  output_mode: GrepOutputMode;
  /** Lines of context asked for around each match (content mode). */
  context_lines?: number;
  /** Whether letter case was ignored. */
  ignore_case: boolean;
  /** Whether the pattern was plain text (not a regular expression). */
  literal: boolean;
  /** 1-based position of this page's first item (matching line in content mode, else file). */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's files, in path order. */
  files: GrepSearchFile[];
  /** Matching lines on this page (content and count modes). */
  match_count?: number;
  /** Items in all (matching lines in content mode, files otherwise), when all were counted. */
  total?: number;
  /** A true lower bound on the items in all, when the search stopped before counting all. */
  total_at_least?: number;
  /** Files with a match in all (content mode), when `total` is known. */
  total_files?: number;
  /** Matching lines in all (count mode), when `total` is known. */
  total_matches?: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether items after this page were left out. */
  truncated: boolean;
  /** Why the result is empty, when it is. */
  empty_reason?: GrepEmptyReason;
  /** A hidden or ignored file that matches, when the result is empty because of that. */
  example_path?: string;
  /** Why the result is empty and what to do, when it is. */
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
  /**
   * Cap on the rendered result; a page that would be longer is shortened (and `next_offset`
   * moves back). Default {@link DEFAULT_GREP_MAX_OUTPUT_CHARACTERS} (40,000).
   */
  maxOutputCharacters?: number;
  /** Time limit of one search in ms (`0` = none). Default {@link DEFAULT_GREP_TIMEOUT_MS}. */
  timeoutMs?: number;
  /**
   * Names of the tools mounted beside this one (`read_file`, `glob_search`, `list_directory`…);
   * the description and hints name only these. `createFsTools` passes what it mounts. Default:
   * none.
   */
  mountedTools?: readonly string[];
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
  ...toolOptionsShape,
  workspace: workspaceOption,
  searcher: searcherOption.optional(),
  ...pageLimitOptionsShape,
  maxLineCharacters: z.number().int().min(20).max(100_000).optional(),
  maxOutputCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  // No upper bound, unlike the shared shape's one day.
  timeoutMs: z.number().int().min(0).optional(),
});

function createGrepSearchInputSchema(maxLimit: number, defaultLimit: number) {
  const paging = pagingInputShape({
    unit: "result",
    defaultLimit,
    maxLimit,
  });
  return z.object({
    pattern: z.string().min(1).describe("Regex (Rust syntax); plain text when literal=true."),
    path: z
      .string()
      .optional()
      .describe("Directory or file to search (default the whole workspace)."),
    glob: z
      .string()
      .min(1)
      .optional()
      .describe("Only files matching this glob, e.g. 'src/**/*.ts'; '!*.min.js' excludes."),
    ignore_case: z.boolean().optional().describe("Ignore letter case."),
    literal: z.boolean().optional().describe("Pattern is plain text, e.g. for ( [ . *"),
    context_lines: z
      .number()
      .int()
      .min(0)
      .max(MAX_GREP_CONTEXT_LINES)
      .optional()
      .describe("Lines around each match (content mode)."),
    output_mode: z
      .enum(GREP_OUTPUT_MODES)
      .optional()
      .describe(
        "content: matching lines (default); files_with_matches: paths; count: matches per file.",
      ),
    offset: paging.offset.describe(
      "1-based first result: a matching line in content mode, else a file (default 1).",
    ),
    limit: paging.limit.describe(`Most results (default ${defaultLimit}).`),
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

function defaultDescription(mounted: MountedTools): string {
  return joinSentences(
    [
      "Search file contents with a regex (ripgrep); respects .gitignore, skips hidden, binary and secret files.",
      `Results sorted by path then line. Start with output_mode="files_with_matches" or "count", then narrow with glob or path${mounted.when("read_file", " and read hits with read_file")}.`,
      "A cut result ends with the call for the next page.",
      mounted.when("glob_search", "Find files by name with glob_search."),
    ],
    "\n",
  );
}

function dirname(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "." : path.slice(0, slash);
}

/** Rendered size of one content line (as {@link renderLines} writes it, with a margin). */
function lineCost(line: SearchLine): number {
  return String(line.line).length + line.text.length + (line.cut === undefined ? 3 : 96);
}

/**
 * Shortens a page so that its rendering fits `budget` characters: whole items (matches with
 * their context, or file rows) are dropped from the end, never cut in the middle; at least one
 * item stays.
 *
 * @returns the kept files and how many items they hold
 */
function fitPage(
  files: readonly SearchFileResult[],
  outputMode: GrepOutputMode,
  contextLines: number,
  budget: number,
): { files: SearchFileResult[]; items: number } {
  const kept: SearchFileResult[] = [];
  let used = 0;
  let items = 0;
  if (outputMode !== "content") {
    for (const file of files) {
      used += file.path.length + 12;
      if (used > budget && items > 0) break;
      kept.push(file);
      items += 1;
    }
    return { files: kept, items };
  }
  for (const file of files) {
    used += file.path.length + 2;
    const lines: SearchLine[] = [];
    let matches = 0;
    let lastMatch: number | undefined;
    let full = false;
    for (const line of file.lines) {
      const cost = lineCost(line) + (contextLines > 0 ? 3 : 0);
      if (line.kind === "match" && used + cost > budget && items > 0) {
        full = true;
        break;
      }
      used += cost;
      lines.push(line);
      if (line.kind === "match") {
        matches += 1;
        items += 1;
        lastMatch = line.line;
      }
    }
    if (full) {
      // Keep only the trailing context of the last kept match.
      while (
        lines.length > 0 &&
        lastMatch !== undefined &&
        (lines[lines.length - 1] as SearchLine).line > lastMatch + contextLines
      )
        lines.pop();
      if (matches > 0) kept.push({ path: file.path, count: matches, lines });
      break;
    }
    kept.push(file);
  }
  return { files: kept, items };
}

/**
 * Creates the `grep_search` tool: regex or literal search over file contents, confined to the
 * workspace, `.gitignore`-aware, never reading hidden or secret files whatever the glob. Results
 * are pages of one stable path order (`offset` / `limit`; in content mode the items are matching
 * lines, otherwise files): the same call returns the same page, and the engine stops early once
 * the page is in (then the total is a lower bound, `total_at_least`). A cut page ends with the
 * contract's marker naming the next call. An empty result says why: no match, a glob or path
 * with no file, or matches only in hidden or ignored files (found with one cheap extra probe).
 *
 * @param options - the workspace, the engine (default: pure JS over the seam), the caps and the
 *   names of the tools mounted beside it
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
  const mounted = mountedTools(parsed.mountedTools);
  const input = createGrepSearchInputSchema(
    maxLimit,
    defaultLimit,
  ) as unknown as typeof grepSearchInputSchema;
  const findPath = [
    mounted.when("glob_search", "glob_search"),
    mounted.when("list_directory", "list_directory"),
  ]
    .filter((tool) => tool.length > 0)
    .join(" or ");

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    aliases: GREP_SEARCH_ALIASES,
    annotations: { title: "Search file contents", readOnly: true, idempotent: true },
    tags: ["fs:search"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_GREP_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path, { argument: "path" });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return unlistableOr(
          workspace.fileSystem,
          resolved.real,
          fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
            hint: `${findPath.length > 0 ? `Call ${findPath} to find the right path, or omit` : "Omit"} path to search the whole workspace.`,
          }),
        );
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
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const outputMode = request.output_mode ?? "content";
      const contextLines = outputMode === "content" ? (request.context_lines ?? 0) : 0;
      const searchRequest: SearchRequest = {
        ...scope,
        pattern: request.pattern,
        literal: request.literal ?? false,
        ignoreCase: request.ignore_case ?? false,
        contextLines,
        outputMode,
        offset,
        limit,
        maxLineCharacters,
        explainEmpty: offset === 1,
      };
      const outcome = await searcher.search(searchRequest, context.signal);
      const unit = outputMode === "content" ? "matching lines" : "files";
      if (outcome.total !== undefined && isOffsetPastEnd(offset, outcome.total)) {
        return offsetPastEnd({ tool: name, offset, total: outcome.total, unit });
      }
      const fitted = fitPage(outcome.files, outputMode, contextLines, maxOutputCharacters - 800);
      // Lines of a private key never leave the tool, matched or shown as context.
      const pageFiles =
        outputMode === "content"
          ? await redactPrivateKeyLines(fitted.files, workspace.fileSystem)
          : fitted.files;
      const files: GrepSearchFile[] = pageFiles.map((file) =>
        outputMode === "content"
          ? { path: file.path, count: file.count, lines: file.lines }
          : outputMode === "count"
            ? { path: file.path, count: file.count }
            : { path: file.path },
      );
      const shownEnd = offset + fitted.items - 1;
      const truncated =
        outcome.total !== undefined ? shownEnd < outcome.total : outcome.totalAtLeast !== undefined;
      const data: GrepSearchToolData = {
        pattern: request.pattern,
        path: resolved.display,
        output_mode: outputMode,
        ignore_case: request.ignore_case ?? false,
        literal: request.literal ?? false,
        offset,
        limit,
        files,
        truncated,
      };
      if (glob !== undefined) data.glob = glob;
      if (outputMode === "content") data.context_lines = contextLines;
      if (outputMode !== "files_with_matches")
        data.match_count = files.reduce((sum, file) => sum + (file.count ?? 0), 0);
      if (outcome.total !== undefined) data.total = outcome.total;
      else if (outcome.totalAtLeast !== undefined) data.total_at_least = outcome.totalAtLeast;
      if (
        outcome.total !== undefined &&
        outcome.totalFiles !== undefined &&
        outputMode === "content"
      )
        data.total_files = outcome.totalFiles;
      if (
        outcome.total !== undefined &&
        outcome.totalMatches !== undefined &&
        outputMode === "count"
      )
        data.total_matches = outcome.totalMatches;
      if (truncated) data.next_offset = shownEnd + 1;
      if (files.length === 0) explainEmpty(data, outcome, request, resolved.display, glob, mounted);
      return ok(data);
    },
    render: (data) => formatGrepSearchResult(data, maxOutputCharacters, name),
  });
}

function explainEmpty(
  data: GrepSearchToolData,
  outcome: { hiddenMatch?: string; searchedAnyFile: boolean },
  request: { pattern: string; literal?: boolean | undefined; ignore_case?: boolean | undefined },
  display: string,
  glob: string | undefined,
  mounted: MountedTools,
): void {
  const where = `${display}${glob === undefined ? "" : ` (glob ${glob})`}`;
  const example = outcome.hiddenMatch;
  if (example !== undefined) {
    data.empty_reason = "only_hidden_or_ignored";
    data.example_path = example;
    data.message = `No match for ${echoPattern(request.pattern)} in the searched files of ${where}; matches exist only in hidden or .gitignore'd files (e.g. ${example}). To search there, call again with path="${dirname(example)}".`;
  } else if (!outcome.searchedAnyFile) {
    data.empty_reason = glob === undefined ? "no_files" : "glob_matched_nothing";
    data.message =
      glob === undefined
        ? `No match: there is no searchable file in ${display}.${mounted.when("list_directory", " Check the path with list_directory.")}`
        : `No match: the glob ${JSON.stringify(glob)} matched no file in ${display} (globs match paths relative to the root, e.g. "**/*.ts" or "src/**"). ${mounted.has("glob_search") ? "Check it with glob_search, or drop the glob." : "Drop or fix the glob."}`;
  } else {
    data.empty_reason = "no_match";
    data.message = `No match for ${echoPattern(request.pattern)} in ${where}${request.literal ? "" : " (a regular expression; pass literal=true for plain text)"}${request.ignore_case ? "" : "; try ignore_case=true"} or a broader pattern.`;
  }
}
