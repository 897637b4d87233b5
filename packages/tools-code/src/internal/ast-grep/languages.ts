import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { AgentoolError, ToolFailureError } from "@agentool/contract";
import type { DynamicLangRegistrations } from "@ast-grep/napi";

/** The `@ast-grep/napi` module's type. */
export type AstGrepModule = typeof import("@ast-grep/napi");

/** One grammar a language's files are parsed with, and the file extensions it takes. */
export interface AstGrammar {
  /** The name `@ast-grep/napi` knows the grammar by (`TypeScript`, `Tsx`, or a registered name). */
  grammar: string;
  /** File extensions without the dot (`ts`, `mts`). */
  extensions: readonly string[];
}

/** A language a model can name, with the grammars of its files. */
export interface AstLanguage {
  /** The canonical name (`typescript`). */
  name: string;
  /** The grammars, the first one the language's own (patterns are checked against it). */
  grammars: readonly AstGrammar[];
}

/**
 * The languages `@ast-grep/napi` 0.51 has built in. `typescript` also covers `.tsx` files (parsed
 * with the TSX grammar), as a model asking for TypeScript in a React code base expects; `tsx`
 * alone is only `.tsx`; `javascript` covers JSX (the JavaScript grammar parses it).
 */
export const BUILT_IN_AST_LANGUAGES: readonly AstLanguage[] = Object.freeze([
  {
    name: "typescript",
    grammars: [
      { grammar: "TypeScript", extensions: ["ts", "mts", "cts"] },
      { grammar: "Tsx", extensions: ["tsx"] },
    ],
  },
  { name: "tsx", grammars: [{ grammar: "Tsx", extensions: ["tsx"] }] },
  {
    name: "javascript",
    grammars: [{ grammar: "JavaScript", extensions: ["js", "mjs", "cjs", "jsx"] }],
  },
  { name: "html", grammars: [{ grammar: "Html", extensions: ["html", "htm"] }] },
  { name: "css", grammars: [{ grammar: "Css", extensions: ["css"] }] },
]);

const ALIASES: Readonly<Record<string, string>> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  node: "javascript",
  htm: "html",
};

const registered: AstLanguage[] = [];
let registrationDone = false;
let loaded: AstGrepModule | undefined;

/**
 * Loads `@ast-grep/napi` once (a CommonJS native module).
 *
 * @returns the module
 * @throws ToolFailureError `DEPENDENCY_MISSING` when its prebuilt binary cannot be loaded
 */
export function loadAstGrep(): AstGrepModule {
  if (loaded !== undefined) return loaded;
  try {
    loaded = createRequire(import.meta.url)("@ast-grep/napi") as AstGrepModule;
    return loaded;
  } catch (error) {
    throw new ToolFailureError(
      "DEPENDENCY_MISSING",
      `@ast-grep/napi could not be loaded (${error instanceof Error ? error.message : String(error)}).`,
      {
        hint: "Install @ast-grep/napi with its prebuilt binary for this platform (npm installs it as an optional dependency).",
      },
    );
  }
}

/** One language to register with {@link registerAstGrepLanguages} (what an `@ast-grep/lang-*` package exports). */
export interface AstGrepLanguageRegistration {
  /** The compiled tree-sitter grammar (`parser.so`). */
  libraryPath: string;
  /** File extensions without the dot (`["py"]`). */
  extensions: string[];
  /** The grammar's symbol; default `tree_sitter_<name>`. */
  languageSymbol?: string;
  /** The metavariable character; default `$`. */
  metaVarChar?: string;
  /** The character `$` is replaced with where `$` cannot start an identifier (Python: `µ`). */
  expandoChar?: string;
}

/**
 * Adds languages to `ast_search` and `ast_rewrite` beyond the built-in ones, from the prebuilt
 * grammars the `@ast-grep/lang-*` packages on npm ship (`@ast-grep/lang-python`, `-go`, `-rust`,
 * `-java`, …: each exports `{ libraryPath, extensions, languageSymbol, expandoChar }`).
 * `@ast-grep/napi` accepts one registration per process, so call this once, before any search,
 * with every language you want; the names become valid `language` values (lower case).
 *
 * @param languages - language name → registration
 * @throws AgentoolError when called twice, when a name is taken, or when a library is missing
 *   (napi would abort the process on a missing library, so it is checked first)
 * @example
 * import python from "@ast-grep/lang-python";
 * registerAstGrepLanguages({ python });
 */
