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
  /**
   * 1-based position of the first item of the page (a matching line in content mode, a file in
   * the other modes), in path order. Default 1.
   */
  offset?: number;
  /** Most items on the page: matching lines (content), or files (other modes). */
  limit: number;
  /** Lines longer than this are cut around the match. */
  maxLineCharacters: number;
  /**
   * When nothing is found, look once (cheaply) into the hidden and `.gitignore`d files of the
   * scope for a match, to say why the result is empty ({@link SearchOutcome.hiddenMatch}).
   */
  explainEmpty?: boolean;
}

/** One line of a content result. */
export interface SearchLine {
  /** 1-based line number. */
  line: number;
  /**
   * The line without its line ending, as it is in the file; of a long line, only the part kept
   * (no ellipsis added: `cut` and `cut_start` say what was left out on each side).
   */
  text: string;
  /** A matching line of this page, or a line shown for context. */
  kind: "match" | "context";
  /** Characters cut away from a long line (both sides together), when any. */
  cut?: number;
  /** Of those, the characters cut before `text` (a long line keeps the part around the match); absent when none. */
  cut_start?: number;
}

/** The results in one file. */
export interface SearchFileResult {
  /** Workspace path (relative to the root, POSIX). */
  path: string;
  /**
   * Content mode: matching lines of this file on the page. Count mode: every matching line of
   * the file. Files mode: 1.
   */
  count: number;
  /** Matching and context lines, in line order (content mode only; empty otherwise). */
  lines: SearchLine[];
}

/** What an engine found: one page, in path order, and how many items there are. */
export interface SearchOutcome {
  /** The page's files, in path order; lines in line order. */
  files: SearchFileResult[];
  /** Items in all (matching lines in content mode, files otherwise), when all were counted. */
  total?: number;
  /** A true lower bound on the items in all, when the engine stopped before counting all. */
  totalAtLeast?: number;
  /** Files with a match in all (content mode), when `total` is known. */
  totalFiles?: number;
  /** Matching lines in all (count mode), when `total` is known. */
  totalMatches?: number;
  /** Whether any file at all was searched (false: the glob or path matched no file). */
  searchedAnyFile: boolean;
  /** With `explainEmpty` and nothing found: a hidden or ignored file that would match. */
  hiddenMatch?: string;
}

/** A search engine for `grep_search`. */
export interface TextSearcher {
  /** A label for messages: `"ripgrep"`, `"js"`. */
  readonly kind: string;
  /**
   * Runs a search and returns one page. The page is a deterministic prefix window in path order
   * ({@link comparePaths}) whatever the engine's parallelism. Throws `FileSystemError` with
   * `INVALID_INPUT` for a bad pattern; stops all work (and kills any child process) when
   * `signal` aborts.
   */
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchOutcome>;
}

/** A `glob_search` request, as an engine receives it. */
export interface ListRequest extends SearchScope {
  /** 1-based position of the first file of the page (newest first). Default 1. */
  offset?: number;
  /** Most files on the page. */
  limit: number;
  /**
   * Only tell whether any file matches (the page holds at most one file, in no particular
   * order, and `total` is 0 or 1): used to explain an empty result cheaply.
   */
  anyOnly?: boolean;
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
  /** The page: newest files first (ties by path). */
  files: ListedFile[];
  /** Matching files in all. */
  total: number;
}

/** A file-listing engine for `glob_search`. */
export interface FileLister {
  /** A label for messages: `"ripgrep"`, `"js"`. */
  readonly kind: string;
  /** Lists files matching the scope's glob, newest first, one page. Stops work when `signal` aborts. */
  list(request: ListRequest, signal: AbortSignal): Promise<ListOutcome>;
}

/**
 * How many items an engine counts before it gives up on an exact total: a full-speed (parallel,
 * unordered) pass that finds at most this many items is complete — sorted afterwards, it pages
 * exactly; past it the engine stops and collects the page in path order instead, and reports
 * `totalAtLeast = max(budget, offset + limit) + 1`. Deterministic: it depends only on the call.
 *
 * @param need - `offset + limit - 1`, the last item of the page
 * @internal
 */
export function countBudget(need: number): number {
  return Math.min(Math.max(4 * need, 500), 10_000);
}

/** The lower bound an engine reports when it stopped counting (see {@link countBudget}). */
export function stoppedTotalAtLeast(need: number): number {
  return Math.max(countBudget(need), need) + 1;
}

/**
 * Cuts a long line to `maxCharacters`, keeping the region around `focus` (the match start).
 *
 * @param text - the whole line
 * @param focus - character index to keep visible
 * @param maxCharacters - the budget
 * @returns the kept text (as it is, no ellipsis), how many characters were cut in all and how
 *   many of them before the kept text
 * @internal
 */
