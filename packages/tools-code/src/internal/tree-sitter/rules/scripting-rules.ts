import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../symbol.js";
import { type LanguageRules, named, type RuleContext, type SymbolSpec } from "../walk-rules.js";

/**
 * Declarations of Ruby, PHP, Bash and CSS.
 *
 * @internal
 */

function rubyContainer(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined => {
    const body = node.namedChildren.find((child) => child?.type === "body_statement") ?? null;
    const nameNode = node.childForFieldName("name");
    if (nameNode === null) return undefined;
    const name = nameNode.text.replace(/^.*::/, "");
    return { kind, name, nameNode, body, members: body };
  };
}

function rubyMethod(node: Node, context: RuleContext): SymbolSpec | undefined {
  const inType = context.parent?.kind === "class" || context.parent?.kind === "module";
  const spec = named(inType ? "method" : "function", node);
  if (spec === undefined) return undefined;
  const body = node.namedChildren.find((child) => child?.type === "body_statement") ?? null;
  return {
    ...spec,
    kind: spec.name === "initialize" && inType ? "constructor" : spec.kind,
    headerEnd: body?.startIndex ?? node.endIndex,
  };
}

function rubyConstant(node: Node, context: RuleContext): SymbolSpec | undefined {
  const left = node.childForFieldName("left");
  if (left?.type !== "constant") return undefined;
  if (context.parent !== undefined && !["class", "module"].includes(context.parent.kind)) {
    return undefined;
  }
  const right = node.childForFieldName("right");
  return {
    kind: "constant",
    name: left.text,
    nameNode: left,
    headerEnd:
      right === null || right.endIndex - right.startIndex > 60 ? right?.startIndex : right.endIndex,
  };
}

/** The Ruby table. */
export const RUBY_RULES: LanguageRules = {
  module: { symbols: rubyContainer("module") },
  class: { symbols: rubyContainer("class") },
  singleton_class: { through: true },
  body_statement: { through: true },
  method: { symbols: rubyMethod },
  singleton_method: { symbols: rubyMethod },
  assignment: { symbols: rubyConstant },
};

function phpType(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined => {
    const body = node.childForFieldName("body");
    return named(kind, node, { body, members: body });
  };
}

function phpElements(kind: SymbolKind, elementType: string, strip = "") {
  return (node: Node): SymbolSpec[] => {
    const elements = node.namedChildren.filter(
      (child): child is Node => child?.type === elementType,
    );
    return elements.flatMap((element) => {
      const nameNode =
        element.childForFieldName("name") ??
        element.namedChildren.find(
          (child) => child?.type === "name" || child?.type === "variable_name",
        ) ??
        null;
      if (nameNode === null) return [];
      return [
        {
          kind,
          name: nameNode.text.replace(strip, ""),
          nameNode,
          headerEnd: element.endIndex,
          ...(elements.length > 1 ? { range: element } : {}),
        },
      ];
    });
  };
}

/** The PHP table. */
export const PHP_RULES: LanguageRules = {
  namespace_definition: {
    symbols: (node) => {
      const nameNode = node.childForFieldName("name");
      const body = node.childForFieldName("body");
      return nameNode === null
        ? undefined
        : { kind: "namespace", name: nameNode.text, nameNode, body, members: body };
    },
  },
  compound_statement: { through: true },
  class_declaration: { symbols: phpType("class") },
  interface_declaration: { symbols: phpType("interface") },
  trait_declaration: { symbols: phpType("trait") },
  enum_declaration: { symbols: phpType("enum") },
  declaration_list: { through: true },
  enum_declaration_list: { through: true },
  enum_case: { symbols: (node) => named("enum_member", node) },
  function_definition: { symbols: (node) => named("function", node) },
  method_declaration: {
    symbols: (node) =>
      named(
        node.childForFieldName("name")?.text === "__construct" ? "constructor" : "method",
        node,
      ),
  },
  property_declaration: { symbols: phpElements("property", "property_element", "$") },
  const_declaration: { symbols: phpElements("constant", "const_element") },
};

/** The Bash table. */
export const BASH_RULES: LanguageRules = {
  function_definition: { symbols: (node) => named("function", node) },
};

function cssRule(node: Node): SymbolSpec | undefined {
  const selectors = node.namedChildren.find((child) => child?.type === "selectors");
  if (selectors === undefined || selectors === null) return undefined;
  return {
    kind: "rule",
    name: selectors.text.replace(/\s+/g, " ").trim(),
    nameNode: selectors,
    body: node.namedChildren.find((child) => child?.type === "block") ?? null,
  };
}

function cssAtRule(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined => {
    const block =
      node.namedChildren.find(
        (child) => child?.type === "block" || child?.type === "keyframe_block_list",
      ) ?? null;
    const header = node.text.slice(0, (block?.startIndex ?? node.endIndex) - node.startIndex);
    return {
      kind,
      name: header.replace(/\s+/g, " ").trim(),
      body: block,
      members: block?.type === "block" ? block : null,
    };
  };
}

/** The CSS table: rule sets by their selectors, at-rules by their header. */
export const CSS_RULES: LanguageRules = {
  rule_set: { symbols: cssRule },
  media_statement: { symbols: cssAtRule("section") },
  supports_statement: { symbols: cssAtRule("section") },
  keyframes_statement: { symbols: cssAtRule("section") },
};
