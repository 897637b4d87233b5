import type { Node } from "web-tree-sitter";
import { countSyntaxErrors, LANGUAGE_RULES } from "./extract-symbols.js";
import type { ParsedLanguage } from "./languages.js";
import { runInPool } from "./parse-pool.js";
import {
  DEFAULT_PARSE_TIMEOUT_MS,
  ParseFailure,
  type ParseTextOptions,
  withTree,
} from "./runtime.js";
import type { EngineSymbol } from "./symbol.js";
import { walkSymbols } from "./walk-rules.js";

/**
 * Identifier occurrences of a text with the symbol each sits in — the base of syntactic
 * reference finding (`find_references`) and reference counting (`repo_map`). One parse gives
 * both the symbols and the occurrences; no tree is kept.
 *
 * @internal
 */

/** Node types that are identifiers in some grammar (names in code, never in strings or comments). */
export const IDENTIFIER_NODE_TYPES: ReadonlySet<string> = new Set([
  "identifier",
  "property_identifier",
  "private_property_identifier",
  "shorthand_property_identifier",
  "shorthand_property_identifier_pattern",
  "type_identifier",
  "field_identifier",
  "namespace_identifier",
  "package_identifier",
  "statement_identifier",
  "constant", // Ruby
  "name", // PHP
  "variable_name", // PHP, Bash
  "word", // Bash command and function names
  "simple_identifier",
]);

/** One identifier in the text. */
export interface IdentifierOccurrence {
  /** The identifier's text. */
  name: string;
  /** The grammar's node type (`identifier`, `property_identifier`, `type_identifier`…). */
  nodeType: string;
  /** 1-based line. */
  line: number;
  /** 0-based column, in UTF-16 code units. */
  column: number;
  /** Offset in the text (UTF-16). */
  index: number;
  /** The innermost symbol whose span holds it, if any. */
  enclosing: EngineSymbol | undefined;
  /** Whether it is the name of a declaration the engine extracts (a definition, not a use). */
  isDefinition: boolean;
  /** The parent node's type (`call_expression`, `member_expression`, `import_specifier`…), for callers that classify uses. */
  parentType: string | undefined;
}

/** What {@link collectIdentifiers} returns. */
export interface IdentifierScan {
  /** The text's symbols (as `extractSymbols` finds them). */
  symbols: EngineSymbol[];
  /** Identifier occurrences in document order (only those named in `names`, when given). */
  occurrences: IdentifierOccurrence[];
  /** Syntax errors the parser recovered from. */
  errorCount: number;
}

/** Options of {@link collectIdentifiers}. */
export interface CollectIdentifiersOptions extends ParseTextOptions {
  /** Keep only identifiers with one of these texts (much less to allocate). */
  names?: ReadonlySet<string>;
  /** The call's signal: aborting it stops the parse at once (and rejects with its reason). */
  signal?: AbortSignal | undefined;
}

