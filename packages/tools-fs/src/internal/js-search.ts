import { globToRegExp, matchesAny } from "@agentool/contract";
import { type FileSystem, FileSystemError } from "../file-system.js";
import { createIgnoreMatcher, matchIgnoreRules } from "./gitignore.js";
import {
  comparePaths,
  cutLine,
  type FileLister,
  type ListedFile,
  PageCollector,
  type SearchLine,
  type SearchOutcome,
  type SearchRequest,
  type SearchScope,
  stoppedTotalAtLeast,
  type TextSearcher,
} from "./search-types.js";
import { decodeText, isBinary } from "./text-codec.js";
import { echoPattern } from "./tool-support.js";

/** Files larger than this are skipped by the JS engine (it reads files whole): 16 MiB. */
export const DEFAULT_JS_SEARCH_MAX_FILE_BYTES = 16 * 1_048_576;

/** Options of {@link createJsSearcher} and {@link createJsLister}. */
export interface JsSearchOptions {
  /** The seam to walk. */
  fileSystem: FileSystem;
  /** Files larger than this are skipped. Default {@link DEFAULT_JS_SEARCH_MAX_FILE_BYTES}. */
  maxFileBytes?: number;
}

/** Failures of a directory read that end a walk (anything else skips the directory). */
const SEAM_FAILURES: ReadonlySet<string> = new Set([
  "UNSUPPORTED",
  "TIMEOUT",
  "ABORTED",
  "INTERNAL",
]);

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

/** An entry a walk left out because it is hidden or ignored (not secret). */
interface SkippedEntry {
  path: string;
  isDirectory: boolean;
}

/**
 * Walks the files of a scope in path order ({@link comparePaths}: depth first, each directory's
 * files and subdirectories interleaved by name): no symlinks, no secret paths, and unless
 * `includeHiddenAndIgnored` no hidden names and nothing `.gitignore`d below the searched path
 * (each left-out entry is reported to `onSkipped`, when given).
 */
