import type { ToolProgress } from "@agentool/contract";
import type { Workspace } from "@agentool/tools-fs";
import { decodeSource } from "./code-support.js";
import type { FileStamp, FileSymbols, SymbolCache } from "./symbol-cache.js";
import { extractSymbols } from "./tree-sitter/extract-symbols.js";
import {
  type CodeLanguage,
  isParsedLanguage,
  languageForPath,
  type ParsedLanguage,
} from "./tree-sitter/languages.js";
import { type CodeSymbol, toCodeSymbol } from "./tree-sitter/symbol.js";

/**
 * `find_symbol`'s second step: the declarations of the shortlisted files that answer a query.
 * Each file is stat'ed (through the workspace: confined) and its symbols come from the
 * workspace's {@link SymbolCache} when its size, mtime and identity are unchanged; only the other
 * files are read and parsed (reads overlapped, a few at a time). Hits keep the shortlist's order
 * (path order) and each file's document order.
 *
 * @internal
 */

/** One definition found. */
export interface DefinitionHit extends CodeSymbol {
  path: string;
  language: string;
  heuristic?: true;
}

/** What {@link definitionsIn} needs. */
export interface DefinitionSearch {
  workspace: Workspace;
  cache: SymbolCache;
  maxFileBytes: number;
  signal: AbortSignal;
  progress?: ((update: ToolProgress) => void) | undefined;
}

/** Files read and parsed at once (reads overlap; parsing is synchronous). */
const READ_CONCURRENCY = 4;

/** Files stat'ed at once. */
const STAT_BATCH = 64;

interface Candidate {
  path: string;
  language: ParsedLanguage;
  stamp: FileStamp;
  found?: FileSymbols;
}

async function stampsOf(search: DefinitionSearch, paths: readonly string[]): Promise<Candidate[]> {
  const wanted: Array<{ path: string; language: ParsedLanguage }> = [];
  for (const path of paths) {
    const language: CodeLanguage | undefined = languageForPath(path);
    if (language === undefined || !isParsedLanguage(language) || search.workspace.isSecret(path))
      continue;
    wanted.push({ path, language });
  }
  const candidates: Candidate[] = [];
  for (let start = 0; start < wanted.length; start += STAT_BATCH) {
    search.signal.throwIfAborted();
    const batch = wanted.slice(start, start + STAT_BATCH);
    const stats = await Promise.all(
      batch.map((file) => search.workspace.fileSystem.stat(file.path)),
    );
    batch.forEach((file, index) => {
      const stat = stats[index];
      if (stat === undefined || stat.type !== "file" || stat.size > search.maxFileBytes) return;
      candidates.push({
        ...file,
        stamp: {
          size: stat.size,
          mtimeMs: stat.modifiedMs,
          ...(stat.identity === undefined ? {} : { identity: stat.identity }),
        },
      });
    });
  }
  return candidates;
}

async function parseFile(
  search: DefinitionSearch,
  candidate: Candidate,
): Promise<FileSymbols | undefined> {
  const text = decodeSource(await search.workspace.fileSystem.readFile(candidate.path));
  if (text === undefined) return undefined;
  const extraction = await extractSymbols(candidate.language, text, { signal: search.signal });
  return search.cache.set(candidate.path, candidate.stamp, {
    symbols: extraction.symbols.map(toCodeSymbol),
    method: extraction.method,
  });
}

/**
 * The declarations of `paths` that `accept` keeps.
 *
 * @param search - the workspace, cache, size cap, signal and progress
 * @param paths - the shortlisted workspace paths, in path order
 * @param accept - whether a symbol of a file answers the query
 * @returns the hits and how many files were parsed (or came parsed from the cache)
 */
export async function definitionsIn(
  search: DefinitionSearch,
  paths: readonly string[],
  accept: (symbol: CodeSymbol, path: string) => boolean,
): Promise<{ hits: DefinitionHit[]; parsedFiles: number }> {
  const candidates = await stampsOf(search, paths);
  const misses: Candidate[] = [];
  for (const candidate of candidates) {
    candidate.found = search.cache.get(candidate.path, candidate.stamp);
    if (candidate.found === undefined) misses.push(candidate);
  }
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < misses.length) {
      search.signal.throwIfAborted();
      const miss = misses[next] as Candidate;
      next += 1;
      miss.found = await parseFile(search, miss);
      done += 1;
      if (done % 200 === 0) {
        search.progress?.({
          message: `parsed ${done} of ${misses.length} files`,
          completed: done,
          total: misses.length,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, misses.length) }, worker));
  const hits: DefinitionHit[] = [];
  let parsedFiles = 0;
  for (const candidate of candidates) {
    const found = candidate.found;
    if (found === undefined) continue;
    parsedFiles += 1;
    for (const symbol of found.symbols) {
      if (!accept(symbol, candidate.path)) continue;
      hits.push({
        path: candidate.path,
        language: candidate.language,
        ...symbol,
        ...(found.method === "heuristic" ? { heuristic: true as const } : {}),
      });
    }
  }
  return { hits, parsedFiles };
}
