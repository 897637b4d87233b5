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
  /** The files shown, best ranked first, each with the symbols that fit. */
  files: RepoMapFile[];
  /** Ranked files not shown. */
  omitted_files: number;
  /** Symbols of shown files not shown (the files' other symbols). */
  omitted_symbols: number;
  /** Whether anything was left out (files, or symbols of shown files). */
  truncated: boolean;
  /** A budget that shows more, when something was left out (at most the tool's cap). */
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

/**
 * Renders a repository map for the model: a header line, then each file (best ranked first) with
 * its symbols' line ranges and signatures indented by nesting, then the contract's truncation
 * marker naming a larger budget when anything was left out.
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
  const lines = [
    `Map of ${data.path}: ${formatCount(data.files.length)} of ${formatCount(data.ranked_files)} source files, ranked by how often other files use their names; signatures with start-end lines${opener}:`,
  ];
  for (const file of data.files) {
    const notes: string[] = [];
    if (file.symbols.length < file.total_symbols) {
      notes.push(`${file.symbols.length} of ${file.total_symbols} symbols`);
    }
    if (file.heuristic === true) notes.push("heuristic outline");
    lines.push(notes.length === 0 ? file.path : `${file.path} (${notes.join("; ")})`);
    for (const symbol of file.symbols) {
      lines.push(
        `${"  ".repeat(symbol.depth + 1)}${symbol.start_line}-${symbol.end_line} ${symbol.signature}`,
      );
    }
  }
  if (data.truncated) {
    const omitted = data.omitted_files > 0 ? data.omitted_files : data.omitted_symbols;
    const unit = data.omitted_files > 0 ? "files" : "symbols";
    const next =
      data.next_budget_tokens === undefined
        ? `narrow with path or focus (call ${options.toolName ?? REPO_MAP_TOOL_NAME} with path="…" or focus=[…])`
        : formatNextCall(options.toolName ?? REPO_MAP_TOOL_NAME, {
            ...data.call_arguments,
            budget_tokens: data.next_budget_tokens,
          });
    lines.push(formatTruncationMarker({ omitted, unit, next }));
  }
  return lines.join("\n");
}
