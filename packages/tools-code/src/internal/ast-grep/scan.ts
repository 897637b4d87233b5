import { ToolFailureError } from "@agentool/contract";
import type { FileLister, ResolvedPath, Workspace } from "@agentool/tools-fs";
import type { SgNode } from "@ast-grep/napi";
import { type AstGrepModule, type AstLanguage, grammarForPath, languageGlob } from "./languages.js";
import { readSourceText, type SkipReason } from "./source-file.js";

/** The files of a scan, as the lister found them. */
export interface ScanFiles {
  /** Workspace paths to scan, in path order. */
  paths: string[];
  /** Files of the language in the scope in all (more than `paths` when the file cap cut them). */
  found: number;
}

/**
 * The one path order of every result (the order of `rg --sort path`): segment by segment, each
 * name by code point, so `a/b` sorts before `a-c`.
 */
export function comparePaths(left: string, right: string): number {
  const a = left.split("/");
  const b = right.split("/");
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const x = a[index] as string;
    const y = b[index] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The files of a language under a resolved path: a file named directly is the one file (whatever
 * its extension); a directory is listed by the workspace's lister (`.gitignore` and hidden
 * files skipped, secret paths never listed, symlinks not followed) by the language's
 * extensions. At most `maxFiles` are kept — the newest, as the lister orders them — then
 * sorted by path.
 */
export async function listLanguageFiles(
  workspace: Workspace,
  lister: FileLister,
  resolved: ResolvedPath,
  isDirectory: boolean,
  language: AstLanguage,
  maxFiles: number,
  signal: AbortSignal,
): Promise<ScanFiles> {
  if (!isDirectory) return { paths: [resolved.real], found: 1 };
  const outcome = await lister.list(
    {
      path: resolved.real,
      pathType: "directory",
      glob: languageGlob(language),
      includeHiddenAndIgnored: false,
      isSecret: (path) => workspace.isSecret(path),
      secretGlobs: workspace.secretPaths,
      offset: 1,
      limit: maxFiles,
    },
    signal,
  );
  const paths = outcome.files.map((file) => file.path).sort(comparePaths);
  return { paths, found: outcome.total };
}

/** What {@link scanFiles} reports of one file with matches. */
export interface FileMatches {
  /** Workspace path. */
  path: string;
  /** The file's text (BOM dropped). */
  text: string;
  /** The matches, in document order. */
  nodes: SgNode[];
}

/** How many files a scan skipped, by reason. */
export type SkippedCounts = Record<SkipReason, number>;

/** What a scan saw. */
export interface ScanSummary {
  /** Files read and parsed. */
  scanned: number;
  /** Files skipped, by reason. */
  skipped: SkippedCounts;
  /** Whether the scan stopped early because `visit` asked to. */
  stopped: boolean;
}

/**
 * Reads, parses (off the main thread, `parseAsync`) and matches each file in order, handing the
 * files with matches to `visit`; stops when `visit` returns `false` or `signal` aborts. Only
 * one file's tree is alive at a time, so memory stays bounded on any tree.
 */
export async function scanFiles(
  napi: AstGrepModule,
  workspace: Workspace,
  paths: readonly string[],
  language: AstLanguage,
  pattern: string,
  maxFileBytes: number,
  signal: AbortSignal,
  visit: (file: FileMatches) => boolean | Promise<boolean>,
  progress?: (done: number) => void,
): Promise<ScanSummary> {
  const skipped: SkippedCounts = { too_large: 0, not_text: 0, unreadable: 0 };
  let scanned = 0;
  for (const [index, path] of paths.entries()) {
    if (signal.aborted) throw new ToolFailureError("ABORTED", "The search was stopped.");
    const source = await readSourceText(workspace, path, maxFileBytes);
    if ("skip" in source) {
      skipped[source.skip] += 1;
      continue;
    }
    scanned += 1;
    const root = await napi.parseAsync(grammarForPath(language, path), source.text);
    const nodes = root.root().findAll(pattern);
    if (nodes.length > 0 && !(await visit({ path, text: source.text, nodes }))) {
      return { scanned, skipped, stopped: true };
    }
    if (progress !== undefined && (index + 1) % 200 === 0) progress(index + 1);
  }
  return { scanned, skipped, stopped: false };
}
