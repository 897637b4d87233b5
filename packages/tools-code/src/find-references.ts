import {
  AgentoolError,
  defineTool,
  fail,
  givenCallArguments,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
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
  decodeSource,
} from "./internal/code-support.js";
import { collectReferences } from "./internal/references/collect-references.js";
import {
  FIND_REFERENCES_TOOL_NAME,
  type FindReferencesToolData,
  formatFindReferences,
  type ReferenceFile,
  type ReferenceGroup,
  type ReferenceOccurrence,
} from "./internal/references/format-references.js";
import { ModuleGraph } from "./internal/references/module-graph.js";
import { parseSymbolQuery } from "./internal/symbol-query.js";
import { isParsedLanguage, languageForPath } from "./internal/tree-sitter/languages.js";
import {
  findNameOccurrences,
  type NameOccurrence,
} from "./internal/tree-sitter/name-occurrences.js";
import { ParseFailure } from "./internal/tree-sitter/runtime.js";

export {
  FIND_REFERENCES_TOOL_NAME,
  type FindReferencesFormatOptions,
  type FindReferencesToolData,
  formatFindReferences,
  MODE_NOTES,
  type ReferenceFile,
  type ReferenceGroup,
  type ReferenceOccurrence,
  SYNTACTIC_NOTE,
} from "./internal/references/format-references.js";

/** Default occurrences per page. */
export const DEFAULT_FIND_REFERENCES_LIMIT = 100;
/** Most occurrences one page may hold. */
export const MAX_FIND_REFERENCES_LIMIT = 1_000;
/** Default most files parsed per call; past it the total is a lower bound. */
export const DEFAULT_FIND_REFERENCES_MAX_FILES = 5_000;
/** Longest line text shown per occurrence. */
export const MAX_REFERENCE_LINE_CHARACTERS = 200;

/** Options of {@link createFindReferencesTool}. */
export interface FindReferencesToolOptions extends CodeToolOptions {
  /** The text search that shortlists files. Default: ripgrep over `root`; required with `workspace`. */
  searcher?: TextSearcher;
  /** Most shortlisted files parsed per call. Default {@link DEFAULT_FIND_REFERENCES_MAX_FILES}. */
  maxFiles?: number;
}

const optionsSchema = z.object({
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
  maxFiles: z.number().int().min(1).max(1_000_000).optional(),
});

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

/** The input schema of `find_references`. */
export const findReferencesInputSchema = z.object({
  name: z
    .string()
    .min(1)
    .max(300)
    .describe(
      "The identifier, e.g. parseConfig; Type.member (Parser.parse) for a class or interface member.",
    ),
  defined_in: z
    .string()
    .max(1_000)
    .optional()
    .describe("When several files declare the name: the file (or folder) of the one you mean."),
  path: z.string().optional().describe("Only under this directory or file (default: all)."),
  ...pagingInputShape({
    unit: "occurrence",
    defaultLimit: DEFAULT_FIND_REFERENCES_LIMIT,
    maxLimit: MAX_FIND_REFERENCES_LIMIT,
    offsetDescription: "1-based first occurrence (default 1).",
    limitDescription: `Most occurrences (default ${DEFAULT_FIND_REFERENCES_LIMIT}).`,
  }),
});

/** The input of `find_references`. */
export type FindReferencesInput = z.input<typeof findReferencesInputSchema>;

/** The `find_references` tool's type. */
export type FindReferencesTool = Tool<typeof findReferencesInputSchema, FindReferencesToolData>;

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Where a name is used: its occurrences in code (not strings or comments) that reach its declaration through the file's imports, grouped by declaration, then file, each with line:column, its line and the enclosing function or class.",
    "Syntactic, not type-resolved: imports and re-exports are followed by their text.",
    mounted.when("find_symbol", "For the definition alone use find_symbol."),
    mounted.when("grep_search", "For text in strings or comments use grep_search."),
    "A cut list ends with the call for the next page.",
  ]);
}

/** `defined_in`, or a `file:name` prefix of the name (`src/core.ts:ZodType`). */
function splitDefinedIn(
  name: string,
  definedIn: string | undefined,
): { name: string; definedIn?: string } {
  const trimmed = name.trim();
  const match = /^([^:]*[/.][^:]*):([^:].*)$/.exec(trimmed);
  if (match !== null && definedIn === undefined) {
    return { name: match[2] as string, definedIn: match[1] as string };
  }
  return definedIn === undefined || definedIn.trim() === ""
    ? { name: trimmed }
    : { name: trimmed, definedIn: definedIn.trim() };
}

function lineAround(text: string, index: number, length: number): { text: string; cut?: number } {
  const start = text.lastIndexOf("\n", index - 1) + 1;
  let end = text.indexOf("\n", index);
  if (end === -1) end = text.length;
  if (text.charCodeAt(end - 1) === 13) end -= 1;
  const line = text.slice(start, end);
  if (line.length <= MAX_REFERENCE_LINE_CHARACTERS) return { text: line };
  const focus = index - start;
  const from = Math.max(0, Math.min(focus - 60, line.length - MAX_REFERENCE_LINE_CHARACTERS));
  const kept = line.slice(from, from + Math.max(MAX_REFERENCE_LINE_CHARACTERS, length));
  return { text: kept, cut: line.length - kept.length };
}

