import {
  comparePaths,
  countBudget,
  PageCollector,
  type SearchLine,
  type SearchOutcome,
  type SearchRequest,
  stoppedTotalAtLeast,
} from "../../internal/search-types.js";
import { checkFailure } from "./check-failure.js";
import { countMatches } from "./count-pass.js";
import { modeArguments } from "./mode-arguments.js";
import { type RipgrepContext, runIn } from "./ripgrep-context.js";
import { parseJsonRecord, parseRowRecord } from "./ripgrep-records.js";
import type { RipgrepRun } from "./run-ripgrep.js";
import type { SkippedEntries } from "./skipped-entries.js";

/** The page a search asks for (what {@link PageCollector} keeps). */
type PageWindow = ConstructorParameters<typeof PageCollector>[0];

/**
 * One search, paged deterministically in two passes. Pass 1 runs rg at full speed (parallel,
 * unordered) and collects everything up to a budget ({@link countBudget}): when it completes,
 * the results are sorted by path and paged exactly. Pass 2 (`--sort=path`, which streams in path
 * order) starts while pass 1 still runs, as soon as pass 1 has seen more than the page needs, so
 * a dense pattern does not wait for pass 1 to reach its budget and then pay a second start-up;
 * pass 1 finishing under budget cancels it. When pass 1 exceeds its budget, it is killed and
 * pass 2 is stopped after the page and one more item: the total is then a lower bound — except
 * on the later pages (`offset` > 1) of a content-mode search, where a count pass
 * ({@link countMatches}, `rg --count` beside pass 2) makes it exact whenever count mode would
 * know it (no more files match than its budget). The first page skips it: it would cost a scan
 * of the tree on the most common call (measured: `limit: 10` on a frequent word 39 → 95 ms).
 *
 * @param context - the root, the rg binary and where it runs
 * @param request - the search
 * @param scopeArgs - the scope's rg arguments
 * @param signal - kills both passes
 * @param skipped - what pass 1 logs leaving out, when an empty result is to be explained
 * @returns the page and its totals
 */
export async function searchPaged(
  context: RipgrepContext,
  request: SearchRequest,
  scopeArgs: readonly string[],
  signal: AbortSignal,
  skipped: SkippedEntries | undefined,
): Promise<SearchOutcome> {
  const offset = Math.max(1, request.offset ?? 1);
  const need = offset + request.limit - 1;
  const contentMode = request.outputMode === "content";
  const window: PageWindow = {
    offset,
    limit: request.limit,
    contextLines: contentMode ? request.contextLines : 0,
  };
  const separator = contentMode ? "\n" : request.outputMode === "count" ? "\n" : "\0";
  const patternArgs = [`--regexp=${request.pattern}`, "--", context.where.path];
  const ordered = new OrderedPass(
    context,
    request,
    window,
    [...scopeArgs, "--sort=path", ...modeArguments(request, false), ...patternArgs],
    separator,
    signal,
  );
  const first = new FirstPass(request, context.where.prefix, need, skipped, ordered);
  let run: RipgrepRun;
  try {
    run = await runIn(
      context,
      [
        ...scopeArgs,
        ...modeArguments(request, true),
        ...(skipped === undefined ? [] : ["--debug"]),
        ...patternArgs,
      ],
      separator,
      signal,
      first.onRecord,
      skipped === undefined ? undefined : (line) => skipped.note(line),
    );
  } catch (error) {
    ordered.cancel();
    throw error;
  }
  if (!run.stopped) await ordered.cancelAndWait();
  checkFailure(run, request);
  if (!run.stopped) return first.page(window);
  // The first page of a content search stays "at least": a count pass costs a scan of the tree
  // (and gives up anyway when more files match than count mode counts), which would make the
  // most common call — one capped page of a frequent word — pay for a total the model rarely
  // needs. A model that pages on gets the exact total on every later page.
  if (!contentMode || offset === 1) return ordered.finish(need);
  const [outcome, counted] = await Promise.all([
    ordered.finish(need),
    countMatches(context, request, { scope: scopeArgs, pattern: patternArgs }, need, signal),
  ]);
  if (counted === undefined || outcome.totalAtLeast === undefined) return outcome;
  return {
    files: outcome.files,
    searchedAnyFile: outcome.searchedAnyFile,
    total: counted.matches,
    totalFiles: counted.files,
  };
}

/** Pass 1: parallel and unordered; complete when it finds at most its budget of items. */
class FirstPass {
  private readonly lines = new Map<string, SearchLine[]>();
  private readonly rows: Array<{ path: string; count: number }> = [];
  private readonly contentMode: boolean;
  private readonly budget: number;
  private items = 0;
  private searches: number | undefined;
  private orderedStarted = false;

  constructor(
    private readonly request: SearchRequest,
    private readonly prefix: string,
    private readonly need: number,
    private readonly skipped: SkippedEntries | undefined,
    private readonly ordered: OrderedPass,
  ) {
    this.contentMode = request.outputMode === "content";
    this.budget = countBudget(need);
  }

