import type { Workspace } from "@agentool/tools-fs";
import { readSourceText } from "../ast-grep/source-file.js";
import { symbolCacheOf } from "../symbol-cache.js";
import { extractSymbols } from "../tree-sitter/extract-symbols.js";
import { toCodeSymbol } from "../tree-sitter/symbol.js";
import type { MappedFile } from "./collect-files.js";
import type { MapSymbol } from "./file-facts-cache.js";
import type { FileRanking, RankFocus } from "./reference-graph.js";

/**
 * The last step of `repo_map`: the best-ranked files get their tree-sitter symbols (extracted
 * once per file version, in the workspace's symbol cache shared with `find_symbol`), every symbol of those files is scored by the rank flowing to
 * its name, and the largest prefix of the symbols in score order whose rendering fits the token
 * budget is kept (a binary search; a member brings its container's line along).
 *
 * @internal
 */

/** A shown symbol, with how much it is used from other files. */
export interface RepoMapSymbol extends MapSymbol {
  /** Uses of its name in other files of the scope (lexical count). */
  references: number;
  /** How many other files use its name. */
  referencing_files: number;
}

/** A shown file. */
export interface RepoMapFile {
  /** Workspace path. */
  path: string;
  /** Its language. */
  language: string;
  /** Its PageRank, scaled so the best file of the map is 1 (three decimals). */
  rank: number;
  /** The symbols shown, in line order (containers before members). */
  symbols: RepoMapSymbol[];
  /** Symbols the file has in all. */
  total_symbols: number;
  /** Present when the symbols come from line patterns, not a grammar (a huge file, a parse timeout). */
  heuristic?: true;
}

/** What {@link fitMap} needs. */
export interface FitRequest {
  workspace: Workspace;
  files: readonly MappedFile[];
  ranking: FileRanking;
  /** Files and names the caller focuses on: their symbols come first. */
  focus: RankFocus;
  /** The name table's id of a name, when known. */
  idOf: (name: string) => number | undefined;
  /** Longest rendering allowed, in estimated tokens. */
  budgetTokens: number;
  /** Estimates the tokens of a list of files as the renderer writes them. */
  measure: (files: readonly RepoMapFile[]) => number;
  maxFileBytes: number;
  signal: AbortSignal;
}

/** Most files whose symbols are extracted for one map. */
const MAX_CANDIDATE_FILES = 300;

/** A file's symbols as the map shows them, from the workspace's symbol cache or parsed now. */
async function ensureSymbols(
  request: FitRequest,
  file: MappedFile,
): Promise<{ symbols: MapSymbol[]; heuristic: boolean }> {
  const facts = file.facts;
  const stamp = {
    size: facts.size,
    mtimeMs: facts.mtimeMs,
    ...(facts.identity === undefined ? {} : { identity: facts.identity }),
  };
  const cache = symbolCacheOf(request.workspace);
  let found = cache.get(file.path, stamp);
  if (found === undefined) {
    const source = await readSourceText(request.workspace, file.path, request.maxFileBytes);
    if (!("text" in source)) return { symbols: [], heuristic: false };
    const extraction = await extractSymbols(facts.language, source.text);
    found = cache.set(file.path, stamp, {
      symbols: extraction.symbols.map(toCodeSymbol),
      method: extraction.method,
    });
  }
  return {
    symbols: found.symbols.map((symbol) => ({
      kind: symbol.kind,
      name: symbol.name,
      qualified_name: symbol.qualified_name,
      signature: symbol.signature,
      start_line: symbol.start_line,
      end_line: symbol.end_line,
      parent: symbol.parent,
      depth: symbol.depth,
    })),
    heuristic: found.method === "heuristic",
  };
}

interface Item {
  file: number;
  symbol: number;
  score: number;
}

/**
 * Chooses the files and symbols that fit the budget.
 *
 * @param request - the ranked files, the budget and the measure
 * @returns the shown files (best first) and the file count looked at
 */
