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
export type ParseFailureReason = "timeout" | "unavailable" | "too_large" | "failed";

/** Why a parse did not give a tree. */
export class ParseFailure extends Error {
  /**
   * `timeout`: the time limit passed; `unavailable`: the grammar could not be loaded;
   * `too_large`: the parse needed more memory than allowed; `failed`: the parser (or the
   * thread it ran on) failed on this text.
   */
  readonly reason: ParseFailureReason;

  constructor(reason: ParseFailureReason, message: string) {
    super(message);
    this.name = "ParseFailure";
    this.reason = reason;
  }
}

/** How this thread's WebAssembly runtime is set up ({@link configureRuntime}). */
interface RuntimeSettings {
  /** Most bytes the WebAssembly memory may grow to (undefined: Emscripten's 2 GiB). */
  maxMemoryBytes?: number;
}

/** The part of a `WebAssembly.Memory` read here (the DOM typings are not in this package's lib). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
const { Memory } = (
  globalThis as unknown as {
    WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory };
  }
).WebAssembly;

let settings: RuntimeSettings = {};
let memory: WasmMemory | undefined;

/**
 * Sets up this thread's runtime before its first use: a parse worker caps the WebAssembly memory
 * (a grammar that runs away on a hostile text then fails instead of taking gigabytes).
 *
 * @param next - the settings
 */
export function configureRuntime(next: RuntimeSettings): void {
  settings = { ...next };
}

/** 64 KiB: one WebAssembly page. */
const PAGE_BYTES = 65_536;
/** The runtime's initial memory (Emscripten's INITIAL_MEMORY of web-tree-sitter: 32 MiB). */
const INITIAL_PAGES = 512;
/** The runtime's own largest memory (Emscripten's maximum for web-tree-sitter: 2 GiB). */
const MAX_MEMORY_BYTES = 2_147_483_648;

/**
 * How many bytes this thread's WebAssembly memory holds now (it grows, never shrinks), or 0
 * before the runtime is loaded.
 *
 * @returns the size in bytes
 */
export function wasmMemoryBytes(): number {
  return memory?.buffer.byteLength ?? 0;
}

// Emscripten prints `Aborted(…)` (and tree-sitter its own messages) on stderr before it throws;
// the error reaches the caller anyway, so the prints are dropped.
const quiet = (): void => undefined;

function loadRuntime(): Promise<TreeSitterModule> {
  if (runtime === undefined) {
    runtime = (async () => {
      const module = await import("web-tree-sitter");
      // The memory is made here (as Emscripten would) so that its size can be read and capped.
      const maxPages = Math.floor((settings.maxMemoryBytes ?? MAX_MEMORY_BYTES) / PAGE_BYTES);
      const wasmMemory = new Memory({
        initial: INITIAL_PAGES,
        maximum: Math.max(INITIAL_PAGES, Math.min(maxPages, MAX_MEMORY_BYTES / PAGE_BYTES)),
      });
      await module.Parser.init({ print: quiet, printErr: quiet, wasmMemory });
      memory = wasmMemory;
      return module;
    })();
    // A failed load is retried on the next call instead of being remembered.
    runtime.catch(() => {
      runtime = undefined;
    });
  }
  return runtime;
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
 * Starts loading this thread's runtime and the given grammars without waiting (the pool's
 * `preloadLanguages` does it in the parse workers), so that a caller who will parse soon overlaps the WebAssembly compilation (asynchronous, off the main thread) with its
 * own work (a listing, a scan). Only the grammars named are loaded; a failure is left to the
 * parse that needs the grammar (which tries again).
 *
 * @param languages - the languages about to be parsed
 */
export function preloadLanguagesInThread(languages: Iterable<ParsedLanguage> = []): void {
  loadRuntime().catch(() => undefined);
  for (const language of languages) parserFor(language).catch(() => undefined);
}

/** Options of {@link parseText} and {@link withTree}. */
export interface ParseTextOptions {
  /** Most milliseconds parsing may take; past it the parse stops with a `timeout` failure. Default 5,000. */
  timeoutMs?: number;
  /**
   * Most bytes the WebAssembly memory may reach while parsing; past it the parse stops with a
   * `too_large` failure (checked as the parser reports progress). Default: no limit.
   */
  maxMemoryBytes?: number;
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
  const maxMemoryBytes = options.maxMemoryBytes ?? Number.POSITIVE_INFINITY;
  const deadline = performance.now() + timeoutMs;
  let overMemory = false;
  parser.reset();
  let tree: Tree | null;
  try {
    tree = parser.parse(text, null, {
      // web-tree-sitter stops the parse when the callback returns true (its .d.ts says void).
      progressCallback: (() => {
        if (wasmMemoryBytes() > maxMemoryBytes) overMemory = true;
        return overMemory || (timeoutMs > 0 && performance.now() > deadline);
      }) as () => void,
    });
  } catch (error) {
    // An allocation the capped memory refused aborts the runtime (Emscripten's `Aborted()`).
    throw new ParseFailure("failed", `the parser failed (${(error as Error).message}).`);
  }
  if (tree === null) {
    parser.reset();
    if (overMemory) {
      throw new ParseFailure(
        "too_large",
        `parsing needed more than ${Math.round(maxMemoryBytes / 1_048_576)} MiB of memory.`,
      );
    }
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
