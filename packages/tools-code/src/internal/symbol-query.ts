import type { CodeSymbol } from "./tree-sitter/symbol.js";

/**
 * How a name a model gives matches a symbol: a plain name matches a symbol's own name; a
 * qualified one (`Parser.parse`, `Parser::parse`, `Parser#parse`, `module.func`) matches the end
 * of the qualified name, or of the file's module path followed by it (Python's `json.loads` in
 * `json/__init__.py` or `json.py`, `pkg.decoder.JSONDecoder` in `pkg/decoder.py`, Go's
 * `server.New` in `server/server.go`).
 *
 * @internal
 */

/** A parsed query. */
export interface SymbolQuery {
  /** The name as given, trimmed. */
  given: string;
  /** Dot-separated parts (`::`, `#`, `->` and `\` read as dots). */
  parts: string[];
  /** The last part: what a text search must find in the file. */
  last: string;
}

/**
 * Parses a model's name.
 *
 * @param name - e.g. `parse`, `Parser.parse`, `Parser::parse()`
 * @returns the query
 */
export function parseSymbolQuery(name: string): SymbolQuery {
  const given = name.trim();
  const normalized = given
    .replace(/\(\)$/, "")
    .replace(/::|#|->|\\/g, ".")
    .replace(/^\.+|\.+$/g, "");
  const parts = normalized.split(".").filter((part) => part.length > 0);
  return { given, parts, last: parts[parts.length - 1] ?? given };
}

/**
 * The module names a file's symbols may be qualified by: its dotted path with the file's stem
 * (Python's `pkg.decoder` for `pkg/decoder.py`; a package's `__init__` / `index` / `mod` file
 * stands for its directory) and its directory's dotted path (Go qualifies by package, the
 * directory: `server.New` for `server/server.go`). A query matches the end of one of them
 * followed by the symbol's qualified name.
 */
function modulePrefixes(path: string): string[] {
  const segments = path.split("/").filter((segment) => segment.length > 0);
  const base = segments.pop() ?? "";
  const stem = base.replace(/\.[^.]*$/, "");
  const directories = segments.join(".");
  const prefixes = [directories.length > 0 ? `${directories}.${stem}` : stem];
  if (directories.length > 0) prefixes.push(directories);
  return prefixes;
}

/**
 * Whether a symbol answers a query.
 *
 * @param symbol - a symbol of `path`
 * @param query - the parsed name
 * @param path - the symbol's file (workspace path)
 * @returns `true` on a match
 */
export function matchesSymbol(symbol: CodeSymbol, query: SymbolQuery, path: string): boolean {
  if (symbol.name !== query.last) return false;
  if (query.parts.length === 1) return true;
  const wanted = query.parts.join(".");
  const qualified = symbol.qualified_name;
  if (qualified === wanted || qualified.endsWith(`.${wanted}`)) return true;
  return modulePrefixes(path).some((prefix) => {
    const withModule = `${prefix}.${qualified}`;
    return withModule === wanted || withModule.endsWith(`.${wanted}`);
  });
}
