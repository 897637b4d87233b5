import { createRequire } from "node:module";
import type { Language, Parser, Tree } from "web-tree-sitter";
import { GRAMMAR_FILES, type ParsedLanguage } from "./languages.js";

/**
 * The tree-sitter runtime, loaded once and lazily: the WebAssembly module on first use, each
 * grammar on the first file of its language, one parser per language (parsing is synchronous,
 * so one parser per language is never used by two calls at once). Trees are never cached:
 * callers parse, read what they need and delete the tree ({@link withTree}).
 *
 * @internal
 */

type TreeSitterModule = typeof import("web-tree-sitter");

const require = createRequire(import.meta.url);

let runtime: Promise<TreeSitterModule> | undefined;
const parsers = new Map<ParsedLanguage, Promise<Parser>>();

/** Why a parse did not give a tree. */
export class ParseFailure extends Error {
  /** `timeout`: the time limit passed; `unavailable`: the grammar could not be loaded. */
  readonly reason: "timeout" | "unavailable";

  constructor(reason: "timeout" | "unavailable", message: string) {
    super(message);
    this.name = "ParseFailure";
    this.reason = reason;
  }
}

function loadRuntime(): Promise<TreeSitterModule> {
  if (runtime === undefined) {
    runtime = (async () => {
      const module = await import("web-tree-sitter");
      await module.Parser.init();
      return module;
    })();
    // A failed load is retried on the next call instead of being remembered.
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
}

/**
 * The grammar of a language, loaded once.
 *
 * @param language - a parsed language
 * @returns the tree-sitter `Language`
 */
export async function loadLanguage(language: ParsedLanguage): Promise<Language> {
  const parser = await parserFor(language);
  return parser.language as Language;
}

function parserFor(language: ParsedLanguage): Promise<Parser> {
  let parser = parsers.get(language);
  if (parser === undefined) {
    parser = (async () => {
      const module = await loadRuntime();
      const file = require.resolve(`@vscode/tree-sitter-wasm/wasm/${GRAMMAR_FILES[language]}`);
      let grammar: Language;
      try {
        grammar = await module.Language.load(file);
      } catch (error) {
        throw new ParseFailure(
          "unavailable",
          `the ${language} grammar could not be loaded (${(error as Error).message}).`,
        );
      }
      return new module.Parser().setLanguage(grammar);
    })();
    parsers.set(language, parser);
    parser.catch(() => parsers.delete(language));
  }
  return parser;
}

/**
 * Starts loading the runtime and the given grammars without waiting, so that a caller who will
 * parse soon overlaps the WebAssembly compilation (asynchronous, off the main thread) with its
 * own work (a listing, a scan). Only the grammars named are loaded; a failure is left to the
 * parse that needs the grammar (which tries again).
 *
 * @param languages - the languages about to be parsed
 */
export function preloadLanguages(languages: Iterable<ParsedLanguage> = []): void {
  loadRuntime().catch(() => undefined);
  for (const language of languages) parserFor(language).catch(() => undefined);
}

/** Options of {@link parseText} and {@link withTree}. */
export interface ParseTextOptions {
  /** Most milliseconds parsing may take; past it the parse stops with a `timeout` failure. Default 5,000. */
  timeoutMs?: number;
}

/** Default parse time limit, in milliseconds. */
export const DEFAULT_PARSE_TIMEOUT_MS = 5_000;

/**
 * Parses a text. The caller owns the tree and must `delete()` it; prefer {@link withTree}.
 *
 * @param language - a parsed language
 * @param text - the source text
 * @param options - the time limit
 * @returns the tree
 * @throws ParseFailure when the time limit passed or the grammar could not be loaded
 */
export async function parseText(
  language: ParsedLanguage,
  text: string,
  options: ParseTextOptions = {},
): Promise<Tree> {
  const parser = await parserFor(language);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  parser.reset();
  const tree = parser.parse(text, null, {
    // web-tree-sitter stops the parse when the callback returns true (its .d.ts says void).
    progressCallback: (() => timeoutMs > 0 && performance.now() > deadline) as () => void,
  });
  if (tree === null) {
    parser.reset();
    throw new ParseFailure("timeout", `parsing took longer than ${timeoutMs} ms.`);
  }
  return tree;
}

/**
 * Parses a text, hands the tree to `work` and deletes it afterwards (whatever `work` does), so no
 * tree outlives the call.
 *
 * @param language - a parsed language
 * @param text - the source text
 * @param work - reads the tree (synchronously: the tree is deleted when it returns)
 * @param options - the time limit
 * @returns what `work` returned
 * @throws ParseFailure when the time limit passed or the grammar could not be loaded
 */
export async function withTree<T>(
  language: ParsedLanguage,
  text: string,
  work: (tree: Tree) => T,
  options: ParseTextOptions = {},
): Promise<T> {
  const tree = await parseText(language, text, options);
  try {
    return work(tree);
  } finally {
    tree.delete();
  }
}
