import {
  formatCount,
  formatNextCall,
  formatTruncationMarker,
  type NextCallValue,
} from "@agentool/contract";
import type { MapSkipped } from "./collect-files.js";
import type { RepoMapFile } from "./fit-map.js";

/** The default name of the repo map tool. */
export const REPO_MAP_TOOL_NAME = "repo_map";

/**
 * Characters per token of the estimate (a map is mostly identifiers, paths and punctuation; the
 * o200k tokenizer gives 3.0–3.3 characters per token on maps of real code, so budgets hold).
 */
export const CHARACTERS_PER_TOKEN = 3;

/**
 * The cheap token estimate `repo_map` fits its budget with: characters ÷ {@link CHARACTERS_PER_TOKEN}, rounded up.
 *
 * @param text - model-facing text
 * @returns the estimated tokens
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARACTERS_PER_TOKEN);
}

/** What `repo_map` returns (every key snake_case). */
export interface RepoMapToolData {
  /** The mapped path as shown to the model (`.` for the root). */
  path: string;
  /** The focus as given. */
  focus?: string[];
  /** Focus entries that matched no file, directory or defined name. */
  unmatched_focus?: string[];
  /** The token budget that applied. */
  budget_tokens: number;
  /** This map's rendered size in estimated tokens (characters ÷ 3, rounded up). */
  estimated_tokens: number;
  /** Source files in scope (languages with a grammar, CSS aside; not hidden, ignored or secret). */
  source_files: number;
  /** Files ranked (source files minus those skipped). */
  ranked_files: number;
  /** The 1-based position, in the map's file order, of this page's first file. */
  offset: number;
  /** Files in the map's order (the ranked files): what `offset` pages through. */
  total: number;
  /** The files shown, best ranked first, each with the symbols that fit. */
  files: RepoMapFile[];
  /** Ranked files after this page (from `next_offset` on). */
  omitted_files: number;
  /** Symbols of shown files not shown (the files' other symbols: code_outline lists them). */
  omitted_symbols: number;
  /** Whether files after this page were left out (`next_offset` names the next page). */
  truncated: boolean;
  /** The `offset` of the next page, when files remain. */
  next_offset?: number;
  /** A larger budget that shows more per page, when files remain (at most the tool's cap). */
  next_budget_tokens?: number;
  /** Files left out of the ranking, by reason (when any was). */
  skipped_files?: MapSkipped;
  /** The call's arguments besides the budget, repeated by the next call. */
  call_arguments: Record<string, NextCallValue>;
  /** Why the map is empty, when it is. */
  empty_reason?: "no_source_files" | "no_symbols";
  /** What the empty map means and what to do. */
  message?: string;
}

/** What {@link formatRepoMap} needs besides the data. */
export interface RepoMapFormatOptions {
  /** The tool's name, for the next call. Default `"repo_map"`. */
  toolName?: string;
  /** The mounted tool that opens a line range (`read_file`), if any. */
  readTool?: string;
}

/** Longest signature shown; longer ones end with `…` (the map is an overview: read the lines). */
export const MAX_SIGNATURE_CHARACTERS = 100;

function lineRange(start: number, end: number): string {
  return start === end ? String(start) : `${start}-${end}`;
}

function shortSignature(signature: string): string {
  const flat = signature.replace(/\s+/g, " ");
  return flat.length <= MAX_SIGNATURE_CHARACTERS
    ? flat
    : `${flat.slice(0, MAX_SIGNATURE_CHARACTERS - 1).trimEnd()}…`;
}

/**
 * Renders a repository map for the model: a header line naming the page (files `offset`–last of
 * the total), then each file once (best ranked first) with its symbols in line order — a single
 * line number for a one-line symbol (`45`), `start-end` otherwise (`44-52`), members indented
 * under their container, a run of overloads as one line — then, when files remain, the
 * contract's truncation marker naming the next page's call (same arguments, `offset`) and, in
 * words, the larger budget.
 *
 * @param data - the tool's data
 * @param options - the tool's name and the mounted reader
 * @returns model-facing text
 * @example
 * formatRepoMap(result.data); // "Map of .: 3 of 12 source files…\nsrc/parser.ts\n  12-80 export class Parser {…"
 */
export function formatRepoMap(data: RepoMapToolData, options: RepoMapFormatOptions = {}): string {
  if (data.files.length === 0)
    return `Empty map of ${data.path}: ${data.message ?? "no source files."}`;
  const opener = options.readTool === undefined ? "" : ` (${options.readTool} opens them)`;
  const last = (data.next_offset ?? data.total + 1) - 1;
  const range =
    data.offset === 1 && last === data.total
      ? `all ${formatCount(data.total)} source files`
      : `files ${formatCount(data.offset)}-${formatCount(last)} of ${formatCount(data.total)}`;
  const lines = [
    `Map of ${data.path}, ${range}, most used by other files first; symbols with lines${opener}:`,
  ];
  for (const file of data.files) {
    const notes: string[] = [];
    if (file.symbols.length < file.total_symbols) {
      notes.push(`${file.symbols.length} of ${file.total_symbols} symbols`);
    }
    if (file.heuristic === true) notes.push("heuristic outline");
    lines.push(notes.length === 0 ? file.path : `${file.path} (${notes.join("; ")})`);
    let previous = "";
    for (const symbol of file.symbols) {
      const times =
        symbol.declarations === undefined ? "" : ` (${symbol.declarations} declarations)`;
      const line = `${"  ".repeat(symbol.depth + 1)}${lineRange(symbol.start_line, symbol.end_line)} ${shortSignature(symbol.signature)}${times}`;
      if (line !== previous) lines.push(line);
      previous = line;
    }
  }
  if (data.truncated && data.next_offset !== undefined) {
    const call = formatNextCall(options.toolName ?? REPO_MAP_TOOL_NAME, {
      ...data.call_arguments,
      offset: data.next_offset,
    });
    const larger =
      data.next_budget_tokens === undefined
        ? ""
        : `, or raise budget_tokens to ${data.next_budget_tokens} for a longer map`;
    lines.push(
      formatTruncationMarker({
        omitted: data.omitted_files,
        unit: "files",
        next: `${call} for the next files${larger}`,
      }),
    );
  }
  return lines.join("\n");
}