function enclosingFinder(symbols: readonly EngineSymbol[]) {
  const ordered = [...symbols].sort(
    (a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex,
  );
  const stack: EngineSymbol[] = [];
  let next = 0;
  // Occurrences come in document order, so one forward pass serves them all.
  return (index: number): EngineSymbol | undefined => {
    while (next < ordered.length && (ordered[next] as EngineSymbol).startIndex <= index) {
      const symbol = ordered[next] as EngineSymbol;
      while (
        stack.length > 0 &&
        (stack[stack.length - 1] as EngineSymbol).endIndex <= symbol.startIndex
      )
        stack.pop();
      stack.push(symbol);
      next += 1;
    }
    while (stack.length > 0 && (stack[stack.length - 1] as EngineSymbol).endIndex <= index)
      stack.pop();
    return stack[stack.length - 1];
  };
}

/**
 * Parses a text once and returns its symbols and its identifier occurrences, each with its
 * enclosing symbol and whether it is a definition's name. Syntactic only: an occurrence is a
 * name, not a resolved reference (a local `parse` and an imported `parse` look the same). Runs on
 * a parse worker (`parse-pool.ts`).
 *
 * @param language - a parsed language
 * @param text - the source text
 * @param options - a name filter, the parse time limit and the call's signal
 * @returns symbols, occurrences and the syntax-error count
 * @throws ParseFailure when the time limit passed, the parse failed or the grammar could not be loaded
 * @example
 * const scan = await collectIdentifiers("typescript", text, { names: new Set(["parse"]) });
 * scan.occurrences.filter((use) => !use.isDefinition).map((use) => use.enclosing?.qualified_name);
 */
export function collectIdentifiers(
  language: ParsedLanguage,
  text: string,
  options: CollectIdentifiersOptions = {},
): Promise<IdentifierScan> {
  return runInPool<IdentifierScan>(
    {
      kind: "identifiers",
      language,
      text,
      ...(options.names === undefined ? {} : { names: [...options.names] }),
    },
    { signal: options.signal, timeoutMs: options.timeoutMs },
  );
}

/** How many nodes the walks visit between two looks at the clock. */
const CLOCK_EVERY = 4_096;

/**
 * {@link collectIdentifiers} on this thread (what a parse worker runs). The walk is one pass of
 * a tree cursor (the parent's type kept by depth: `node.parent` costs a descent from the root)
 * and stops with a `timeout` failure once the time limit has passed.
 *
 * @param language - a parsed language
 * @param text - the source text
 * @param options - a name filter and the parse limits
 * @returns symbols, occurrences and the syntax-error count
 * @throws ParseFailure when a limit passed or the grammar could not be loaded
 */
export async function collectIdentifiersInThread(
  language: ParsedLanguage,
  text: string,
  options: CollectIdentifiersOptions = {},
): Promise<IdentifierScan> {
  const { names, signal: _signal, ...parseOptions } = options;
  const timeoutMs = parseOptions.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  return withTree(
    language,
    text,
    (tree) => {
      const symbols = walkSymbols(tree.rootNode, text, LANGUAGE_RULES[language]);
      const definitions = new Set(
        symbols.map((symbol) => symbol.nameIndex).filter((index) => index >= 0),
      );
      const enclosing = enclosingFinder(symbols);
      const occurrences: IdentifierOccurrence[] = [];
      const typesByDepth: string[] = [];
      let depth = 0;
      let visited = 0;
      const cursor = tree.rootNode.walk();
      try {
        for (;;) {
          visited += 1;
          if (visited % CLOCK_EVERY === 0 && timeoutMs > 0 && performance.now() > deadline)
            throw new ParseFailure("timeout", `reading the tree took longer than ${timeoutMs} ms.`);
          const type = cursor.nodeType;
          typesByDepth[depth] = type;
          if (IDENTIFIER_NODE_TYPES.has(type) && cursor.currentNode.childCount === 0) {
            const node: Node = cursor.currentNode;
            const name = node.text;
            if (names === undefined || names.has(name)) {
              occurrences.push({
                name,
                nodeType: type,
                line: node.startPosition.row + 1,
                column: node.startPosition.column,
                index: node.startIndex,
                enclosing: enclosing(node.startIndex),
                isDefinition: definitions.has(node.startIndex),
                parentType: depth === 0 ? undefined : typesByDepth[depth - 1],
              });
            }
          }
          if (cursor.gotoFirstChild()) {
            depth += 1;
            continue;
          }
          if (cursor.gotoNextSibling()) continue;
          let climbed = false;
          while (cursor.gotoParent()) {
            depth -= 1;
            if (cursor.gotoNextSibling()) {
              climbed = true;
              break;
            }
          }
          if (!climbed) break;
        }
      } finally {
        cursor.delete();
      }
      return { symbols, occurrences, errorCount: countSyntaxErrors(tree.rootNode) };
    },
    parseOptions,
  );
}
