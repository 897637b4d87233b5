import { globToRegExp, matchesAny } from "@agentool/contract";
import { type FileSystem, FileSystemError } from "../file-system.js";
import { createIgnoreMatcher, matchIgnoreRules } from "./gitignore.js";
import {
  comparePaths,
  cutLine,
  type FileLister,
  type ListedFile,
  type SearchFileResult,
  type SearchLine,
  type SearchOutcome,
  type SearchRequest,
  type SearchScope,
  type TextSearcher,
} from "./search-types.js";
import { decodeText, isBinary } from "./text-codec.js";

/** Files larger than this are skipped by the JS engine (it reads files whole): 16 MiB. */
export const DEFAULT_JS_SEARCH_MAX_FILE_BYTES = 16 * 1_048_576;

/** Options of {@link createJsSearcher} and {@link createJsLister}. */
export interface JsSearchOptions {
  /** The seam to walk. */
  fileSystem: FileSystem;
  /** Files larger than this are skipped. Default {@link DEFAULT_JS_SEARCH_MAX_FILE_BYTES}. */
  maxFileBytes?: number;
}

interface WalkedFile {
  path: string;
  size: number;
  modifiedMs: number;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error("aborted");
}

interface CompiledGlob {
  include: RegExp[];
  exclude: RegExp[];
}

function compileGlob(glob: string | undefined): CompiledGlob {
  const compiled: CompiledGlob = { include: [], exclude: [] };
  if (glob === undefined || glob.length === 0) return compiled;
  if (glob.startsWith("!")) compiled.exclude.push(globToRegExp(glob.slice(1)));
  else compiled.include.push(globToRegExp(glob));
  return compiled;
}

/**
 * Walks the files of a scope in path order: no symlinks, no secret paths, and unless
 * `includeHiddenAndIgnored` no hidden names and nothing `.gitignore`d below the searched path.
 */
