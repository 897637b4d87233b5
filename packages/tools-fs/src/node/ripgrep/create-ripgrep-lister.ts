import { statSync } from "node:fs";
import { join } from "node:path";
import { rgPath as bundledRgPath } from "@vscode/ripgrep";
import { comparePaths, type FileLister, type ListOutcome } from "../../internal/search-types.js";
import { checkFailure, resolveRoot } from "./check-failure.js";
import { ripgrepBinary } from "./memory-ceiling.js";
import { toWorkspacePath, visible } from "./ripgrep-records.js";
import type { RipgrepSearchOptions } from "./ripgrep-search-options.js";
import { runRipgrep } from "./run-ripgrep.js";
import { withScope } from "./scope-arguments.js";

/**
 * Creates the ripgrep engine for `glob_search` (Node only): `rg --files --sortr modified` with the
 * same hardening as `createRipgrepSearcher`; one page of files (newest first) is returned
 * with their modification times, and the total.
 *
 * @param options - the workspace root on disk and optionally another `rg`
 * @returns a {@link FileLister}
 * @throws AgentoolError when the root cannot be resolved
 * @example
 * const glob = createGlobSearchTool({ workspace, lister: createRipgrepLister({ root }) });
 */
export function createRipgrepLister(options: RipgrepSearchOptions): FileLister {
  const root = resolveRoot(options.root);
  const binary = ripgrepBinary(options, bundledRgPath);
  return {
    kind: "ripgrep",
    async list(request, signal): Promise<ListOutcome> {
      const first = Math.max(1, request.offset ?? 1);
      let kept: string[] = [];
      let total = 0;
      const anyOnly = request.anyOnly === true;
      const run = await withScope(root, request, signal, (where, scopeArgs) => {
        // Each run starts from nothing (withScope may run this twice).
        kept = [];
        total = 0;
        return runRipgrep(
          binary,
          where,
          [
            "--files",
            "--null",
            ...(anyOnly ? [] : ["--sortr=modified"]),
            ...scopeArgs,
            "--",
            where.path,
          ],
          "\0",
          signal,
          (record) => {
            const path = toWorkspacePath(record, where.prefix);
            if (!visible(path, request)) return true;
            total += 1;
            if (total >= first && kept.length < request.limit) kept.push(path);
            return !anyOnly;
          },
        );
      });
      checkFailure(run, request);
      // The page's times, synchronously: a stat is a few microseconds, where each through the
      // thread pool costs a hand-off and a promise (a page of 300: ~5 ms → ~1.5 ms).
      const files = kept.map((path) => {
        try {
          return {
            path,
            modifiedMs: statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs ?? 0,
          };
        } catch {
          return { path, modifiedMs: 0 };
        }
      });
      files.sort(
        (left, right) => right.modifiedMs - left.modifiedMs || comparePaths(left.path, right.path),
      );
      return { files, total };
    },
  };
}
