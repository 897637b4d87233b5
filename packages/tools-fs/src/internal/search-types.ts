/**
 * The seams between the search tools (`grep_search`, `glob_search`) and their engines: a pure-JS
 * implementation over any {@link FileSystem} seam (`createJsSearcher`, `createJsLister`) and the
 * ripgrep one on `@agentool/tools-fs/node` (`createRipgrepSearcher`). A request reaching an
 * engine is already confined: its `path` is a real workspace path checked by the workspace, its
 * limits are bounded. Every engine excludes secret paths (`isSecret`) whatever the glob, skips
 * hidden files and `.gitignore`d files unless `includeHiddenAndIgnored` is set, never follows
 * symlinks while walking, reports workspace paths (relative to the root, POSIX) and stops as soon
 * as it has found more than `limit` results.
 *
 * @internal
 */

/** How `grep_search` reports matches. */
export type GrepOutputMode = "content" | "files_with_matches" | "count";

/** What every engine request carries about where to look. */
export interface SearchScope {
  /** The real workspace path to search (`""` for the root): a directory or a single file. */
  path: string;
  /** Whether `path` is a directory or a file. */
  pathType: "directory" | "file";
  /** A glob over workspace paths (relative to the root, like ripgrep's `--glob`), or none. */
  glob: string | undefined;
  /** Also look into hidden and `.gitignore`d files (still never secret ones). Used to explain empty results. */
  includeHiddenAndIgnored: boolean;
  /** Whether a workspace path is a secret path (never searched, never reported). */
  isSecret(path: string): boolean;
  /** The secret-path globs, for engines that can exclude them up front (ripgrep `--glob '!…'`). */
  secretGlobs: readonly string[];
}

/** A `grep_search` request, as an engine receives it. */
export interface SearchRequest extends SearchScope {
  /** A regular expression, or a literal text when `literal`. */
  pattern: string;
  /** Match `pattern` as plain text. */
  literal: boolean;
  /** Match without regard to case. */
  ignoreCase: boolean;
  /** Lines of context before and after each match (content mode only). */
  contextLines: number;
  /** What to collect: matching lines, matching files, or counts per file. */
  outputMode: GrepOutputMode;
  /** Most results to return: matching lines (content), or files (other modes). */
  limit: number;
  /** Lines longer than this are cut around the match. */
  maxLineCharacters: number;
}

/** One line of a content result. */
export interface SearchLine {
  /** 1-based line number. */
  line: number;
  /** The line without its line ending; long lines are cut (see `cut`). */
  text: string;
  /** A matching line or a context line. */
  kind: "match" | "context";
  /** Characters cut away from a long line, when any. */
  cut?: number;
}

/** The results in one file. */
export interface SearchFileResult {
  /** Workspace path (relative to the root, POSIX). */
  path: string;
  /** Matching lines in this file that were found (in count mode: all of them). */
  count: number;
  /** Matching and context lines, in line order (content mode only; empty otherwise). */
  lines: SearchLine[];
}

/** What an engine found. */
export interface SearchOutcome {
  /** Files with results, sorted by path; lines in line order. */
  files: SearchFileResult[];
  /** Whether the engine stopped at the limit (more results exist). */
  truncated: boolean;
  /** Results found beyond the limit before the engine stopped (a lower bound of what is left). */
  overflow: number;
  /** Whether any file at all was searched (false: the glob or path matched no file). */
  searchedAnyFile: boolean;
}

/** A search engine for `grep_search`. */
export interface TextSearcher {
  /** A label for messages: `"ripgrep"`, `"js"`. */
  readonly kind: string;
  /**
   * Runs a search. Throws `FileSystemError` with `INVALID_INPUT` for a bad pattern; stops all
   * work (and kills any child process) when `signal` aborts.
   */
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchOutcome>;
}

/** A `glob_search` request, as an engine receives it. */
export interface ListRequest extends SearchScope {
  /** Most files to return (the newest ones). */
  limit: number;
}

/** One file found by a {@link FileLister}. */
export interface ListedFile {
  /** Workspace path (relative to the root, POSIX). */
  path: string;
  /** Last modification, milliseconds since the epoch. */
  modifiedMs: number;
}

/** What a lister found. */
export interface ListOutcome {
  /** The newest files first (ties by path). */
  files: ListedFile[];
  /** How many matching files were left out beyond `limit`. */
  omitted: number;
}

/** A file-listing engine for `glob_search`. */
export interface FileLister {
  /** A label for messages: `"ripgrep"`, `"js"`. */
  readonly kind: string;
  /** Lists files matching the scope's glob, newest first. Stops work when `signal` aborts. */
  list(request: ListRequest, signal: AbortSignal): Promise<ListOutcome>;
}

/**
 * Cuts a long line to `maxCharacters`, keeping the region around `focus` (the match start).
 *
 * @param text - the whole line
 * @param focus - character index to keep visible
 * @param maxCharacters - the budget
 * @returns the kept text (with `…` where something was cut) and how many characters were cut
 * @internal
 */
export function cutLine(
  text: string,
  focus: number,
  maxCharacters: number,
): { text: string; cut: number } {
  if (text.length <= maxCharacters) return { text, cut: 0 };
  const lead = Math.floor(maxCharacters / 4);
  let start = Math.max(0, Math.min(focus - lead, text.length - maxCharacters));
  // Never split a surrogate pair.
  const startCode = text.charCodeAt(start);
  if (start > 0 && startCode >= 0xdc00 && startCode <= 0xdfff) start += 1;
  let end = Math.min(text.length, start + maxCharacters);
  const endCode = text.charCodeAt(end - 1);
  if (end < text.length && endCode >= 0xd800 && endCode <= 0xdbff) end -= 1;
  const kept = `${start > 0 ? "…" : ""}${text.slice(start, end)}${end < text.length ? "…" : ""}`;
  return { text: kept, cut: text.length - (end - start) };
}

/**
 * Whether a workspace path has a hidden segment (a name starting with `.`) below `base`.
 *
 * @param path - a workspace path
 * @param base - the searched path (a hidden `base` the model named explicitly is allowed)
 * @internal
 */
export function isHiddenBelow(path: string, base: string): boolean {
  const relative =
    base.length === 0
      ? path
      : path === base
        ? ""
        : path.startsWith(`${base}/`)
          ? path.slice(base.length + 1)
          : path;
  if (relative.length === 0) return false;
  return relative.split("/").some((segment) => segment.startsWith("."));
}

/**
 * Sorts file results by path (code-unit order, stable across runs and locales).
 *
 * @internal
 */
export function comparePaths(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
