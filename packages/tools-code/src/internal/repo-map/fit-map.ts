import type { Workspace } from "@agentool/tools-fs";
import { readSourceText } from "../ast-grep/source-file.js";
import { symbolCacheOf } from "../symbol-cache.js";
import { extractSymbols } from "../tree-sitter/extract-symbols.js";
import { toCodeSymbol } from "../tree-sitter/symbol.js";
import type { MappedFile } from "./collect-files.js";
import type { MapSymbol } from "./file-facts-cache.js";
import { MAX_SIGNATURE_CHARACTERS } from "./format-repo-map.js";
import { MEMBER_WEIGHT } from "./rank-definitions.js";
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
  /** Declarations of the name in a row shown as this one line (overloads, get/set), when over 1. */
  declarations?: number;
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
  /** Estimates the tokens of a page as the renderer writes it. */
  measure: (files: readonly RepoMapFile[], nextOffset: number | undefined) => number;
  /** 1-based position in the file order of the first file to show. */
  offset: number;
  maxFileBytes: number;
  signal: AbortSignal;
}

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
    const extraction = await extractSymbols(facts.language, source.text, {
      signal: request.signal,
    });
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

/** A file's other top-level symbols join its head when they score at least this share of its best. */
export const HEAD_RATIO = 0.1;
/**
 * Most top-level symbols in a file's head. Measured at the default budget (top-20 recall on
 * the Anthropic SDK, OpenAI SDK, zod, email): 1 → 0.65/0.65/0.35/0.85 over 25–28 files,
 * 2 → 0.80/0.80/0.55/0.85 over 15–28, 3 → 0.75/0.80/0.45/0.85 over 11–25,
 * 4 → 0.80/0.90/0.50/0.95 over 9–21, 5 → 0.80/0.90/0.50/1.00 over 9–18.
 */
export const HEAD_SIZE = 4;
/** Most files whose symbols are extracted for one page. */
const MAX_CANDIDATE_FILES = 400;

/** One line of the map: a symbol, with the overloads that follow it merged in. */
interface Line {
  /** Index of the symbol in the file's symbols. */
  symbol: number;
  /** Index of the last symbol merged into it. */
  last: number;
  /** Index (in the file's lines) of the line of its parent, or -1 at the top level. */
  parent: number;
  score: number;
  uses: number;
  files: number;
}

/** A file of the page, with its lines and head. */
interface Candidate {
  position: number;
  view: RepoMapFile;
  symbols: MapSymbol[];
  lines: Line[];
  /** Indexes of the head's lines. */
  head: number[];
}

/** What {@link fitMap} chose. */
export interface FitResult {
  /** The files shown, in order. */
  files: RepoMapFile[];
  /** The 1-based position of the next page's first file, when files remain. */
  nextOffset: number | undefined;
}

function linesOf(request: FitRequest, file: number, symbols: readonly MapSymbol[]): Line[] {
  const definitions = request.ranking.definitions();
  const lines: Line[] = [];
  const lineOf = new Map<string, number>();
  const focusedFile = request.focus.files.has(file);
  for (let index = 0; index < symbols.length; index += 1) {
    const symbol = symbols[index] as MapSymbol;
    const previous = lines[lines.length - 1];
    if (
      previous !== undefined &&
      (symbols[previous.last] as MapSymbol).qualified_name === symbol.qualified_name &&
      (symbols[previous.last] as MapSymbol).depth === symbol.depth
    ) {
      previous.last = index;
      continue;
    }
    const parent = symbol.parent === null ? -1 : (lineOf.get(symbol.parent) ?? -1);
    const id = request.idOf(symbol.name);
    const top = parent === -1;
    const found = request.ranking.scoreOf(file, id);
    let score = definitions.score(file, id, top);
    if (focusedFile || (id !== undefined && request.focus.names.has(id))) score += 1e6;
    if (!top) score = Math.min(score, (lines[parent] as Line).score * (1 - 1e-9));
    lineOf.set(symbol.qualified_name, lines.length);
    lines.push({ symbol: index, last: index, parent, score, uses: found.uses, files: found.files });
  }
  return lines;
}

function headOf(lines: readonly Line[], symbols: readonly MapSymbol[]): number[] {
  const top = lines
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.parent === -1);
  if (top.length === 0) return [];
  const ranked = [...top].sort(
    (left, right) => right.line.score - left.line.score || left.index - right.index,
  );
  const best = (ranked[0] as (typeof ranked)[number]).line.score;
  if (best <= 0) return [(top[0] as (typeof top)[number]).index];
  // One line per name: zod's `interface $ZodType` and `const $ZodType` are one entry of the head.
  const names = new Set<string>();
  return ranked
    .filter(({ line }) => {
      const name = (symbols[line.symbol] as MapSymbol).name;
      if (names.has(name)) return false;
      names.add(name);
      return true;
    })
    .slice(0, HEAD_SIZE)
    .filter(({ line }) => line.score >= best * HEAD_RATIO)
    .map(({ index }) => index);
}

