import { countBudget, type SearchRequest } from "../../internal/search-types.js";
import { modeArguments } from "./mode-arguments.js";
import { type RipgrepContext, runIn } from "./ripgrep-context.js";
import { parseRowRecord } from "./ripgrep-records.js";

/**
 * Longest a count pass may run (ms): past it the total stays a lower bound. A full count of a
 * large tree at rg's speed takes well under this; the bound only keeps a huge tree from making a
 * content page wait for its count.
 */
export const COUNT_PASS_TIMEOUT_MS = 3_000;

/** What a count pass found: the exact matching lines and files of the whole search. */
export interface CountedMatches {
  /** Matching lines in all. */
  matches: number;
  /** Files with a match in all. */
  files: number;
}

/**
 * Counts every matching line of a content-mode search with `rg --count` (parallel, one row per
 * file — none of the JSON a content pass reads), for the exact total a content page reports
 * when its first pass went over budget. It gives up — `undefined`, the total stays "at least" —
 * under the same rule as a count-mode search: when more files match than count mode's budget
 * for the same page ({@link countBudget}), so a content page is exact whenever the count-mode
 * page would be; and after {@link COUNT_PASS_TIMEOUT_MS}.
 *
 * @param context - the root, the rg binary and where it runs
 * @param request - the content-mode search
 * @param args - the scope's rg arguments, then the pattern arguments (after the mode's)
 * @param need - `offset + limit - 1` of the page
 * @param signal - kills the pass (and rejects) when the call is cancelled
 * @returns the exact counts, or `undefined` when it gave up
 */
export async function countMatches(
  context: RipgrepContext,
  request: SearchRequest,
  args: { scope: readonly string[]; pattern: readonly string[] },
  need: number,
  signal: AbortSignal,
  timeoutMs: number = COUNT_PASS_TIMEOUT_MS,
): Promise<CountedMatches | undefined> {
  const countRequest: SearchRequest = { ...request, outputMode: "count", contextLines: 0 };
  const budget = countBudget(need);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new Error("count pass timed out")), timeoutMs);
  let matches = 0;
  let files = 0;
  try {
    const run = await runIn(
      context,
      [...args.scope, ...modeArguments(countRequest, false), ...args.pattern],
      "\n",
      controller.signal,
      (record, final) => {
        const parsed = parseRowRecord(record, final, countRequest, context.where.prefix);
        if (parsed === undefined || !("path" in parsed)) return true;
        matches += parsed.count;
        files += 1;
        return files <= budget;
      },
    );
    // Exit code 2 with rows is a search that could not read some file, as in the content pass.
    if (run.stopped || run.exitCode === null || run.exitCode > 2) return undefined;
    return { matches, files };
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  }
}