export function cutLine(
  text: string,
  focus: number,
  maxCharacters: number,
): { text: string; cut: number; cutStart: number } {
  if (text.length <= maxCharacters) return { text, cut: 0, cutStart: 0 };
  const lead = Math.floor(maxCharacters / 4);
  let start = Math.max(0, Math.min(focus - lead, text.length - maxCharacters));
  // Never split a surrogate pair.
  const startCode = text.charCodeAt(start);
  if (start > 0 && startCode >= 0xdc00 && startCode <= 0xdfff) start += 1;
  let end = Math.min(text.length, start + maxCharacters);
  const endCode = text.charCodeAt(end - 1);
  if (end < text.length && endCode >= 0xd800 && endCode <= 0xdbff) end -= 1;
  return { text: text.slice(start, end), cut: text.length - (end - start), cutStart: start };
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
 * The one path order of every search result: segment by segment (a directory's files and
 * subdirectories interleaved by name, depth first), each name compared by code point — the
 * order of `rg --sort path` (byte order of UTF-8 names), stable across runs and locales.
 * `a/b` sorts before `a-c` and `a.b`.
 *
 * @internal
 */
export function comparePaths(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    if (a === 0x2f) return -1; // "/" ends a segment: the shorter name sorts first
    if (b === 0x2f) return 1;
    const aCode = left.codePointAt(index) as number;
    const bCode = right.codePointAt(index) as number;
    return aCode < bCode ? -1 : aCode > bCode ? 1 : 0;
  }
  return left.length - right.length;
}

/** What a {@link PageCollector} needs. */
export interface PageWindow {
  /** 1-based first item of the page. */
  offset: number;
  /** Most items on the page. */
  limit: number;
  /** Context lines around each match (content mode). */
  contextLines: number;
}

/**
 * Builds one page out of results fed in path order: content lines one by one (matches and
 * context, in line order within a file) or whole file rows. Items before `offset` are counted
 * and dropped; lines are kept only near a match of the page (a match of another page shown
 * there becomes context). `feedLine` / `feedRow` return `false` once the page and its trailing
 * context are complete and one more item was seen (the caller may stop searching).
 *
 * @internal
 */
export class PageCollector {
  /** Items (matches or files) seen so far. */
  seen = 0;
  private readonly first: number;
  private readonly last: number;
  private readonly context: number;
  private readonly done: SearchFileResult[] = [];
  private current: { path: string; lines: SearchLine[]; page: number[]; count: number } | undefined;
  private lastPageLine: { path: string; line: number } | undefined;
  private overflowed = false;

  constructor(window: PageWindow) {
    this.first = Math.max(1, window.offset);
    this.last = this.first + Math.max(0, window.limit) - 1;
    this.context = window.contextLines;
  }

  /** Whether an item past the page was seen. */
  get more(): boolean {
    return this.overflowed;
  }

  /**
   * Feeds one content line of `path`.
   *
   * @returns `false` when the page is complete (stop feeding)
   */
  feedLine(path: string, line: SearchLine): boolean {
    if (this.overflowed) {
      const last = this.lastPageLine;
      if (last === undefined || last.path !== path || line.line > last.line + this.context)
        return false;
    }
    if (this.current === undefined || this.current.path !== path) {
      this.flush();
      this.current = { path, lines: [], page: [], count: 0 };
    }
    const file = this.current;
    let onPage = false;
    if (line.kind === "match" && !this.overflowed) {
      this.seen += 1;
      if (this.seen > this.last) {
        this.overflowed = true;
        const last = this.lastPageLine;
        if (last === undefined || last.path !== path || line.line > last.line + this.context)
          return false;
      } else if (this.seen >= this.first) {
        onPage = true;
      }
    }
    if (onPage) {
      file.page.push(line.line);
      file.count += 1;
      this.lastPageLine = { path, line: line.line };
      file.lines.push(line);
    } else {
      file.lines.push(line.kind === "match" ? { ...line, kind: "context" } : line);
      if (file.page.length === 0 && this.seen < this.first) {
        // Nothing of this file is on the page yet: keep only what may become leading context.
        while (
          file.lines.length > 0 &&
          (file.lines[0] as SearchLine).line < line.line - this.context
        )
          file.lines.shift();
      }
    }
    return true;
  }

  /**
   * Feeds one whole file row (files and count modes).
   *
   * @returns `false` when the page is complete (stop feeding)
   */
  feedRow(path: string, count: number): boolean {
    if (this.overflowed) return false;
    this.seen += 1;
    if (this.seen > this.last) {
      this.overflowed = true;
      return false;
    }
    if (this.seen >= this.first) this.done.push({ path, count, lines: [] });
    return true;
  }

  /** Counts one more item without keeping it (after the page is complete). */
  countOnly(items = 1): void {
    this.seen += items;
    if (this.seen > this.last) this.overflowed = true;
  }

  /** The page's files, in the order fed. */
  finish(): SearchFileResult[] {
    this.flush();
    return this.done;
  }

  private flush(): void {
    const file = this.current;
    this.current = undefined;
    if (file === undefined || file.page.length === 0) return;
    // Both lists are in line order: walk them together.
    const kept: SearchLine[] = [];
    let next = 0;
    for (const line of file.lines) {
      while (next < file.page.length && (file.page[next] as number) + this.context < line.line)
        next += 1;
      const match = file.page[next];
      if (match !== undefined && line.line >= match - this.context) kept.push(line);
    }
    this.done.push({ path: file.path, count: file.count, lines: kept });
  }
}
