import type { Node } from "web-tree-sitter";
import type { EngineSymbol, SymbolKind } from "./symbol.js";

/**
 * The one walker every grammar shares, driven by a per-language table of node types. Only the
 * node types in the table are visited: the walker never descends into function bodies or
 * expressions, so it touches a small part of each tree.
 *
 * @internal
 */

/** What a rule says about one declaration node. */
export interface SymbolSpec {
  kind: SymbolKind;
  name: string;
  /** The name's node (its offset identifies the definition for reference walks). */
  nameNode?: Node | null;
  /** Visible outside the file or package, where the language says so. */
  exported?: boolean;
  /** The declaration's body: the header (signature) ends where it starts. */
  body?: Node | null;
  /** The node whose named children are this symbol's members (a class body); never a function's. */
  members?: Node | null;
  /** Where the header ends (default: the body's start, or the node's end). */
  headerEnd?: number;
  /** The node the symbol spans (default: the declaration node, or its wrapper). */
  range?: Node;
  /** Qualify under this name instead of the enclosing symbol (a Go method's receiver type). */
  qualifier?: string;
}

/** What a rule sees besides the node. */
export interface RuleContext {
  /** The enclosing symbol, if any. */
  parent: EngineSymbol | undefined;
  /** The `exported` flag a wrapper (`export …`) gave, if any. */
  exported: boolean | undefined;
}

/** How the walker treats one node type. */
export type NodeRule =
  /** Descend into the named children under the same parent (blocks, `if`, preprocessor groups). */
  | { readonly through: true }
  /** Descend, and the declarations inside span this node too (`export`, decorators, templates). */
  | { readonly wrap: true; readonly exported?: boolean }
  /** A declaration: zero, one or more symbols. */
  | {
      readonly symbols: (
        node: Node,
        context: RuleContext,
      ) => SymbolSpec | readonly SymbolSpec[] | undefined;
    };

/** A language's table: node type → rule. */
export type LanguageRules = Readonly<Record<string, NodeRule>>;

/** Longest signature kept, in characters. */
export const MAX_SIGNATURE_CHARACTERS = 200;

/**
 * One line of header text: whitespace collapsed, cut at {@link MAX_SIGNATURE_CHARACTERS}.
 *
 * @param text - the header's text
 * @returns the signature
 */
export function oneLine(text: string): string {
  // Multi-line parameter lists read as one line: no space inside brackets, no dangling comma,
  // and no `=` left where a value was cut off.
  const collapsed = text
    .replace(/\s+/g, " ")
    .trim()
    .replace(/([([{<]) /g, "$1")
    .replace(/,? ([)\]}>])/g, "$1")
    .replace(/ ?=$/, "");
  return collapsed.length > MAX_SIGNATURE_CHARACTERS
    ? `${collapsed.slice(0, MAX_SIGNATURE_CHARACTERS - 1)}…`
    : collapsed;
}

interface WalkState {
  parent: EngineSymbol | undefined;
  outer: Node | undefined;
  exported: boolean | undefined;
}

/**
 * Walks a tree with a language's rules and returns its symbols in document order (a container
 * before its members).
 *
 * @param root - the tree's root node
 * @param text - the parsed text
 * @param rules - the language's table
 * @returns the symbols
 */
export function walkSymbols(root: Node, text: string, rules: LanguageRules): EngineSymbol[] {
  const symbols: EngineSymbol[] = [];

  function children(node: Node, state: WalkState): void {
    const count = node.namedChildCount;
    for (let index = 0; index < count; index += 1) {
      const child = node.namedChild(index);
      if (child !== null) visit(child, state);
    }
  }

  function visit(node: Node, state: WalkState): void {
    const rule = rules[node.type];
    if (rule === undefined) return;
    if ("through" in rule) {
      children(node, { parent: state.parent, outer: undefined, exported: undefined });
      return;
    }
    if ("wrap" in rule) {
      children(node, {
        parent: state.parent,
        outer: state.outer ?? node,
        exported: rule.exported ?? state.exported,
      });
      return;
    }
    const found = rule.symbols(node, { parent: state.parent, exported: state.exported });
    if (found === undefined) return;
    const specs: readonly SymbolSpec[] = Array.isArray(found) ? found : [found as SymbolSpec];
    for (const spec of specs) {
      if (spec.name.length === 0) continue;
      const span = spec.range ?? (specs.length > 1 ? node : (state.outer ?? node));
      const start = Math.min(span.startIndex, node.startIndex);
      const headerEnd = spec.headerEnd ?? spec.body?.startIndex ?? node.endIndex;
      const headerStart =
        specs.length > 1 && spec.range !== undefined ? spec.range.startIndex : start;
      const qualifier = spec.qualifier ?? state.parent?.qualified_name;
      const symbol: EngineSymbol = {
        kind: spec.kind,
        name: spec.name,
        qualified_name: qualifier === undefined ? spec.name : `${qualifier}.${spec.name}`,
        signature: oneLine(text.slice(headerStart, Math.max(headerStart, headerEnd))),
        start_line: Math.min(span.startPosition.row, node.startPosition.row) + 1,
        end_line: Math.max(span.endPosition.row, node.endPosition.row) + 1,
        parent: qualifier ?? null,
        depth: state.parent === undefined ? 0 : state.parent.depth + 1,
        startIndex: start,
        endIndex: Math.max(span.endIndex, node.endIndex),
        nameIndex: spec.nameNode?.startIndex ?? -1,
      };
      // A node ending in a newline (some grammars include it) ends on the line before.
      if (text[symbol.endIndex - 1] === "\n" && symbol.end_line > symbol.start_line) {
        symbol.end_line -= 1;
      }
      const exported = spec.exported ?? state.exported;
      if (exported !== undefined) symbol.exported = exported;
      symbols.push(symbol);
      if (spec.members !== undefined && spec.members !== null) {
        children(spec.members, { parent: symbol, outer: undefined, exported: undefined });
      }
    }
  }

  children(root, { parent: undefined, outer: undefined, exported: undefined });
  return symbols;
}

/**
 * The text of a node's field, when it has one.
 *
 * @param node - a node
 * @param field - the field's name
 * @returns the field's text, or `undefined`
 */
export function fieldText(node: Node, field: string): string | undefined {
  return node.childForFieldName(field)?.text;
}

/**
 * A spec for the common case: the name in field `name`, the body in field `body` (pass
 * `members: node.childForFieldName("body")` in `extra` for containers).
 *
 * @param kind - the symbol's kind
 * @param node - the declaration node
 * @param extra - fields to add or override
 * @returns the spec, or `undefined` when the node has no name
 */
export function named(
  kind: SymbolKind,
  node: Node,
  extra: Partial<SymbolSpec> = {},
): SymbolSpec | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  return { kind, name: nameNode.text, nameNode, body: node.childForFieldName("body"), ...extra };
}