  /** Reads one record; `false` (over budget) kills rg. */
  readonly onRecord = (record: string, final: boolean): boolean => {
    const parsed = this.contentMode
      ? parseJsonRecord(record, this.request, this.prefix)
      : parseRowRecord(record, final, this.request, this.prefix);
    if (parsed === undefined) return true;
    if ("searches" in parsed) {
      this.searches = parsed.searches;
      return true;
    }
    if ("line" in parsed) {
      let list = this.lines.get(parsed.path);
      if (list === undefined) {
        list = [];
        this.lines.set(parsed.path, list);
      }
      list.push(parsed.line);
      if (parsed.line.kind === "match") this.items += 1;
    } else {
      this.rows.push(parsed);
      this.items += 1;
    }
    // A visible match: the result is not empty, nothing hidden needs naming.
    if (this.items > 0) this.skipped?.stop();
    if (this.items > this.need && !this.orderedStarted) {
      this.orderedStarted = true;
      this.ordered.start();
    }
    return this.items <= this.budget;
  };

  /** The page of a complete pass: everything sorted by path, then windowed exactly. */
  page(window: PageWindow): SearchOutcome {
    const collector = new PageCollector(window);
    const searchedAny = (found: number) => found > 0 || (this.searches ?? 1) > 0;
    if (this.contentMode) {
      const paths = [...this.lines.keys()].sort(comparePaths);
      for (const path of paths) {
        const fileLines = this.lines.get(path) as SearchLine[];
        fileLines.sort((left, right) => left.line - right.line);
        for (const line of fileLines) if (!collector.feedLine(path, line)) break;
      }
      return {
        files: collector.finish(),
        total: this.items,
        totalFiles: paths.length,
        searchedAnyFile: searchedAny(paths.length),
      };
    }
    const rows = this.rows;
    rows.sort((left, right) => comparePaths(left.path, right.path));
    let totalMatches = 0;
    for (const row of rows) {
      totalMatches += row.count;
      collector.feedRow(row.path, row.count);
    }
    const outcome: SearchOutcome = {
      files: collector.finish(),
      total: rows.length,
      searchedAnyFile: searchedAny(rows.length),
    };
    if (this.request.outputMode === "count") outcome.totalMatches = totalMatches;
    return outcome;
  }
}

/** Pass 2: streams the matches in path order, stopped once the page and one more item are in. */
class OrderedPass {
  private readonly controller = new AbortController();
  private readonly collector: PageCollector;
  private readonly contentMode: boolean;
  private readonly prefix: string;
  private files = 0;
  private lastPath: string | undefined;
  private matches = 0;
  private run: Promise<RipgrepRun> | undefined;
  private readonly onOuterAbort = () => this.controller.abort(this.signal.reason);

  constructor(
    private readonly context: RipgrepContext,
    private readonly request: SearchRequest,
    window: PageWindow,
    private readonly args: readonly string[],
    private readonly separator: string,
    private readonly signal: AbortSignal,
  ) {
    this.collector = new PageCollector(window);
    this.contentMode = request.outputMode === "content";
    this.prefix = context.where.prefix;
    signal.addEventListener("abort", this.onOuterAbort, { once: true });
  }

  /** Starts rg (once). */
  start(): Promise<RipgrepRun> {
    if (this.run === undefined) {
      this.run = runIn(
        this.context,
        this.args,
        this.separator,
        this.controller.signal,
        this.onRecord,
      );
      // Awaited later; marked handled now so a cancelled pass 1 cannot leave it unobserved.
      this.run.catch(() => undefined);
    }
    return this.run;
  }

  private readonly onRecord = (record: string, final: boolean): boolean => {
    const { request, prefix, collector } = this;
    if (this.contentMode) {
      const parsed = parseJsonRecord(record, request, prefix);
      if (parsed === undefined || !("line" in parsed)) return true;
      if (parsed.line.kind === "match" && parsed.path !== this.lastPath) {
        this.lastPath = parsed.path;
        this.files += 1;
      }
      return collector.feedLine(parsed.path, parsed.line);
    }
    const parsed = parseRowRecord(record, final, request, prefix);
    if (parsed === undefined || !("path" in parsed)) return true;
    this.matches += parsed.count;
    return collector.feedRow(parsed.path, parsed.count);
  };

  /** Pass 1 failed: stop this pass, without waiting for it. */
  cancel(): void {
    this.signal.removeEventListener("abort", this.onOuterAbort);
    this.controller.abort();
  }

  /** Pass 1 completed: this pass is not needed; stop it (if it started) and wait for it. */
  async cancelAndWait(): Promise<void> {
    this.signal.removeEventListener("abort", this.onOuterAbort);
    if (this.run !== undefined) {
      this.controller.abort();
      await this.run.catch(() => undefined);
    }
  }

  /** Pass 1 exceeded its budget: the page comes from this pass. */
  async finish(need: number): Promise<SearchOutcome> {
    let run: RipgrepRun;
    try {
      run = await this.start();
    } finally {
      this.signal.removeEventListener("abort", this.onOuterAbort);
    }
    checkFailure(run, this.request);
    const collector = this.collector;
    const outcome: SearchOutcome = { files: collector.finish(), searchedAnyFile: true };
    if (run.stopped || collector.more) {
      outcome.totalAtLeast = stoppedTotalAtLeast(need);
    } else {
      // The tree shrank between the passes: what the second pass saw is all there is.
      outcome.total = collector.seen;
      if (this.contentMode) outcome.totalFiles = this.files;
      if (this.request.outputMode === "count") outcome.totalMatches = this.matches;
    }
    return outcome;
  }
}