export async function fitMap(request: FitRequest): Promise<RepoMapFile[]> {
  const { files, ranking } = request;
  const order = files
    .map((_, index) => index)
    .sort(
      (left, right) =>
        (ranking.rank[right] as number) - (ranking.rank[left] as number) ||
        ((files[left] as MappedFile).path < (files[right] as MappedFile).path ? -1 : 1),
    );
  const best = order.length === 0 ? 1 : (ranking.rank[order[0] as number] as number) || 1;
  // Extract symbols file by file, best first, until there is clearly more than fits.
  const candidates: Array<{ file: number; symbols: MapSymbol[]; view: RepoMapFile }> = [];
  let fullCharacters = 0;
  const enoughCharacters = request.budgetTokens * 4 * 3;
  for (const file of order) {
    if (candidates.length >= MAX_CANDIDATE_FILES) break;
    if (candidates.length >= 5 && fullCharacters >= enoughCharacters) break;
    request.signal.throwIfAborted();
    const mapped = files[file] as MappedFile;
    const { symbols, heuristic } = await ensureSymbols(request, mapped);
    if (symbols.length === 0) continue;
    for (const symbol of symbols) fullCharacters += symbol.signature.length + 12 + 2 * symbol.depth;
    const view: RepoMapFile = {
      path: mapped.path,
      language: mapped.facts.language,
      rank: Math.round(((ranking.rank[file] as number) / best) * 1000) / 1000,
      symbols: [],
      total_symbols: symbols.length,
    };
    if (heuristic) view.heuristic = true;
    candidates.push({ file, symbols, view });
  }
  const items: Item[] = [];
  const scored = candidates.map((candidate, slot) =>
    candidate.symbols.map((symbol, index) => {
      const id = request.idOf(symbol.name);
      const found = ranking.scoreOf(candidate.file, id);
      // Unused symbols of a better file come before those of a worse one; top level first.
      const tie = (ranking.rank[candidate.file] as number) * 1e-3 * (symbol.depth === 0 ? 1 : 0.5);
      // A score is at most the whole rank (1): the focus's own symbols come before all others.
      const focused =
        request.focus.files.has(candidate.file) ||
        (id !== undefined && request.focus.names.has(id));
      items.push({ file: slot, symbol: index, score: found.score + tie + (focused ? 1 : 0) });
      return found;
    }),
  );
  items.sort(
    (left, right) =>
      right.score - left.score || left.file - right.file || left.symbol - right.symbol,
  );
  const build = (count: number): RepoMapFile[] => {
    const chosen = candidates.map(() => new Set<number>());
    for (const item of items.slice(0, count)) {
      const set = chosen[item.file] as Set<number>;
      set.add(item.symbol);
      // A member brings its containers' lines along.
      const symbols = (candidates[item.file] as (typeof candidates)[number]).symbols;
      let parent = (symbols[item.symbol] as MapSymbol).parent;
      for (let index = item.symbol - 1; index >= 0 && parent !== null; index -= 1) {
        const candidate = symbols[index] as MapSymbol;
        if (candidate.qualified_name === parent) {
          set.add(index);
          parent = candidate.parent;
        }
      }
    }
    const firstSeen = new Map<number, number>();
    items.slice(0, count).forEach((item, position) => {
      if (!firstSeen.has(item.file)) firstSeen.set(item.file, position);
    });
    return [...firstSeen.keys()].map((slot) => {
      const candidate = candidates[slot] as (typeof candidates)[number];
      const indexes = [...(chosen[slot] as Set<number>)].sort((left, right) => left - right);
      return {
        ...candidate.view,
        symbols: indexes.map((index) => {
          const symbol = candidate.symbols[index] as MapSymbol;
          const found = (scored[slot] as Array<{ uses: number; files: number }>)[index] as {
            uses: number;
            files: number;
          };
          return { ...symbol, references: found.uses, referencing_files: found.files };
        }),
      };
    });
  };
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (request.measure(build(middle)) <= request.budgetTokens) low = middle;
    else high = middle - 1;
  }
  return build(low);
}
