import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../symbol.js";
import { type LanguageRules, named, type RuleContext, type SymbolSpec } from "../walk-rules.js";

/**
 * Declarations of TypeScript, TSX and JavaScript (one table: the JavaScript grammar's node types
 * are a subset of TypeScript's).
 *
 * @internal
 */

/** A property name as the compiler spells it: a string's content, a computed name's brackets. */
function propertyName(node: Node | null): string | undefined {
  if (node === null) return undefined;
  if (node.type === "string") return node.text.slice(1, -1);
  return node.text;
}

function member(kind: SymbolKind, node: Node): SymbolSpec | undefined {
  const nameNode = node.childForFieldName("name");
  const name = propertyName(nameNode);
  if (name === undefined) return undefined;
  const isConstructor = name === "constructor" && kind === "method";
  return {
    kind: isConstructor ? "constructor" : kind,
    name,
    nameNode,
    body: node.childForFieldName("body") ?? node.childForFieldName("value"),
  };
}

function container(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined =>
    named(kind, node, { members: node.childForFieldName("body") });
}

const FUNCTION_VALUES = new Set([
  "arrow_function",
  "function_expression",
  "function",
  "generator_function",
]);

function variables(node: Node, context: RuleContext): SymbolSpec[] {
  const keyword = node.child(0)?.text;
  const declarators = node.namedChildren.filter(
    (child): child is Node => child?.type === "variable_declarator",
  );
  const specs: SymbolSpec[] = [];
  for (const declarator of declarators) {
    const nameNode = declarator.childForFieldName("name");
    if (nameNode === null) continue;
    const value = declarator.childForFieldName("value");
    const isFunction = value !== null && FUNCTION_VALUES.has(value.type);
    const names =
      nameNode.type === "identifier"
        ? [nameNode]
        : nameNode
            .descendantsOfType(["shorthand_property_identifier_pattern", "identifier"])
            .filter((item): item is Node => item !== null);
    // Short values stay in the signature (constants read better with them); long ones are cut.
    const headerEnd = isFunction
      ? value?.childForFieldName("body")?.startIndex
      : value === null
        ? declarator.endIndex
        : value.endIndex - value.startIndex <= 60
          ? value.endIndex
          : value.startIndex;
    for (const each of names) {
      specs.push({
        kind: isFunction ? "function" : keyword === "const" ? "constant" : "variable",
        name: each.text,
        nameNode: each,
        ...(headerEnd === undefined ? {} : { headerEnd }),
        ...(context.exported === undefined ? {} : { exported: context.exported }),
        ...(declarators.length > 1 || names.length > 1 ? { range: declarator } : {}),
      });
    }
  }
  return specs;
}

function namespaceName(node: Node): SymbolSpec | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  const name = nameNode.type === "string" ? nameNode.text.slice(1, -1) : nameNode.text;
  return {
    kind: node.type === "module" ? "module" : "namespace",
    name,
    nameNode,
    body: node.childForFieldName("body"),
    members: node.childForFieldName("body"),
  };
}

function topLevel(kind: SymbolKind) {
  return (node: Node, context: RuleContext): SymbolSpec | undefined => {
    const spec = named(kind, node);
    if (spec === undefined) return undefined;
    return context.parent === undefined && context.exported === undefined
      ? { ...spec, exported: false }
      : spec;
  };
}

function withExportFlag(
  rule: (node: Node, context: RuleContext) => SymbolSpec | SymbolSpec[] | undefined,
) {
  return (node: Node, context: RuleContext) => {
    const found = rule(node, context);
    if (found === undefined || context.parent !== undefined) return found;
    const mark = (spec: SymbolSpec): SymbolSpec => ({
      ...spec,
      exported: context.exported ?? false,
    });
    return Array.isArray(found) ? found.map(mark) : mark(found as SymbolSpec);
  };
}

/** The TypeScript / TSX / JavaScript table. */
export const JAVASCRIPT_RULES: LanguageRules = {
  export_statement: { wrap: true, exported: true },
  ambient_declaration: { wrap: true },
  expression_statement: { through: true },
  statement_block: { through: true },
  class_declaration: { symbols: withExportFlag(container("class")) },
  abstract_class_declaration: { symbols: withExportFlag(container("class")) },
  interface_declaration: { symbols: withExportFlag(container("interface")) },
  enum_declaration: { symbols: withExportFlag(container("enum")) },
  type_alias_declaration: {
    symbols: withExportFlag((node, context) => {
      const spec = topLevel("type")(node, context);
      const value = node.childForFieldName("value");
      // A long type's text is its body: the signature stops before it.
      return spec === undefined || value === null || value.endIndex - value.startIndex <= 80
        ? spec
        : { ...spec, headerEnd: value.startIndex };
    }),
  },
  function_declaration: { symbols: withExportFlag(topLevel("function")) },
  generator_function_declaration: { symbols: withExportFlag(topLevel("function")) },
  function_signature: { symbols: withExportFlag(topLevel("function")) },
  lexical_declaration: { symbols: withExportFlag(variables) },
  variable_declaration: { symbols: withExportFlag(variables) },
  internal_module: { symbols: withExportFlag(namespaceName) },
  module: { symbols: withExportFlag(namespaceName) },
  // Members of classes, interfaces and enums.
  class_body: { through: true },
  interface_body: { through: true },
  object_type: { through: true },
  enum_body: { through: true },
  method_definition: { symbols: (node) => member("method", node) },
  method_signature: { symbols: (node) => member("method", node) },
  abstract_method_signature: { symbols: (node) => member("method", node) },
  public_field_definition: { symbols: (node) => member("property", node) },
  field_definition: {
    symbols: (node) => {
      const nameNode = node.childForFieldName("property");
      const name = propertyName(nameNode);
      return name === undefined ? undefined : { kind: "property", name, nameNode };
    },
  },
  property_signature: { symbols: (node) => member("property", node) },
  enum_assignment: { symbols: (node) => member("enum_member", node) },
  property_identifier: {
    symbols: (node, context) =>
      context.parent?.kind === "enum"
        ? { kind: "enum_member", name: node.text, nameNode: node }
        : undefined,
  },
  string: {
    symbols: (node, context) =>
      context.parent?.kind === "enum"
        ? { kind: "enum_member", name: node.text.slice(1, -1), nameNode: node }
        : undefined,
  },
};
