import type { Node } from "web-tree-sitter";
import { type HeuristicFlavour, heuristicOutline } from "./heuristic-outline.js";
import { type CodeLanguage, isParsedLanguage, type ParsedLanguage } from "./languages.js";
import { runInPool } from "./parse-pool.js";
import { C_FAMILY_RULES, CSHARP_RULES, JAVA_RULES } from "./rules/c-family-rules.js";
import { JAVASCRIPT_RULES } from "./rules/javascript-rules.js";
import { PYTHON_RULES } from "./rules/python-rules.js";
import { BASH_RULES, CSS_RULES, PHP_RULES, RUBY_RULES } from "./rules/scripting-rules.js";
import { GO_RULES, RUST_RULES } from "./rules/systems-rules.js";
import { ParseFailure, type ParseFailureReason, withTree } from "./runtime.js";
import type { EngineSymbol } from "./symbol.js";
import { type LanguageRules, walkSymbols } from "./walk-rules.js";

/** The rule table of each parsed language. */
export const LANGUAGE_RULES: Readonly<Record<ParsedLanguage, LanguageRules>> = {
  typescript: JAVASCRIPT_RULES,
  tsx: JAVASCRIPT_RULES,
  javascript: JAVASCRIPT_RULES,
  python: PYTHON_RULES,
  go: GO_RULES,
  rust: RUST_RULES,
  java: JAVA_RULES,
  c: C_FAMILY_RULES,
  cpp: C_FAMILY_RULES,
  csharp: CSHARP_RULES,
  ruby: RUBY_RULES,
  php: PHP_RULES,
  bash: BASH_RULES,
  css: CSS_RULES,
};

/**
 * Default largest text parsed with a grammar (larger ones get a labelled heuristic outline):
 * 2 MB. Not lowered to 1 MB when parsing moved to workers: TypeScript's own lib.dom.d.ts is
 * 1.9 MB (the ground truth parses it), and a hostile text under the cap is stopped by the
 * parse's time limit and memory ceiling on its worker, never on the event loop.
 */
export const DEFAULT_MAX_PARSE_BYTES = 2_000_000;

/** How the symbols were found. */
export type ExtractionMethod = "tree-sitter" | "heuristic";

/**
 * Why a file was outlined heuristically: no grammar for its language, over the parse size cap
 * (or the parse needed more memory than allowed), the parse took too long, the grammar could not
 * be loaded, or the parser failed on this file.
 */
export type HeuristicReason =
  | "no_grammar"
  | "too_large"
  | "parse_timeout"
  | "grammar_unavailable"
  | "parse_failed";

/** What {@link extractSymbols} found. */
export interface Extraction {
  /** The symbols, in document order (a container before its members). */
  symbols: EngineSymbol[];
  /** `tree-sitter`: from the syntax tree; `heuristic`: from line patterns (approximate). */
  method: ExtractionMethod;
  /** Why the outline is heuristic, when it is. */
  heuristicReason?: HeuristicReason;
  /** Syntax errors the parser recovered from (0 for heuristic outlines). */
  errorCount: number;
  /** The lines of the first syntax errors (at most 20). */
  errorLines: number[];
}

/** Options of {@link extractSymbols}. */
export interface ExtractSymbolsOptions {
  /** Largest text (UTF-8 bytes, estimated) parsed with a grammar. Default {@link DEFAULT_MAX_PARSE_BYTES}. */
  maxParseBytes?: number;
  /** Parse time limit in milliseconds. Default 5,000. */
  timeoutMs?: number;
  /** Most bytes of WebAssembly memory the parse may reach (on this thread). Default: no limit. */
  maxMemoryBytes?: number;
}

/** Options of {@link extractSymbols}. */
export interface ExtractSymbolsCallOptions extends ExtractSymbolsOptions {
  /** The call's signal: aborting it stops the parse at once (and rejects with its reason). */
  signal?: AbortSignal | undefined;
}

const FLAVOURS: Readonly<Record<string, HeuristicFlavour>> = {
  json: "json",
  yaml: "yaml",
  markdown: "markdown",
  toml: "toml",
  ini: "ini",
};

/**
 * The lines (1-based) of a tree's syntax errors — ERROR and MISSING nodes, in document order,
 * at most `limit` of them.
 *
 * @param root - a tree's root node
 * @param limit - the most to report
 * @returns one line per error (a line may repeat)
 */
export function syntaxErrorLines(root: Node, limit = 1_000): number[] {
  const lines: number[] = [];
  if (!root.hasError) return lines;
  const cursor = root.walk();
  try {
    let descend = true;
    for (;;) {
      const node = cursor.currentNode;
      if (descend && (node.isError || node.isMissing)) {
        lines.push(node.startPosition.row + 1);
        if (lines.length >= limit) return lines;
        descend = false;
      }
      if (descend && node.hasError && cursor.gotoFirstChild()) continue;
      if (cursor.gotoNextSibling()) {
        descend = true;
        continue;
      }
      let climbed = false;
      while (cursor.gotoParent()) {
        if (cursor.gotoNextSibling()) {
          climbed = true;
          break;
        }
      }
      if (!climbed) return lines;
      descend = true;
    }
  } finally {
    cursor.delete();
  }
}

