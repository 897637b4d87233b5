/**
 * Which language a file is in, told by its extension (and, for scripts without one, by the
 * shebang), and which grammar parses it. Languages without a grammar in
 * `@vscode/tree-sitter-wasm` get a heuristic outline (`heuristic-outline.ts`).
 *
 * @internal
 */

/** The languages the engine parses with a tree-sitter grammar. */
export const PARSED_LANGUAGES = [
  "typescript",
  "tsx",
  "javascript",
  "python",
  "go",
  "rust",
  "java",
  "c",
  "cpp",
  "csharp",
  "ruby",
  "php",
  "bash",
  "css",
] as const;

/** A language the engine parses with a grammar. */
export type ParsedLanguage = (typeof PARSED_LANGUAGES)[number];

/** The languages outlined by line patterns only (no grammar ships for them). */
export const HEURISTIC_LANGUAGES = ["json", "yaml", "markdown", "toml", "ini"] as const;

/** A language outlined by line patterns. */
export type HeuristicLanguage = (typeof HEURISTIC_LANGUAGES)[number];

/** Any language the engine knows. */
export type CodeLanguage = ParsedLanguage | HeuristicLanguage;

/** The grammar file (in `@vscode/tree-sitter-wasm/wasm/`) of each parsed language. */
export const GRAMMAR_FILES: Readonly<Record<ParsedLanguage, string>> = {
  typescript: "tree-sitter-typescript.wasm",
  tsx: "tree-sitter-tsx.wasm",
  javascript: "tree-sitter-javascript.wasm",
  python: "tree-sitter-python.wasm",
  go: "tree-sitter-go.wasm",
  rust: "tree-sitter-rust.wasm",
  java: "tree-sitter-java.wasm",
  // No C grammar ships: the C++ grammar parses C headers and sources (a superset in practice).
  c: "tree-sitter-cpp.wasm",
  cpp: "tree-sitter-cpp.wasm",
  csharp: "tree-sitter-c-sharp.wasm",
  ruby: "tree-sitter-ruby.wasm",
  php: "tree-sitter-php.wasm",
  bash: "tree-sitter-bash.wasm",
  css: "tree-sitter-css.wasm",
};

const EXTENSIONS: Readonly<Record<string, CodeLanguage>> = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "tsx",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascript",
  py: "python",
  pyi: "python",
  go: "go",
  rs: "rust",
  java: "java",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  cxx: "cpp",
  "c++": "cpp",
  hh: "cpp",
  hpp: "cpp",
  hxx: "cpp",
  "h++": "cpp",
  ipp: "cpp",
  cs: "csharp",
  rb: "ruby",
  rake: "ruby",
  gemspec: "ruby",
  php: "php",
  phtml: "php",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  css: "css",
  json: "json",
  jsonc: "json",
  json5: "json",
  yaml: "yaml",
  yml: "yaml",
  md: "markdown",
  markdown: "markdown",
  mdx: "markdown",
  toml: "toml",
  ini: "ini",
  cfg: "ini",
  conf: "ini",
};

const FILE_NAMES: Readonly<Record<string, CodeLanguage>> = {
  Rakefile: "ruby",
  Gemfile: "ruby",
  ".bashrc": "bash",
  ".profile": "bash",
  ".zshrc": "bash",
};

const SHEBANGS: ReadonlyArray<readonly [RegExp, CodeLanguage]> = [
  [/\bpython[0-9.]*\b/, "python"],
  [/\b(?:ba|z|da)?sh\b/, "bash"],
  [/\bnode\b|\bdeno\b|\bbun\b/, "javascript"],
  [/\bruby\b/, "ruby"],
  [/\bphp\b/, "php"],
];

/**
 * Tells the language of a file by its name, or by the shebang of its first line when the name
 * says nothing.
 *
 * @param path - a workspace path (only its last segment is read)
 * @param firstLine - the file's first line, when known (for `#!/usr/bin/env python3` scripts)
 * @returns the language, or `undefined` when neither tells
 */
export function languageForPath(path: string, firstLine?: string): CodeLanguage | undefined {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const named = FILE_NAMES[base];
  if (named !== undefined) return named;
  const dot = base.lastIndexOf(".");
  if (dot > 0) {
    const byExtension = EXTENSIONS[base.slice(dot + 1).toLowerCase()];
    if (byExtension !== undefined) return byExtension;
  }
  if (firstLine?.startsWith("#!")) {
    for (const [pattern, language] of SHEBANGS) if (pattern.test(firstLine)) return language;
  }
  return undefined;
}

/**
 * Whether the engine parses a language with a grammar (else: heuristic outline).
 *
 * @param language - a known language
 * @returns `true` for a {@link ParsedLanguage}
 */
export function isParsedLanguage(language: CodeLanguage): language is ParsedLanguage {
  return (PARSED_LANGUAGES as readonly string[]).includes(language);
}