async function* walkFiles(
  fileSystem: FileSystem,
  scope: SearchScope,
  signal: AbortSignal,
): AsyncGenerator<WalkedFile> {
  const glob = compileGlob(scope.glob);
  const accept = (path: string) =>
    (glob.include.length === 0 || glob.include.some((pattern) => pattern.test(path))) &&
    !matchesAny(path, glob.exclude);
  if (scope.pathType === "file") {
    if (scope.isSecret(scope.path)) return;
    const stat = await fileSystem.stat(scope.path);
    if (stat?.type === "file")
      yield { path: scope.path, size: stat.size, modifiedMs: stat.modifiedMs };
    return;
  }
  const matcher = createIgnoreMatcher(fileSystem);
  const everything = scope.includeHiddenAndIgnored;
  const stack: string[] = [scope.path];
  while (stack.length > 0) {
    if (signal.aborted) throw abortError(signal);
    const directory = stack.pop() as string;
    let entries: Awaited<ReturnType<FileSystem["readDirectory"]>>;
    try {
      entries = await fileSystem.readDirectory(directory);
    } catch (error) {
      if (FileSystemError.isInstance(error)) continue;
      throw error;
    }
    entries.sort((left, right) => comparePaths(left.name, right.name));
    const rules = everything ? [] : await matcher.rulesFor(directory);
    const subdirectories: string[] = [];
    for (const entry of entries) {
      if (entry.type !== "file" && entry.type !== "directory") continue; // symlinks are not followed
      const path = directory.length === 0 ? entry.name : `${directory}/${entry.name}`;
      if (scope.isSecret(path)) continue;
      const isDirectory = entry.type === "directory";
      if (everything) {
        if (isDirectory && entry.name === ".git") continue;
      } else {
        if (entry.name.startsWith(".")) continue;
        if (matchIgnoreRules(rules, path, isDirectory) === true) continue;
      }
      if (isDirectory) subdirectories.push(path);
      else if (accept(path)) yield { path, size: entry.size, modifiedMs: entry.modifiedMs };
    }
    // Depth-first in path order: push in reverse so the first name is visited first.
    for (let index = subdirectories.length - 1; index >= 0; index -= 1) {
      stack.push(subdirectories[index] as string);
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Compiles a model's pattern for the JS engine (close to ripgrep's syntax: a leading `(?i)` is
 * honoured). Throws `INVALID_INPUT` for a pattern JavaScript cannot compile.
 *
 * @internal
 */
export function compileSearchPattern(
  pattern: string,
  literal: boolean,
  ignoreCase: boolean,
): RegExp {
  let source = literal ? escapeRegExp(pattern) : pattern;
  let caseless = ignoreCase;
  if (!literal && source.startsWith("(?i)")) {
    source = source.slice(4);
    caseless = true;
  }
  const flags = caseless ? "i" : "";
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    try {
      return new RegExp(source, flags);
    } catch (error) {
      throw new FileSystemError(
        "INVALID_INPUT",
        `pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}.`,
        "Fix the pattern, or pass literal=true to search for the text as written.",
      );
    }
  }
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/**
 * Creates the pure-JS search engine over any seam: same rules as ripgrep (gitignore, hidden
 * files, secret paths, no symlinks, binary files skipped), files visited in path order, so results
 * are deterministic even when the limit cuts them.
 *
 * @param options - the seam and the per-file size cap
 * @returns a {@link TextSearcher}
 * @example
 * const searcher = createJsSearcher({ fileSystem: createMemoryFileSystem({ "a.md": "hello" }) });
 */
export function createJsSearcher(options: JsSearchOptions): TextSearcher {
  const fileSystem = options.fileSystem;
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_JS_SEARCH_MAX_FILE_BYTES;
  return {
    kind: "js",
    async search(request: SearchRequest, signal: AbortSignal): Promise<SearchOutcome> {
      const regExp = compileSearchPattern(request.pattern, request.literal, request.ignoreCase);
      const files: SearchFileResult[] = [];
      let found = 0;
      let overflow = 0;
      let searchedAnyFile = false;
      const contentMode = request.outputMode === "content";
      for await (const file of walkFiles(fileSystem, request, signal)) {
        if (file.size > maxFileBytes) continue;
        let bytes: Uint8Array;
        try {
          bytes = await fileSystem.readFile(file.path);
        } catch (error) {
          if (FileSystemError.isInstance(error)) continue;
          throw error;
        }
        searchedAnyFile = true;
        if (isBinary(bytes)) continue;
        const decoded = decodeText(bytes);
        if (decoded === undefined) continue;
        const lines = splitLines(decoded.text);
        const matchIndexes: number[] = [];
        const focus = new Map<number, number>();
        for (let index = 0; index < lines.length; index += 1) {
          const match = regExp.exec(lines[index] as string);
          if (match === null) continue;
          if (request.outputMode === "files_with_matches") {
            matchIndexes.push(index);
            break;
          }
          if (contentMode && found + matchIndexes.length >= request.limit) {
            overflow += 1;
            continue;
          }
          matchIndexes.push(index);
          focus.set(index, match.index);
        }
        if (matchIndexes.length === 0) {
          if (overflow > 0) break;
          continue;
        }
        if (!contentMode && found >= request.limit) {
          overflow += 1;
          break;
        }
        found += contentMode ? matchIndexes.length : 1;
        const result: SearchFileResult = { path: file.path, count: matchIndexes.length, lines: [] };
        if (contentMode) {
          const wanted = new Set<number>();
          for (const index of matchIndexes) {
            const from = Math.max(0, index - request.contextLines);
            const to = Math.min(lines.length - 1, index + request.contextLines);
            for (let line = from; line <= to; line += 1) wanted.add(line);
          }
          for (const index of [...wanted].sort((left, right) => left - right)) {
            const isMatch = focus.has(index);
            const { text, cut } = cutLine(
              lines[index] as string,
              focus.get(index) ?? 0,
              request.maxLineCharacters,
            );
            const line: SearchLine = { line: index + 1, text, kind: isMatch ? "match" : "context" };
            if (cut > 0) line.cut = cut;
            result.lines.push(line);
          }
        }
        files.push(result);
        if (overflow > 0) break;
      }
      files.sort((left, right) => comparePaths(left.path, right.path));
      return { files, truncated: overflow > 0, overflow, searchedAnyFile };
    },
  };
}

/**
 * Creates the pure-JS file lister over any seam, for `glob_search`: the same walking rules as
 * {@link createJsSearcher}, newest files first.
 *
 * @param options - the seam
 * @returns a {@link FileLister}
 * @example
 * const lister = createJsLister({ fileSystem });
 */
export function createJsLister(options: JsSearchOptions): FileLister {
  const fileSystem = options.fileSystem;
  return {
    kind: "js",
    async list(request, signal) {
      const found: ListedFile[] = [];
      for await (const file of walkFiles(fileSystem, request, signal)) {
        found.push({ path: file.path, modifiedMs: file.modifiedMs });
      }
      found.sort(
        (left, right) => right.modifiedMs - left.modifiedMs || comparePaths(left.path, right.path),
      );
      const files = found.slice(0, request.limit);
      return { files, omitted: found.length - files.length };
    },
  };
}
