import {
  defineTool,
  fail,
  formatCount,
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
import type { FileLister, Workspace } from "@agentool/tools-fs";
import { z } from "zod";
import {
  AST_SEARCH_TOOL_NAME,
  DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS,
  formatAstSearchResult,
} from "./internal/ast-grep/format-search.js";
import { loadAstGrep, resolveAstLanguage } from "./internal/ast-grep/languages.js";
import type { AstMatch } from "./internal/ast-grep/match-record.js";
import { listerFor, listerOption, workspaceOption } from "./internal/ast-grep/options.js";
import { checkPattern, metavariablesOf } from "./internal/ast-grep/pattern.js";
import { type SearchPlan, searchPage } from "./internal/ast-grep/search-page.js";
import { refuseSpecialFile, skippedNote } from "./internal/ast-grep/skipped-files.js";

export {
  AST_SEARCH_TOOL_NAME,
  DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS,
  formatAstSearchResult,
} from "./internal/ast-grep/format-search.js";
export {
  type AstGrammar,
  type AstGrepLanguageRegistration,
  type AstLanguage,
  BUILT_IN_AST_LANGUAGES,
  registerAstGrepLanguages,
  supportedAstLanguages,
} from "./internal/ast-grep/languages.js";
export type { AstCapture, AstMatch } from "./internal/ast-grep/match-record.js";

/** Default matches per page. */
export const DEFAULT_AST_SEARCH_LIMIT = 50;
/** Default highest `limit` a model may ask for. */
export const DEFAULT_AST_SEARCH_MAX_LIMIT = 500;
/** Default most files of the language scanned in one call (the newest, when there are more). */
export const DEFAULT_AST_MAX_FILES = 20_000;
/** Default most matches counted before the scan stops and the total becomes a lower bound. */
export const DEFAULT_AST_MAX_MATCHES = 10_000;
/** Default largest file parsed (bigger ones are skipped and counted). */
export const DEFAULT_AST_MAX_FILE_BYTES = 1_048_576;
/** Default most lines of one match shown. */
export const DEFAULT_AST_MAX_MATCH_LINES = 12;
/** Default time limit of one call: 60 seconds. */
export const DEFAULT_AST_SEARCH_TIMEOUT_MS = 60_000;

/** Why a structural search found nothing. */
export type AstSearchEmptyReason = "no_match" | "no_files";

/** The matches in one file. */
export interface AstSearchFile {
  /** Workspace path, relative to the root (POSIX). */
  path: string;
  /** This page's matches in the file, in document order (an enclosing match before those inside it). */
  matches: AstMatch[];
}

/** Files not searched, by reason. */
export interface AstSkippedFiles {
  /** Over the size cap. */
  too_large: number;
  /** Not UTF-8 text. */
  not_text: number;
  /** Gone, or not readable (e.g. a link leaving the workspace). */
  unreadable: number;
}

/** What `ast_search` returns (every key snake_case). */
export interface AstSearchToolData {
  /** The pattern searched for. */
  pattern: string;
  /** The language (canonical name). */
  language: string;
  /** The searched path as shown to the model (`.` for the root). */
  path: string;
  /** 1-based position of this page's first match (matches in path order, then document order). */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's files, in path order. */
  files: AstSearchFile[];
  /** Matches on this page. */
  match_count: number;
  /** Matches in all, when every file in scope was scanned. */
  total?: number;
  /** A true lower bound on the matches, when the scan stopped at the match cap. */
  total_at_least?: number;
  /** Files with a match in all, when `total` is known. */
  total_files?: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether matches after this page were left out. */
  truncated: boolean;
  /** Files of the language in scope (visible: not hidden, ignored or secret). */
  files_in_scope: number;
  /** Files read and matched. */
  scanned_files: number;
  /** Files of the language not scanned because of the file cap (only the newest are). */
  unscanned_files: number;
  /** Files skipped, by reason (when any was). */
  skipped_files?: AstSkippedFiles;
  /** Why the result is empty, when it is. */
  empty_reason?: AstSearchEmptyReason;
  /** What the empty or capped result means and what to do. */
  message?: string;
}

/** Options of {@link createAstSearchTool}. */
export interface AstSearchToolOptions {
  /** The workspace (confinement, secret paths, seam). */
  workspace: Workspace;
  /** Lists the files to scan. Default: ripgrep over the workspace's root on disk. */
  lister?: FileLister;
  /** Matches per page when the model gives no limit. Default {@link DEFAULT_AST_SEARCH_LIMIT}. */
  defaultLimit?: number;
  /** Highest limit a model may ask for. Default {@link DEFAULT_AST_SEARCH_MAX_LIMIT}. */
  maxLimit?: number;
  /** Most files scanned per call. Default {@link DEFAULT_AST_MAX_FILES}. */
  maxFiles?: number;
  /** Most matches counted per call. Default {@link DEFAULT_AST_MAX_MATCHES}. */
  maxMatches?: number;
  /** Largest file parsed, in bytes. Default {@link DEFAULT_AST_MAX_FILE_BYTES} (1 MiB). */
  maxFileBytes?: number;
  /** Most lines of one match shown. Default {@link DEFAULT_AST_MAX_MATCH_LINES}. */
  maxMatchLines?: number;
  /** Cap on the rendered result. Default {@link DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS}. */
  maxOutputCharacters?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_AST_SEARCH_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Names of the tools mounted beside this one; the description names only these. */
  mountedTools?: readonly string[];
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const optionsSchema = z.object({
  ...toolOptionsShape,
  workspace: workspaceOption,
  lister: listerOption.optional(),
  defaultLimit: z.number().int().min(1).max(100_000).optional(),
  maxLimit: z.number().int().min(1).max(100_000).optional(),
  maxFiles: z.number().int().min(1).max(1_000_000).optional(),
  maxMatches: z.number().int().min(1).max(10_000_000).optional(),
  maxFileBytes: z.number().int().min(1).max(1_073_741_824).optional(),
  maxMatchLines: z.number().int().min(1).max(10_000).optional(),
  maxOutputCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  timeoutMs: z.number().int().min(0).optional(),
});

/** The `pattern` field, shared with `ast_rewrite`. */
export const astPatternField = z
  .string()
  .min(1)
  .max(10_000)
  .describe(
    "ast-grep pattern: code with metavariables, one complete syntax node. $NAME = one node, $$$NAME = a list (args, statements), $_ = any node uncaptured.",
  );

/** The `language` field, shared with `ast_rewrite`. */
export const astLanguageField = z
  .string()
  .min(1)
  .max(40)
  .describe("typescript (its files and .tsx), tsx, javascript (.js/.jsx/.mjs/.cjs), html or css.");

function createInputSchema(maxLimit: number, defaultLimit: number) {
  const paging = pagingInputShape({
    unit: "match",
    units: "matches",
    defaultLimit,
    maxLimit,
    offsetDescription: "1-based first match (default 1).",
  });
  return z.object({
    pattern: astPatternField,
    language: astLanguageField,
    path: z
      .string()
      .optional()
      .describe("File or directory to search (default the whole workspace)."),
    offset: paging.offset,
    limit: paging.limit.describe(`Most matches (default ${defaultLimit}).`),
  });
}

/** The input schema of `ast_search` (default limits). */
export const astSearchInputSchema = createInputSchema(
  DEFAULT_AST_SEARCH_MAX_LIMIT,
  DEFAULT_AST_SEARCH_LIMIT,
);

/** The input of `ast_search`. */
export type AstSearchInput = z.input<typeof astSearchInputSchema>;

/** The `ast_search` tool's type. */
export type AstSearchTool = Tool<typeof astSearchInputSchema, AstSearchToolData>;

function defaultDescription(mounted: MountedTools): string {
  return joinSentences(
    [
      "Structural code search (ast-grep): find code by its syntax tree, not its text, so formatting, comments and line breaks do not matter.",
      `Use it for code shapes a regex gets wrong${mounted.when("find_symbol", "; for a definition by name use find_symbol")}.`,
      "A pattern is code with metavariables: 'console.log($$$ARGS)' finds every console.log call whatever its arguments; 'if ($COND) { return $X }' finds early returns, capturing COND and X.",
      "Results: file:line, the matched lines and each capture; .gitignore'd, hidden and secret files skipped.",
    ],
    "\n",
  );
}

/**
 * Creates the `ast_search` tool: an ast-grep pattern with metavariables matched over the files of
 * one language in the workspace (or one file or directory), found through the workspace's file
 * lister (`.gitignore`, hidden and secret files skipped) and parsed one at a time (bounded
 * memory; files over the size cap skipped and counted). Matches are grouped by file in path
 * order with their `file:line` range, the matched lines (capped) and the captures, paged with
 * `offset` / `limit` and an exact total — or, on a huge tree, a lower bound once the match cap
 * is passed, and only the newest files when there are more than the file cap, both said in the
 * result. An invalid pattern is refused with ast-grep's message and a hint; an unsupported
 * language names the supported ones.
 *
 * @param options - the workspace, the lister (default ripgrep over the root), the caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const search = createAstSearchTool({ workspace });
 * await search.run({ pattern: "console.log($$$ARGS)", language: "typescript", path: "src" });
 */
export function createAstSearchTool(options: AstSearchToolOptions): AstSearchTool {
  const parsed = parseOptions("createAstSearchTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const lister = listerFor("createAstSearchTool", workspace, parsed.lister);
  const maxLimit = parsed.maxLimit ?? DEFAULT_AST_SEARCH_MAX_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_AST_SEARCH_LIMIT, maxLimit);
  const maxOutputCharacters =
    parsed.maxOutputCharacters ?? DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS;
  const name = parsed.name ?? AST_SEARCH_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);
  const input = createInputSchema(maxLimit, defaultLimit) as unknown as typeof astSearchInputSchema;
  const caps = {
    maxFiles: parsed.maxFiles ?? DEFAULT_AST_MAX_FILES,
    maxMatches: parsed.maxMatches ?? DEFAULT_AST_MAX_MATCHES,
    maxFileBytes: parsed.maxFileBytes ?? DEFAULT_AST_MAX_FILE_BYTES,
    maxMatchLines: parsed.maxMatchLines ?? DEFAULT_AST_MAX_MATCH_LINES,
    maxLineCharacters: 300,
    maxCaptureCharacters: 200,
    pageCharacters: maxOutputCharacters - 1_000,
  };

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    annotations: { title: "Structural code search", readOnly: true, idempotent: true },
    tags: ["code:read", "code:search"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_AST_SEARCH_TIMEOUT_MS,
    execute: async (request, context) => {
      const napi = loadAstGrep();
      const language = resolveAstLanguage(request.language);
      checkPattern(napi, language, request.pattern);
      const resolved = await workspace.resolve(request.path, { argument: "path" });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
          hint: "Omit path to search the whole workspace, or give an existing file or directory.",
        });
      }
      refuseSpecialFile(resolved, stat.type);
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const plan: SearchPlan = {
        napi,
        workspace,
        lister,
        resolved,
        isDirectory: stat.type === "directory",
        language,
        pattern: request.pattern,
        metavariables: metavariablesOf(request.pattern),
        offset,
        limit,
        caps,
      };
      const data = await searchPage(plan, context.signal, (done, total) =>
        context.progress?.({ message: "matching files", completed: done, total }),
      );
      if (data.total !== undefined && isOffsetPastEnd(offset, data.total))
        return offsetPastEnd({ tool: name, offset, total: data.total, unit: "matches" });
      const skipped =
        data.skipped_files === undefined
          ? undefined
          : skippedNote(data.skipped_files, caps.maxFileBytes, mounted, "searched");
      const notes = [data.message, skipped];
      if (data.files.length === 0 && offset === 1) notes.unshift(explainEmpty(data, mounted));
      const message = notes.filter((note) => note !== undefined && note.length > 0).join(" ");
      if (message.length > 0) data.message = message;
      return ok(data);
    },
    render: (data) => formatAstSearchResult(data, maxOutputCharacters, name),
  });
}

/** Sets why the result is empty and returns what to do (skipped files are noted apart). */
function explainEmpty(data: AstSearchToolData, mounted: MountedTools): string {
  if (data.files_in_scope === 0) {
    data.empty_reason = "no_files";
    return `No match: there is no visible ${data.language} file in ${data.path} (hidden, .gitignore'd and secret files are skipped).${mounted.when("glob_search", " Find the files with glob_search.")} Check the language or the path.`;
  }
  data.empty_reason = "no_match";
  const read = `${formatCount(data.scanned_files)} file${data.scanned_files === 1 ? "" : "s"} read`;
  if (data.skipped_files !== undefined)
    return `No ${data.language} code in the ${read} in ${data.path} matches the pattern.`;
  return `No ${data.language} code in ${data.path} matches the pattern. A pattern matches whole syntax nodes: check that it is a complete expression or statement as written in the files, use $$$NAME where a list of arguments or statements may vary, and $_ for any single node.`;
}