/** Extracts the page's files, in order from `offset`, until clearly more than fits. */
async function candidatesOf(request: FitRequest): Promise<Candidate[]> {
  const { files, ranking } = request;
  const order = ranking.definitions().order;
  const best = order.length === 0 ? 1 : (ranking.rank[order[0] as number] as number) || 1;
  const budgetCharacters = request.budgetTokens * 3;
  const candidates: Candidate[] = [];
  let lowerBound = 0;
  for (let position = request.offset - 1; position < order.length; position += 1) {
    if (candidates.length >= MAX_CANDIDATE_FILES || lowerBound > budgetCharacters) break;
    request.signal.throwIfAborted();
    const file = order[position] as number;
    const mapped = files[file] as MappedFile;
    const { symbols, heuristic } = await ensureSymbols(request, mapped);
    if (symbols.length === 0) continue;
    const lines = linesOf(request, file, symbols);
    const head = headOf(lines, symbols);
    // What the head's lines cost at least as rendered (the breadth step shows them all).
    lowerBound += mapped.path.length + 1;
    for (const index of head) {
      const signature = (symbols[(lines[index] as Line).symbol] as MapSymbol).signature;
      lowerBound += 4 + Math.min(signature.replace(/\s+/g, " ").length, MAX_SIGNATURE_CHARACTERS);
    }
    const view: RepoMapFile = {
      path: mapped.path,
      language: mapped.facts.language,
      rank: Math.round(((ranking.rank[file] as number) / best) * 1000) / 1000,
      symbols: [],
      total_symbols: symbols.length,
    };
    if (heuristic) view.heuristic = true;
    candidates.push({ position: position + 1, view, symbols, lines, head });
  }
  return candidates;
}

function render(candidate: Candidate, chosen: ReadonlySet<number>): RepoMapFile {
  const indexes = [...chosen].sort((left, right) => left - right);
  return {
    ...candidate.view,
    symbols: indexes.map((index) => {
      const line = candidate.lines[index] as Line;
      const symbol = candidate.symbols[line.symbol] as MapSymbol;
      const shown: RepoMapSymbol = {
        ...symbol,
        end_line: Math.max(symbol.end_line, (candidate.symbols[line.last] as MapSymbol).end_line),
        references: line.uses,
        referencing_files: line.files,
      };
      if (line.last > line.symbol) shown.declarations = line.last - line.symbol + 1;
      return shown;
    }),
  };
}

/** Adds a line and the lines of its containers. */
function choose(candidate: Candidate, chosen: Set<number>, index: number): void {
  for (let at = index; at !== -1 && !chosen.has(at); at = (candidate.lines[at] as Line).parent)
    chosen.add(at);
}

/** The largest count in [low, high] for which `fits` holds (`fits` is monotone), or low - 1. */
function largest(low: number, high: number, fits: (count: number) => boolean): number {
  let best = low - 1;
  let from = low;
  let to = high;
  while (from <= to) {
    const middle = (from + to) >>> 1;
    if (fits(middle)) {
      best = middle;
      from = middle + 1;
    } else to = middle - 1;
  }
  return best;
}

/**
 * Chooses the page's files and symbols (see the module comment).
 *
 * @param request - the ranked files, the page's offset, the budget and the measure
 * @returns the shown files and the next page's offset
 */
export async function fitMap(request: FitRequest): Promise<FitResult> {
  const candidates = await candidatesOf(request);
  const total = request.files.length;
  const nextAfter = (count: number): number | undefined => {
    if (count === 0) return undefined;
    const next = (candidates[count - 1] as Candidate).position + 1;
    return next > total ? undefined : next;
  };
  const heads = candidates.map((candidate) => {
    const chosen = new Set<number>();
    for (const index of candidate.head) choose(candidate, chosen, index);
    return chosen;
  });
  const page = (count: number, sets: readonly Set<number>[]): RepoMapFile[] =>
    candidates
      .slice(0, count)
      .map((candidate, slot) => render(candidate, sets[slot] as Set<number>));
  const fits = (files: RepoMapFile[], count: number) =>
    request.measure(files, nextAfter(count)) <= request.budgetTokens;
  let count = largest(1, candidates.length, (tried) => fits(page(tried, heads), tried));
  if (count < 1) {
    // Not even the first file's head fits: its best line alone (a page shows at least one file).
    count = Math.min(1, candidates.length);
    if (count === 1) {
      const first = candidates[0] as Candidate;
      heads[0] = new Set();
      choose(first, heads[0], first.head[0] ?? 0);
    }
  }
  // The budget left goes to the shown files' other lines, best first.
  const extra: Array<{ slot: number; index: number; score: number }> = [];
  for (let slot = 0; slot < count; slot += 1) {
    const candidate = candidates[slot] as Candidate;
    candidate.lines.forEach((line, index) => {
      if (!(heads[slot] as Set<number>).has(index))
        extra.push({
          slot,
          index,
          score: line.parent === -1 ? line.score : line.score * MEMBER_WEIGHT,
        });
    });
  }
  extra.sort(
    (left, right) => right.score - left.score || left.slot - right.slot || left.index - right.index,
  );
  const withExtra = (taken: number): Set<number>[] => {
    const sets = heads.slice(0, count).map((set) => new Set(set));
    for (const item of extra.slice(0, taken))
      choose(candidates[item.slot] as Candidate, sets[item.slot] as Set<number>, item.index);
    return sets;
  };
  const taken = Math.max(
    0,
    largest(1, extra.length, (tried) => fits(page(count, withExtra(tried)), count)),
  );
  return { files: page(count, withExtra(taken)), nextOffset: nextAfter(count) };
}