/**
 * Counts the syntax errors of a tree (ERROR and MISSING nodes), stopping at `limit`.
 *
 * @param root - a tree's root node
 * @param limit - the most to count
 * @returns how many were found (at most `limit`)
 */
export function countSyntaxErrors(root: Node, limit = 1_000): number {
  return syntaxErrorLines(root, limit).length;
}

const REASONS: Readonly<Record<ParseFailureReason, HeuristicReason>> = {
  timeout: "parse_timeout",
  unavailable: "grammar_unavailable",
  too_large: "too_large",
  failed: "parse_failed",
};

/**
 * The symbols of one text: with the language's grammar when it has one and the text is within
 * the size, time and memory limits, else with a heuristic outline (said in `method` and
 * `heuristicReason`). Runs on a parse worker (`parse-pool.ts`): the event loop is never blocked,
 * and aborting `signal` stops the parse. Never fails for the text's sake (a parser failure gives
 * a heuristic outline with reason `parse_failed`); rejects only when the call is aborted.
 *
 * @param language - the text's language (`undefined`: unknown, outlined by keyword lines)
 * @param text - the text
 * @param options - size and time limits, the call's signal
 * @returns the symbols and how they were found
 * @example
 * const { symbols } = await extractSymbols("typescript", "export class A { m() {} }");
 * symbols.map((symbol) => symbol.qualified_name); // ["A", "A.m"]
 */
export async function extractSymbols(
  language: CodeLanguage | undefined,
  text: string,
  options: ExtractSymbolsCallOptions = {},
): Promise<Extraction> {
  try {
    return await runInPool<Extraction>(
      {
        kind: "extract",
        language,
        text,
        ...(options.maxParseBytes === undefined ? {} : { maxParseBytes: options.maxParseBytes }),
      },
      { signal: options.signal, timeoutMs: options.timeoutMs },
    );
  } catch (error) {
    if (!(error instanceof ParseFailure)) throw error;
    // The worker was stopped (past its hard deadline, out of memory, crashed): outline by lines,
    // here, only texts within the parse cap (larger ones were outlined by lines in the worker).
    if (text.length > (options.maxParseBytes ?? DEFAULT_MAX_PARSE_BYTES)) {
      return { ...heuristic("", REASONS[error.reason]), symbols: [] };
    }
    return heuristic(text, REASONS[error.reason]);
  }
}

/**
 * {@link extractSymbols} on this thread (what a parse worker runs): the parse is synchronous.
 * Any failure on this text — a parse over its limits, a grammar that cannot load, an error while
 * walking the tree — gives a labelled heuristic outline instead.
 *
 * @param language - the text's language (`undefined`: unknown, outlined by keyword lines)
 * @param text - the text
 * @param options - size, time and memory limits
 * @returns the symbols and how they were found
 */
export async function extractSymbolsInThread(
  language: CodeLanguage | undefined,
  text: string,
  options: ExtractSymbolsOptions = {},
): Promise<Extraction> {
  if (language === undefined || !isParsedLanguage(language)) {
    return {
      symbols: heuristicOutline(text, (language && FLAVOURS[language]) ?? "code"),
      method: "heuristic",
      heuristicReason: "no_grammar",
      errorCount: 0,
      errorLines: [],
    };
  }
  const maxBytes = options.maxParseBytes ?? DEFAULT_MAX_PARSE_BYTES;
  // UTF-16 length is at most the UTF-8 length; estimate without encoding huge texts.
  if (text.length > maxBytes || Buffer.byteLength(text, "utf8") > maxBytes) {
    return heuristic(text, "too_large");
  }
  const rules = LANGUAGE_RULES[language];
  try {
    return await withTree(
      language,
      text,
      (tree) => ({
        symbols: walkSymbols(tree.rootNode, text, rules),
        method: "tree-sitter" as const,
        ...errorSummary(tree.rootNode),
      }),
      {
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.maxMemoryBytes === undefined ? {} : { maxMemoryBytes: options.maxMemoryBytes }),
      },
    );
  } catch (error) {
    // One file's failure (a parse over its limits, a tree the rules choke on) never fails the
    // call that reads many files: that file is outlined by lines, and says why.
    return heuristic(text, error instanceof ParseFailure ? REASONS[error.reason] : "parse_failed");
  }
}

function heuristic(text: string, reason: HeuristicReason): Extraction {
  return {
    symbols: heuristicOutline(text, "code"),
    method: "heuristic",
    heuristicReason: reason,
    errorCount: 0,
    errorLines: [],
  };
}

function errorSummary(root: Node): { errorCount: number; errorLines: number[] } {
  const lines = syntaxErrorLines(root);
  return { errorCount: lines.length, errorLines: lines.slice(0, 20) };
}