async function* walkFiles(
  fileSystem: FileSystem,
  scope: SearchScope,
  signal: AbortSignal,
  onSkipped?: (entry: SkippedEntry) => void,
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
  async function* walkDirectory(directory: string): AsyncGenerator<WalkedFile> {
    if (signal.aborted) throw abortError(signal);
    let entries: Awaited<ReturnType<FileSystem["readDirectory"]>>;
    try {
      entries = await fileSystem.readDirectory(directory);
    } catch (error) {
      // A folder that vanished or is refused is skipped; a seam that cannot list, timed out or
      // failed fails the search instead of answering as if the folder were empty.
      if (FileSystemError.isInstance(error) && !SEAM_FAILURES.has(error.code)) return;
      throw error;
    }
    entries.sort((left, right) => comparePaths(left.name, right.name));
    const rules = everything ? [] : await matcher.rulesFor(directory);
    for (const entry of entries) {
      if (entry.type !== "file" && entry.type !== "directory") continue; // symlinks are not followed
      const path = directory.length === 0 ? entry.name : `${directory}/${entry.name}`;
      if (scope.isSecret(path)) continue;
      const isDirectory = entry.type === "directory";
      if (everything) {
        if (isDirectory && entry.name === ".git") continue;
      } else if (
        entry.name.startsWith(".") ||
        matchIgnoreRules(rules, path, isDirectory) === true
      ) {
        onSkipped?.({ path, isDirectory });
        continue;
      }
      if (isDirectory) yield* walkDirectory(path);
      else if (accept(path)) yield { path, size: entry.size, modifiedMs: entry.modifiedMs };
    }
  }
  yield* walkDirectory(scope.path);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Lets V8 finish a regular expression that backtracks too much with its linear engine instead
 * (same results; no backreferences, lookarounds, `i` or `u`). Set once, process-wide, on Node
 * (through `process.getBuiltinModule`, so this file imports nothing from Node); elsewhere a no-op.
 */
let linearFallbackEnabled = false;
function enableLinearRegExpFallback(): void {
  if (linearFallbackEnabled) return;
  linearFallbackEnabled = true;
  try {
    const processObject = (
      globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
    ).process;
    const v8 = processObject?.getBuiltinModule?.("node:v8") as
      | { setFlagsFromString?: (flags: string) => void }
      | undefined;
    v8?.setFlagsFromString?.("--enable-experimental-regexp-engine-on-excessive-backtracks");
  } catch {
    // not Node, or the flag is unknown: the time budget between lines still holds
  }
}

/** Whether a pattern needs the `u` flag (`\p{…}`, `\u{…}`, characters beyond the BMP). */
function needsUnicode(source: string): boolean {
  return /\\[pP]\{|\\u\{|[\uD800-\uDFFF]/.test(source);
}

/**
 * Whether a pattern repeats a group that itself holds an unbounded repetition (`(a+)+`,
 * `(x*y)*`, `(?:a+){2,}`): the shape that backtracks exponentially in JavaScript.
 *
 * @internal
 */
export function hasNestedRepetition(source: string): boolean {
  const groups: boolean[] = [];
  let inClass = false;
  let lastClosedHadRepetition = false;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index] as string;
    if (character === "\\") {
      index += 1;
      lastClosedHadRepetition = false;
      continue;
    }
    if (inClass) {
      if (character === "]") inClass = false;
      continue;
    }
    if (character === "[") {
      inClass = true;
      lastClosedHadRepetition = false;
      continue;
    }
    if (character === "(") {
      groups.push(false);
      lastClosedHadRepetition = false;
      continue;
    }
    if (character === ")") {
      lastClosedHadRepetition = groups.pop() ?? false;
      if (lastClosedHadRepetition && groups.length > 0) groups[groups.length - 1] = true;
      continue;
    }
    const unbounded =
      character === "*" ||
      character === "+" ||
      (character === "{" && /^\{\d*,\}/.test(source.slice(index, index + 12)));
    if (unbounded) {
      if (lastClosedHadRepetition) return true;
      if (groups.length > 0) groups[groups.length - 1] = true;
    }
    lastClosedHadRepetition = false;
  }
  return false;
}

/**
 * Compiles a model's pattern for the JS engine (close to ripgrep's syntax: a leading `(?i)` is
 * honoured). Throws `INVALID_INPUT` for a pattern JavaScript cannot compile, or one that nests
 * unbounded repetitions (`(a+)+$`), which JavaScript's backtracking engine can take for ever on.
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
  if (!literal && hasNestedRepetition(source)) {
    throw new FileSystemError(
      "INVALID_INPUT",
      `pattern ${JSON.stringify(pattern)} repeats a group that itself repeats (like (a+)+), which can take exponential time in this search engine.`,
      "Drop the outer repetition (a+ instead of (a+)+), or search for a literal part of the text with literal=true.",
    );
  }
  enableLinearRegExpFallback();
  const flags = caseless ? "i" : "";
  // Without `u` when the pattern does not need it: V8's linear fallback engine refuses `u`.
  const attempts = needsUnicode(source) ? [`${flags}u`, flags] : [flags, `${flags}u`];
  let failure: unknown;
  for (const attempt of attempts) {
    try {
      return new RegExp(source, attempt);
    } catch (error) {
      failure ??= error;
    }
  }
  throw new FileSystemError(
    "INVALID_INPUT",
    `pattern ${echoPattern(pattern)} is not a valid regular expression: ${failure instanceof Error ? failure.message : String(failure)}.`,
    "Fix the pattern, or pass literal=true to search for the text as written.",
  );
}

/** How long the JS engine matches before it yields to the event loop (and checks its signal), ms. */
const MATCH_SLICE_MS = 25;

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

interface FileMatches {
  lines: string[];
  /** Matching line indexes (0-based) with the match start. */
  matches: Array<{ index: number; start: number }>;
}

/** Yields to the event loop now and then during a search, and stops it once its signal aborts. */
interface MatchClock {
  /** When the current slice of work started (`performance.now()`). */
  since: number;
  /** Lets timers run (so a time limit can fire), then throws when the signal is aborted. */
  yield(): Promise<void>;
}

function createMatchClock(signal: AbortSignal): MatchClock {
  const clock: MatchClock = {
    since: performance.now(),
    async yield() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (signal.aborted) throw abortError(signal);
      clock.since = performance.now();
    },
  };
  return clock;
}

/** Reads and matches one file; `undefined` for an unreadable, too large or binary file. */
async function matchFile(
  fileSystem: FileSystem,
  file: WalkedFile,
  regExp: RegExp,
  firstOnly: boolean,
  maxFileBytes: number,
  clock: MatchClock,
): Promise<FileMatches | "skipped" | "unread"> {
  if (file.size > maxFileBytes) return "unread";
  if (performance.now() - clock.since > MATCH_SLICE_MS) await clock.yield();
  let bytes: Uint8Array;
  try {
    bytes = await fileSystem.readFile(file.path);
  } catch (error) {
    if (FileSystemError.isInstance(error)) return "unread";
    throw error;
  }
  if (isBinary(bytes)) return "skipped";
  const decoded = decodeText(bytes);
  if (decoded === undefined) return "skipped";
  const lines = splitLines(decoded.text);
  const matches: FileMatches["matches"] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (performance.now() - clock.since > MATCH_SLICE_MS) await clock.yield();
    const match = regExp.exec(lines[index] as string);
    if (match === null) continue;
    matches.push({ index, start: match.index });
    if (firstOnly) break;
  }
  return { lines, matches };
}

