import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../symbol.js";
import { type LanguageRules, named, type RuleContext, type SymbolSpec } from "../walk-rules.js";

/**
 * Declarations of Go and Rust.
 *
 * @internal
 */

const isGoExported = (name: string): boolean => /^\p{Lu}/u.test(name);

function goSpecs(kind: SymbolKind) {
  return (node: Node): SymbolSpec[] =>
    node.childrenForFieldName("name").flatMap((nameNode) =>
      nameNode === null
        ? []
        : [
            {
              kind,
              name: nameNode.text,
              nameNode,
              exported: isGoExported(nameNode.text),
              ...(node.childrenForFieldName("name").length > 1 ? { range: node } : {}),
            },
          ],
    );
}

function goTypeSpec(node: Node): SymbolSpec | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  const type = node.childForFieldName("type");
  const kind: SymbolKind =
    type?.type === "struct_type"
      ? "struct"
      : type?.type === "interface_type"
        ? "interface"
        : "type";
  const members =
    type?.type === "struct_type"
      ? type.namedChildren.find((child) => child?.type === "field_declaration_list")
      : type?.type === "interface_type"
        ? type
        : null;
  return {
    kind,
    name: nameNode.text,
    nameNode,
    exported: isGoExported(nameNode.text),
    members: members ?? null,
    ...(members === null || members === undefined ? {} : { body: members }),
  };
}

function goMethod(node: Node): SymbolSpec | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  const receiver = node.childForFieldName("receiver");
  const typeNode = receiver?.namedChildren[0]?.childForFieldName("type");
  const receiverType = typeNode?.text.replace(/^\*/, "").replace(/\[.*$/s, "");
  return {
    kind: "method",
    name: nameNode.text,
    nameNode,
    exported: isGoExported(nameNode.text),
    body: node.childForFieldName("body"),
    ...(receiverType === undefined ? {} : { qualifier: receiverType }),
  };
}

/** The Go table. */
export const GO_RULES: LanguageRules = {
  function_declaration: {
    symbols: (node) => named("function", node, { exported: isGoExported(fieldName(node)) }),
  },
  method_declaration: { symbols: goMethod },
  type_declaration: { through: true },
  type_spec: { symbols: goTypeSpec },
  type_alias: { symbols: goTypeSpec },
  const_declaration: { through: true },
  const_spec: { symbols: goSpecs("constant") },
  var_declaration: { through: true },
  var_spec: { symbols: goSpecs("variable") },
  var_spec_list: { through: true },
  field_declaration: { symbols: goSpecs("field") },
  method_elem: {
    symbols: (node) => named("method", node, { exported: isGoExported(fieldName(node)) }),
  },
};

function fieldName(node: Node): string {
  return node.childForFieldName("name")?.text ?? "";
}

function isPub(node: Node): boolean {
  return node.namedChildren.some((child) => child?.type === "visibility_modifier");
}

function rustItem(kind: SymbolKind, container = false) {
  return (node: Node, context: RuleContext): SymbolSpec | undefined => {
    const inTraitOrImpl = context.parent?.kind === "impl" || context.parent?.kind === "trait";
    const actual: SymbolKind = kind === "function" && inTraitOrImpl ? "method" : kind;
    const body = node.childForFieldName("body");
    return named(actual, node, {
      exported: isPub(node),
      ...(container ? { members: body } : {}),
    });
  };
}

function rustImpl(node: Node): SymbolSpec | undefined {
  const type = node.childForFieldName("type");
  if (type === null) return undefined;
  const name = type.text.replace(/<.*$/s, "").replace(/^.*::/, "");
  const body = node.childForFieldName("body");
  return { kind: "impl", name, nameNode: type, body, members: body };
}

/** The Rust table. */
export const RUST_RULES: LanguageRules = {
  attribute_item: { through: true },
  function_item: { symbols: rustItem("function") },
  function_signature_item: { symbols: rustItem("function") },
  struct_item: { symbols: rustItem("struct", true) },
  union_item: { symbols: rustItem("struct", true) },
  enum_item: { symbols: rustItem("enum", true) },
  trait_item: { symbols: rustItem("trait", true) },
  mod_item: { symbols: rustItem("module", true) },
  impl_item: { symbols: rustImpl },
  const_item: { symbols: rustItem("constant") },
  static_item: { symbols: rustItem("variable") },
  type_item: { symbols: rustItem("type") },
  associated_type: { symbols: rustItem("type") },
  macro_definition: { symbols: rustItem("macro") },
  declaration_list: { through: true },
  field_declaration_list: { through: true },
  enum_variant_list: { through: true },
  field_declaration: { symbols: rustItem("field") },
  enum_variant: { symbols: rustItem("enum_member") },
};
