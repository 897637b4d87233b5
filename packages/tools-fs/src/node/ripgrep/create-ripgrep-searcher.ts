import { rgPath as bundledRgPath } from "@vscode/ripgrep";
import type { TextSearcher } from "../../internal/search-types.js";
import { resolveRoot } from "./check-failure.js";
import { ripgrepBinary } from "./memory-ceiling.js";
import { probeHidden } from "./probe-hidden.js";
import type { RipgrepContext } from "./ripgrep-context.js";
import type { RipgrepSearchOptions } from "./ripgrep-search-options.js";
import { scopeGlob, withScope } from "./scope-arguments.js";
import { searchPaged } from "./search-paged.js";
import { SkippedEntries } from "./skipped-entries.js";

/**
 * Creates the ripgrep engine for `grep_search` (Node only). rg runs with no config file, an
 * empty environment, in its own process group; the pattern goes in as `--regexp=…` and the path
 * after `--`, so nothing a model sends is read as a flag. `.gitignore` is honoured (also outside
 * git repositories), hidden files are skipped, symlinks are not followed, every secret glob is
 * excluded with `--glob '!…'` and every reported path is checked again.
 *
 * Pages are deterministic and the early stop is kept. A first pass runs rg at full speed
 * (parallel) and collects everything up to a budget (`countBudget`, 500 items for the
 * default limit): when it completes, the results are sorted by path and paged exactly. When the
 * budget is exceeded, rg is killed at once and a second pass (`--sort path`, which streams in
 * path order) is killed as soon as the page and one more item are in; the total is then a lower
 * bound. Every page is thus a window of one stable path order that `offset` pages through.
 *
 * An empty result costs at most one more process ({@link probeHidden}). Without a glob, the
 * first pass logs (`--debug`) which hidden and ignored entries it left out — rg's own decision,
 * `.gitignore`, `.ignore`, `.rgignore` and hidden names alike — and only those are searched, by a
 * walk of the scope that reaches nothing else; none left out, no process. With a glob, one walk
 * of the whole scope with hidden and ignored files, the glob applied as in the first pass.
 *
 * @param options - the workspace root on disk and optionally another `rg`
 * @returns a {@link TextSearcher}
 * @throws AgentoolError when the root cannot be resolved
 * @example
 * const grep = createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root }) });
 */
export function createRipgrepSearcher(options: RipgrepSearchOptions): TextSearcher {
  const root = resolveRoot(options.root);
  const binary = ripgrepBinary(options, bundledRgPath);
  return {
    kind: "ripgrep",
    async search(request, signal) {
      return withScope(root, request, signal, async (where, scopeArgs) => {
        const context: RipgrepContext = { ...binary, root, where };
        // A single file was searched as named (hidden or ignored alike): nothing to explain.
        const explain = request.explainEmpty === true && request.pathType === "directory";
        // rg logs each left-out entry with dozens of unbuffered writes (~70 µs): without a glob
        // those are the few hidden and ignored entries; with one, every file it leaves out.
        // With rg reading no ignore file, it logs none of what they leave out: the probe walks.
        const skipped =
          explain && scopeGlob(request) === undefined && where.ownIgnoreRules !== true
            ? new SkippedEntries(request, where.prefix)
            : undefined;
        const outcome = await searchPaged(context, request, scopeArgs, signal, skipped);
        if (!explain || outcome.total !== 0) return outcome;
        const hiddenMatch = await probeHidden(context, request, skipped, signal);
        return hiddenMatch === undefined ? outcome : { ...outcome, hiddenMatch };
      });
    },
  };
}