/**
 * Creates the pure-JS search engine over any seam: same rules as ripgrep (gitignore, hidden
 * files, secret paths, no symlinks, binary files skipped), files visited in path order
 * ({@link comparePaths}), so a page is the same prefix window as the ripgrep engine's. It counts
 * up to the same budget as ripgrep ({@link countBudget}) and reports a lower bound past it; on a
 * later page (`offset` > 1) of a content search the budget is in files, as in count mode (past the
 * page only matches are counted), so that page's total is exact whenever the count-mode page's
 * would be; the first page keeps the budget in lines, as the ripgrep engine does.
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
      const clock = createMatchClock(signal);
      const offset = request.offset ?? 1;
      const need = offset + request.limit - 1;
      const stopAfter = stoppedTotalAtLeast(need);
      const collector = new PageCollector({
        offset,
        limit: request.limit,
        contextLines: request.outputMode === "content" ? request.contextLines : 0,
      });
      const contentMode = request.outputMode === "content";
      const filesMode = request.outputMode === "files_with_matches";
      let collecting = true;
      let total = 0;
      let totalFiles = 0;
      let totalMatches = 0;
      let searchedAnyFile = false;
      const skipped: SkippedEntry[] = [];
      const onSkipped =
        request.explainEmpty === true ? (entry: SkippedEntry) => skipped.push(entry) : undefined;
      for await (const file of walkFiles(fileSystem, request, signal, onSkipped)) {
        const found = await matchFile(fileSystem, file, regExp, filesMode, maxFileBytes, clock);
        if (found === "unread") continue;
        searchedAnyFile = true;
        if (found === "skipped" || found.matches.length === 0) continue;
        const items = contentMode ? found.matches.length : 1;
        if (collecting) {
          collecting = contentMode
            ? feedContent(collector, file.path, found, request)
            : collector.feedRow(file.path, found.matches.length);
        }
        total += items;
        totalFiles += 1;
        totalMatches += found.matches.length;
        // On a later page, content mode counts matching lines until as many files match as count
        // mode would read; the first page stops at the budget of lines, as the ripgrep engine's.
        if ((contentMode && offset > 1 ? totalFiles : total) >= stopAfter) {
          return { files: collector.finish(), totalAtLeast: stopAfter, searchedAnyFile };
        }
      }
      const outcome: SearchOutcome = { files: collector.finish(), total, searchedAnyFile };
      if (contentMode) outcome.totalFiles = totalFiles;
      if (request.outputMode === "count") outcome.totalMatches = totalMatches;
      if (total === 0 && skipped.length > 0) {
        const hidden = await probeSkipped(
          fileSystem,
          request,
          skipped,
          regExp,
          maxFileBytes,
          signal,
        );
        if (hidden !== undefined) outcome.hiddenMatch = hidden;
      }
      return outcome;
    },
  };
}

/** Feeds a file's matches (and their context) to the collector, in line order. */
function feedContent(
  collector: PageCollector,
  path: string,
  found: FileMatches,
  request: SearchRequest,
): boolean {
  const context = request.contextLines;
  const starts = new Map(found.matches.map((match) => [match.index, match.start]));
  let next = 0;
  for (const match of found.matches) {
    const from = Math.max(next, match.index - context);
    const to = Math.min(found.lines.length - 1, match.index + context);
    for (let index = from; index <= to; index += 1) {
      const start = starts.get(index);
      const { text, cut, cutStart } = cutLine(
        found.lines[index] as string,
        start ?? 0,
        request.maxLineCharacters,
      );
      const line: SearchLine = {
        line: index + 1,
        text,
        kind: start === undefined ? "context" : "match",
      };
      if (cut > 0) line.cut = cut;
      if (cutStart > 0) line.cut_start = cutStart;
      if (!collector.feedLine(path, line)) return false;
    }
    next = Math.max(next, to + 1);
  }
  return true;
}

/** Looks into the entries a walk skipped (hidden, ignored) for one matching file. */
async function probeSkipped(
  fileSystem: FileSystem,
  request: SearchRequest,
  skipped: readonly SkippedEntry[],
  regExp: RegExp,
  maxFileBytes: number,
  signal: AbortSignal,
): Promise<string | undefined> {
  const glob = compileGlob(request.glob);
  for (const entry of skipped) {
    const scope: SearchScope = {
      ...request,
      path: entry.path,
      pathType: entry.isDirectory ? "directory" : "file",
      includeHiddenAndIgnored: true,
    };
    for await (const file of walkFiles(fileSystem, scope, signal)) {
      if (
        (glob.include.length > 0 && !glob.include.some((pattern) => pattern.test(file.path))) ||
        matchesAny(file.path, glob.exclude)
      )
        continue;
      const found = await matchFile(
        fileSystem,
        file,
        regExp,
        true,
        maxFileBytes,
        createMatchClock(signal),
      );
      if (typeof found === "object" && found.matches.length > 0) return file.path;
    }
  }
  return undefined;
}

/**
 * Creates the pure-JS file lister over any seam, for `glob_search`: the same walking rules as
 * {@link createJsSearcher}, newest files first (ties by path), one page.
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
        if (request.anyOnly === true) break;
      }
      found.sort(
        (left, right) => right.modifiedMs - left.modifiedMs || comparePaths(left.path, right.path),
      );
      const start = Math.max(0, (request.offset ?? 1) - 1);
      return { files: found.slice(start, start + request.limit), total: found.length };
    },
  };
}
