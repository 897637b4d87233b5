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

/** Longest header text collapsed into a signature (a header is cut to 200 characters anyway). */
const MAX_HEADER_CHARACTERS = 4_000;

/**
 * One line of header text: whitespace collapsed, cut at {@link MAX_SIGNATURE_CHARACTERS}.
 *
 * @param text - the header's text
 * @returns the signature
 */
export function oneLine(text: string): string {
  // Multi-line parameter lists read as one line: no space inside brackets, no dangling comma,
  // and no `=` left where a value was cut off. Only the start of a long header is read.
  const collapsed = (
    text.length > MAX_HEADER_CHARACTERS ? text.slice(0, MAX_HEADER_CHARACTERS) : text
  )
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
 * Deepest symbol nesting the walker descends to: members deeper than this are left out (real
 * code nests a few levels; a hostile file of 4,000 nested namespaces would otherwise give 4,000
 * symbols whose qualified names grow with their depth — quadratic text).
 */
export const MAX_SYMBOL_DEPTH = 64;

/** One step of the walk: a node to visit, or a declaration's symbol to emit (then its members). */
type WalkStep =
  | { readonly node: Node; readonly state: WalkState }
  | {
      readonly spec: SymbolSpec;
      readonly node: Node;
      readonly state: WalkState;
      readonly several: boolean;
    };

/**
 * Walks a tree with a language's rules and returns its symbols in document order (a container
 * before its members). Iterative (an explicit stack, so no depth of nesting overflows the call
 * stack) and linear: each node's named children are read once (`namedChildren`; `namedChild(i)`
 * costs O(i) in tree-sitter, so a loop over it is quadratic in a long list of siblings).
 *
 * @param root - the tree's root node
 * @param text - the parsed text
 * @param rules - the language's table
 * @returns the symbols
 */
export function walkSymbols(root: Node, text: string, rules: LanguageRules): EngineSymbol[] {
  const symbols: EngineSymbol[] = [];
  const stack: WalkStep[] = [];
  const pushChildren = (node: Node, state: WalkState): void => {
    const children = node.namedChildren;
    for (let index = children.length - 1; index >= 0; index -= 1) {
      const child = children[index];
      if (child !== null && child !== undefined && rules[child.type] !== undefined)
        stack.push({ node: child, state });
    }
  };

  const visit = (node: Node, state: WalkState): void => {
    const rule = rules[node.type];
    if (rule === undefined) return;
    if ("through" in rule) {
      pushChildren(node, { parent: state.parent, outer: undefined, exported: undefined });
      return;
    }
    if ("wrap" in rule) {
      pushChildren(node, {
        parent: state.parent,
        outer: state.outer ?? node,
        exported: rule.exported ?? state.exported,
      });
      return;
    }
    const found = rule.symbols(node, { parent: state.parent, exported: state.exported });
    if (found === undefined) return;
    const specs: readonly SymbolSpec[] = Array.isArray(found) ? found : [found as SymbolSpec];
    // Each spec is emitted, then its members walked, before the next spec (document order).
    for (let index = specs.length - 1; index >= 0; index -= 1) {
      const spec = specs[index] as SymbolSpec;
      if (spec.name.length > 0) stack.push({ spec, node, state, several: specs.length > 1 });
    }
  };

  const emit = (spec: SymbolSpec, node: Node, state: WalkState, several: boolean): void => {
    const span = spec.range ?? (several ? node : (state.outer ?? node));
    const start = Math.min(span.startIndex, node.startIndex);
    const headerEnd = spec.headerEnd ?? spec.body?.startIndex ?? node.endIndex;
    const headerStart = several && spec.range !== undefined ? spec.range.startIndex : start;
    const qualifier = spec.qualifier ?? state.parent?.qualified_name;
    const symbol: EngineSymbol = {
      kind: spec.kind,
      name: spec.name,
      qualified_name: qualifier === undefined ? spec.name : `${qualifier}.${spec.name}`,
      signature: oneLine(
        text.slice(
          headerStart,
          Math.min(Math.max(headerStart, headerEnd), headerStart + MAX_HEADER_CHARACTERS),
        ),
      ),
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
    if (spec.members !== undefined && spec.members !== null && symbol.depth < MAX_SYMBOL_DEPTH) {
      pushChildren(spec.members, { parent: symbol, outer: undefined, exported: undefined });
    }
  };

  pushChildren(root, { parent: undefined, outer: undefined, exported: undefined });
  for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
    if ("spec" in step) emit(step.spec, step.node, step.state, step.several);
    else visit(step.node, step.state);
  }
  return symbols;
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