/**
 * Creates the `find_references` tool: the identifier occurrences of a name across the workspace
 * — ripgrep shortlists the files whose text holds the word, tree-sitter confirms each hit is an
 * identifier (strings, comments and longer names drop out), marks declarations and imports, and
 * names the enclosing symbol. Paged in path, line, column order with exact totals (a lower bound
 * past `maxFiles` parsed files). Syntactic: the answer says so every time.
 *
 * @param options - `root` (or `workspace` + `searcher`), caps and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const references = createFindReferencesTool({ root: "/work/repo" });
 * await references.run({ name: "parseConfig", path: "src" });
 */
export function createFindReferencesTool(options: FindReferencesToolOptions): FindReferencesTool {
  const parsed = parseOptions("createFindReferencesTool", optionsSchema, options);
  const workspace = workspaceFromOptions("createFindReferencesTool", parsed);
  if (parsed.searcher === undefined && parsed.root === undefined) {
    throw new AgentoolError(
      "createFindReferencesTool: with a workspace, also give searcher (createRipgrepSearcher({ root }) from @agentool/tools-fs/node).",
    );
  }
  const searcher = parsed.searcher ?? createRipgrepSearcher({ root: parsed.root as string });
  const name = parsed.name ?? FIND_REFERENCES_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxFiles = parsed.maxFiles ?? DEFAULT_FIND_REFERENCES_MAX_FILES;
  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: findReferencesInputSchema,
    annotations: { title: "Find references", readOnly: true, idempotent: true },
    tags: ["code", "code:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_CODE_TIMEOUT_MS,
    execute: async (request, context) => {
      const given = splitDefinedIn(request.name, request.defined_in);
      const query = parseSymbolQuery(given.name);
      const identifier = query.last;
      if (!IDENTIFIER.test(identifier) || !query.parts.every((part) => IDENTIFIER.test(part))) {
        return fail("INVALID_INPUT", `name ${JSON.stringify(request.name)} is not an identifier.`, {
          hint:
            "Give one name such as parseConfig (letters, digits, _ or $), or Type.member." +
            (mounted.has("grep_search") ? " For any other text use grep_search." : ""),
        });
      }
      const resolved = await workspace.resolve(request.path, { argument: "path" });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
          hint: "Omit path to search the whole workspace.",
        });
      }
      // A FIFO would block the search until the time limit; a socket or device is no source.
      refuseSpecialFile(resolved, stat.type);
      let definedIn: string | undefined;
      if (given.definedIn !== undefined) {
        const where = await workspace.resolve(given.definedIn, { argument: "defined_in" });
        if ((await workspace.fileSystem.stat(where.real)) === undefined) {
          return fail("FILE_NOT_FOUND", `defined_in ${where.display} does not exist.`, {
            hint: "Give the file that declares the name (find_symbol lists them), or omit defined_in.",
          });
        }
        definedIn = where.real;
      }
      const root = await workspace.resolve(undefined, { argument: "path" });
      const search = async (
        words: string[],
        under: typeof resolved,
        type: "file" | "directory",
      ) => {
        const alternatives = words.map((word) => word.replace(/\$/g, "\\$")).join("|");
        const plain = words.every((word) => /^\w.*\w$|^\w$/.test(word));
        const request: SearchRequest = {
          path: under.real,
          pathType: type,
          glob: undefined,
          includeHiddenAndIgnored: false,
          isSecret: (path) => workspace.isSecret(path),
          secretGlobs: workspace.secretPaths,
          pattern: plain
            ? `\\b(?:${alternatives})\\b`
            : words.length === 1
              ? (words[0] as string)
              : `(?:${alternatives})`,
          literal: !plain && words.length === 1,
          ignoreCase: false,
          contextLines: 0,
          outputMode: "files_with_matches",
          offset: 1,
          limit: maxFiles + 1,
          maxLineCharacters: 300,
        };
        return searcher.search(request, context.signal);
      };
      const shortlist = await search(
        [identifier],
        resolved,
        stat.type === "directory" ? "directory" : "file",
      );
      const files = shortlist.files.slice(0, maxFiles).map((file) => file.path);
      const texts = new Map<string, Promise<string | undefined>>();
      let skipped = 0;
      const read = (path: string): Promise<string | undefined> => {
        let text = texts.get(path);
        if (text === undefined) {
          text = (async () => {
            if (workspace.isSecret(path)) return undefined;
            const fileStat = await workspace.fileSystem.stat(path);
            if (fileStat === undefined || fileStat.type !== "file" || fileStat.size > maxFileBytes)
              return undefined;
            return decodeSource(await workspace.fileSystem.readFile(path));
          })();
          texts.set(path, text);
        }
        return text;
      };
      const parsedFiles = new Set<string>();
      const occurrenceCache = new Map<string, Promise<NameOccurrence[] | undefined>>();
      const occurrences = (path: string, word: string): Promise<NameOccurrence[] | undefined> => {
        const key = `${path}\n${word}`;
        let found = occurrenceCache.get(key);
        if (found === undefined) {
          found = (async () => {
            context.signal.throwIfAborted();
            const language = languageForPath(path);
            const text = await read(path);
            if (language === undefined || !isParsedLanguage(language) || text === undefined)
              return undefined;
            try {
              const hits = await findNameOccurrences(language, text, word, {
                signal: context.signal,
              });
              parsedFiles.add(path);
              return hits;
            } catch (error) {
              if (!(error instanceof ParseFailure)) throw error;
              return undefined;
            }
          })();
          occurrenceCache.set(key, found);
        }
        return found;
      };
      const graph = new ModuleGraph({ read, occurrences });
      const collected = await collectReferences({
        graph,
        identifier,
        ...(query.parts.length > 1 ? { container: query.parts[query.parts.length - 2] } : {}),
        ...(definedIn === undefined ? {} : { definedIn }),
        shortlist: files,
        occurrences,
        filesWithWords: async (words) =>
          (await search(words, root, "directory")).files.map((file) => file.path),
        progress: async (done, all) => {
          await context.progress?.({
            message: `read ${done} of ${all} files`,
            completed: done,
            total: all,
          });
        },
      });
      for (const path of files) {
        const language = languageForPath(path);
        if (
          language === undefined ||
          !isParsedLanguage(language) ||
          (parsedFiles.has(path) === false && (await read(path)) === undefined)
        )
          skipped += 1;
      }
      const groups: ReferenceGroup[] = [];
      const found: Array<{ file: ReferenceFile; occurrences: ReferenceOccurrence[] }> = [];
      let declarations = 0;
      let imports = 0;
      const allFiles = new Set<string>();
      for (const [position, group] of collected.groups.entries()) {
        let total = 0;
        for (const [path, hits] of group.files) {
          const text = (await read(path)) ?? "";
          allFiles.add(path);
          total += hits.length;
          const list = hits.map((hit): ReferenceOccurrence => {
            if (hit.role === "declaration") declarations += 1;
            else if (hit.role === "import") imports += 1;
            return {
              line: hit.line,
              column: hit.column,
              role: hit.role,
              ...lineAround(text, hit.index, identifier.length),
              enclosing: hit.enclosing,
            };
          });
          found.push({
            file: {
              path,
              language: languageForPath(path) ?? "text",
              group: position + 1,
              occurrences: [],
            },
            occurrences: list,
          });
        }
        groups.push({
          group: position + 1,
          kind: group.kind,
          label: group.label,
          ...(group.path === undefined ? {} : { path: group.path }),
          ...(group.line === undefined ? {} : { line: group.line }),
          total,
          total_files: group.files.size,
        });
      }
      const total = found.reduce((sum, entry) => sum + entry.occurrences.length, 0);
      const offset = request.offset ?? 1;
      if (isOffsetPastEnd(offset, total)) {
        return offsetPastEnd({ tool: name, offset, total, unit: "occurrences" });
      }
      const limit = request.limit ?? DEFAULT_FIND_REFERENCES_LIMIT;
      const page: ReferenceFile[] = [];
      let seen = 0;
      for (const entry of found) {
        const first = Math.max(0, offset - 1 - seen);
        const last = Math.min(entry.occurrences.length, offset - 1 + limit - seen);
        if (first < last)
          page.push({ ...entry.file, occurrences: entry.occurrences.slice(first, last) });
        seen += entry.occurrences.length;
      }
      const end = Math.min(total, offset - 1 + limit);
      const cappedShortlist = shortlist.files.length > maxFiles || shortlist.total === undefined;
      const data: FindReferencesToolData = {
        name: request.name,
        identifier,
        path: resolved.display,
        ...(definedIn === undefined ? {} : { defined_in: definedIn }),
        mode: collected.mode,
        groups,
        offset,
        limit,
        files: page,
        total,
        total_files: allFiles.size,
        declarations,
        imports,
        truncated: end < total,
        left_out: collected.leftOut,
        left_out_files: collected.leftOutFiles,
        files_mentioning: shortlist.total ?? shortlist.files.length,
        files_parsed: parsedFiles.size,
        files_skipped: skipped,
        syntactic: true,
        call_arguments: givenCallArguments(request),
      };
      if (collected.note !== undefined) data.message = collected.note;
      if (cappedShortlist) data.total_at_least = total;
      if (end < total) data.next_offset = end + 1;
      if (total === 0) {
        data.message =
          shortlist.files.length === 0
            ? `no file under ${resolved.display} contains the word ${identifier}; check the spelling or widen path.`
            : collected.leftOut > 0
              ? `${collected.leftOut} identifiers spelled ${identifier} in ${collected.leftOutFiles} files, but none reaches ${definedIn === undefined ? "a declaration" : `the one in ${definedIn}`} through imports.${definedIn === undefined ? "" : " Omit defined_in to see them all."}`
              : `${shortlist.files.length} files contain the word, but only in strings, comments, longer names or files without a grammar.${mounted.has("grep_search") ? " grep_search shows those lines." : ""}`;
      }
      return ok(data);
    },
    render: (data) => formatFindReferences(data, { toolName: name }),
  });
}
