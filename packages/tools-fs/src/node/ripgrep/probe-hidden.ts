import type { SearchRequest, SearchScope } from "../../internal/search-types.js";
import { PROC_FD } from "../safe-open.js";
import { gitignoreLiteral } from "./gitignore-literal.js";
import { modeArguments } from "./mode-arguments.js";
import { probeSkippedEntries } from "./probe-skipped-entries.js";
import { type RipgrepContext, runIn } from "./ripgrep-context.js";
import { toWorkspacePath, visible } from "./ripgrep-records.js";
import {
  BASE_ARGUMENTS,
  globRules,
  HIDDEN_AND_IGNORED_ARGUMENTS,
  scopeGlob,
  secretArguments,
  writeIgnoreFile,
} from "./scope-arguments.js";
import type { SkippedEntries } from "./skipped-entries.js";

/**
 * The ignore rules of a probe walk that reaches only `entries` below the scope: each directory on
 * the way to an entry ignores all its children but the next ones on the way (rules anchored to
 * rg's working directory, where the paths it reports start: `scopePath` and `entries` are given
 * that way).
 */
function probeRules(scopePath: string, entries: readonly string[]): string[] {
  const below = scopePath.length === 0 ? "" : `${scopePath}/`;
  const kept = new Map<string, string[]>();
  const isEntry = new Set<string>();
  for (const entry of entries) {
    if (!entry.startsWith(below) || entry.length === below.length) continue;
    isEntry.add(entry);
    let child = entry;
    for (;;) {
      const slash = child.lastIndexOf("/");
      const parent = slash === -1 ? "" : child.slice(0, slash);
      const known = kept.get(parent);
      if (known !== undefined) {
        known.push(child);
        break; // its own way up is already there
      }
      kept.set(parent, [child]);
      if (parent === scopePath) break;
      child = parent;
    }
  }
  const anchored = (path: string) => `/${gitignoreLiteral(path)}`;
  const rules: string[] = [];
  for (const [directory, children] of kept) {
    rules.push(directory.length === 0 ? "/*" : `${anchored(directory)}/*`);
    for (const child of children)
      rules.push(isEntry.has(child) ? `!${anchored(child)}` : `!${anchored(child)}/`);
  }
  return rules;
}

/**
 * The one extra process of an empty result: a walk with hidden and ignored files included,
 * stopped at the first matching file that is not secret. Without a glob it reaches only the
 * entries the first pass reported leaving out ({@link probeRules}) — no process at all when there
 * are none — on one thread (cheaper than a pool for a few entries, and the same file every time
 * for an unchanged tree). With a glob (whose first pass logs nothing, see
 * `createRipgrepSearcher`), or when the entries are unknown (an rg that logs nothing) or
 * too many, it walks the whole scope in parallel, the glob applied by the same ignore rules as
 * in the first pass; the first pass found nothing visible, so any match is hidden or ignored.
 * No path is handed to rg by name, so no symlink is followed.
 *
 * @returns the workspace path of the first matching hidden or ignored file, if any
 */
export async function probeHidden(
  context: RipgrepContext,
  request: SearchRequest,
  skipped: SkippedEntries | undefined,
  signal: AbortSignal,
): Promise<string | undefined> {
  const where = context.where;
  let rules: readonly string[];
  const entriesOnly = skipped?.logged === true && !skipped.overflowed;
  if (skipped !== undefined && entriesOnly) {
    if (skipped.paths.length === 0) return undefined;
    // A few entries and a plain-text pattern: searched here, no second process.
    const probeBase =
      where.fd !== undefined
        ? { path: `${PROC_FD}/${where.fd}`, workspacePath: request.path }
        : request.path.length === 0
          ? { path: context.root, workspacePath: "" }
          : undefined;
    if (probeBase !== undefined) {
      const verdict = await probeSkippedEntries(probeBase, request, skipped.paths, signal);
      if (verdict.decided) return verdict.example;
    }
    // The rules are anchored where rg runs: strip what it prefixes to the paths it reports.
    const base = where.path === "." ? "" : where.path;
    rules = probeRules(
      base,
      skipped.paths.map((entry) => entry.slice(where.prefix.length)),
    );
  } else {
    const glob = scopeGlob(request);
    rules = glob === undefined ? [] : globRules(glob, false);
  }
  const rulesFile = rules.length === 0 ? undefined : await writeIgnoreFile(rules);
  const scope: SearchScope = { ...request, includeHiddenAndIgnored: true };
  let example: string | undefined;
  try {
    await runIn(
      context,
      [
        ...BASE_ARGUMENTS,
        // `--sort=path` would cost ~5 ms more than one thread, whose walk order is as stable.
        ...(entriesOnly ? ["--threads=1"] : []),
        ...HIDDEN_AND_IGNORED_ARGUMENTS,
        ...(rulesFile === undefined ? [] : ["--ignore-file", rulesFile.value]),
        ...secretArguments(request),
        ...modeArguments({ ...request, outputMode: "files_with_matches" }, false),
        `--regexp=${request.pattern}`,
        "--",
        where.path,
      ],
      "\0",
      signal,
      (record) => {
        const path = toWorkspacePath(record, where.prefix);
        if (!visible(path, scope)) return true;
        example = path;
        return false;
      },
    );
  } finally {
    await rulesFile?.release();
  }
  // A probe that fails (an unreadable entry) names nothing; the first pass checked the pattern.
  return example;
}