export function registerAstGrepLanguages(
  languages: Readonly<Record<string, AstGrepLanguageRegistration>>,
): void {
  if (registrationDone) {
    throw new AgentoolError(
      "registerAstGrepLanguages: languages are already registered; @ast-grep/napi takes one registration per process — register every language in one call.",
    );
  }
  const napiRegistrations: DynamicLangRegistrations = {};
  const added: AstLanguage[] = [];
  for (const [rawName, registration] of Object.entries(languages)) {
    const name = rawName.toLowerCase();
    if (!/^[a-z][a-z0-9_-]*$/.test(name) || findLanguage(name) !== undefined) {
      throw new AgentoolError(
        `registerAstGrepLanguages: ${JSON.stringify(rawName)} is not a usable new language name (lower-case letters, digits, _ or -, not a built-in one).`,
      );
    }
    if (typeof registration?.libraryPath !== "string" || !existsSync(registration.libraryPath)) {
      throw new AgentoolError(
        `registerAstGrepLanguages: the grammar library of ${name} does not exist (${String(registration?.libraryPath)}).`,
      );
    }
    const extensions = registration.extensions.map((extension) => extension.replace(/^\./, ""));
    napiRegistrations[name] = { ...registration, extensions };
    added.push({ name, grammars: [{ grammar: name, extensions }] });
  }
  loadAstGrep().registerDynamicLanguage(napiRegistrations);
  registrationDone = true;
  registered.push(...added);
}

function findLanguage(name: string): AstLanguage | undefined {
  return (
    BUILT_IN_AST_LANGUAGES.find((language) => language.name === name) ??
    registered.find((language) => language.name === name)
  );
}

/**
 * The names of every language available now (built in, then registered).
 *
 * @returns canonical language names
 */
export function supportedAstLanguages(): string[] {
  return [...BUILT_IN_AST_LANGUAGES, ...registered].map((language) => language.name);
}

/**
 * Finds a language by a model's name for it (any letter case; `ts`, `js`, `jsx` … accepted).
 *
 * @param input - the `language` field
 * @returns the language
 * @throws ToolFailureError `UNSUPPORTED` naming every supported language
 */
export function resolveAstLanguage(input: string): AstLanguage {
  const key = input.trim().toLowerCase().replace(/^\./, "");
  const language = findLanguage(ALIASES[key] ?? key);
  if (language !== undefined) return language;
  throw new ToolFailureError(
    "UNSUPPORTED",
    `language ${JSON.stringify(input)} is not supported by the structural search engine (@ast-grep/napi); supported: ${supportedAstLanguages().join(", ")}.`,
    {
      hint: "Pick one of those, or search the text with a regex instead. (The host can add languages from the @ast-grep/lang-* packages with registerAstGrepLanguages.)",
    },
  );
}

/**
 * The grammar a file is parsed with: by its extension among the language's grammars; a file of
 * another extension (named directly by `path`) takes the language's own grammar.
 *
 * @param language - the resolved language
 * @param path - a workspace path
 * @returns the grammar name for `@ast-grep/napi`
 */
export function grammarForPath(language: AstLanguage, path: string): string {
  const dot = path.lastIndexOf(".");
  const extension = dot === -1 ? "" : path.slice(dot + 1).toLowerCase();
  for (const grammar of language.grammars)
    if (grammar.extensions.includes(extension)) return grammar.grammar;
  return (language.grammars[0] as AstGrammar).grammar;
}

/**
 * The glob of a language's files (`*.{ts,mts,cts,tsx}`), for the workspace's file lister.
 *
 * @param language - the resolved language
 * @returns a glob matching names at any depth
 */
export function languageGlob(language: AstLanguage): string {
  const extensions = language.grammars.flatMap((grammar) => grammar.extensions);
  return extensions.length === 1 ? `*.${extensions[0]}` : `*.{${extensions.join(",")}}`;
}
