import type { Node } from "web-tree-sitter";
import type { SymbolKind } from "../symbol.js";
import { type LanguageRules, named, type RuleContext, type SymbolSpec } from "../walk-rules.js";

/**
 * Declarations of C and C++ (one grammar parses both), Java and C#.
 *
 * @internal
 */

const DECLARATOR_WRAPPERS = new Set([
  "pointer_declarator",
  "reference_declarator",
  "function_declarator",
  "array_declarator",
  "init_declarator",
  "parenthesized_declarator",
  "attributed_declarator",
]);

/** Follows a C declarator down to its name; says whether a function declarator was passed. */
function declaratorName(node: Node | null): { nameNode: Node; isFunction: boolean } | undefined {
  let current = node;
  let isFunction = false;
  while (current !== null && DECLARATOR_WRAPPERS.has(current.type)) {
    if (current.type === "function_declarator") isFunction = true;
    const next: Node | null =
      current.childForFieldName("declarator") ??
      current.namedChildren.find((child) => child !== null && child.type !== "attribute") ??
      null;
    current = next;
  }
  if (current === null) return undefined;
  return { nameNode: current, isFunction };
}

function cSymbols(node: Node, context: RuleContext): SymbolSpec[] {
  const inType = context.parent !== undefined && ["class", "struct"].includes(context.parent.kind);
  const specs: SymbolSpec[] = [];
  const declarators = node.childrenForFieldName("declarator").filter((item) => item !== null);
  for (const declarator of declarators) {
    const found = declaratorName(declarator);
    if (found === undefined) continue;
    const { nameNode, isFunction } = found;
    let name = nameNode.text;
    let qualifier: string | undefined;
    if (nameNode.type === "qualified_identifier") {
      const parts = name.split("::");
      name = parts.pop() ?? name;
      qualifier = parts.join(".").replace(/<[^>]*>/g, "") || undefined;
    }
    if (!/^[~A-Za-z_]/.test(name) && !name.startsWith("operator")) continue;
    const owner = qualifier?.split(".").pop() ?? context.parent?.name;
    const kind: SymbolKind = isFunction
      ? owner !== undefined && (owner === name || `~${owner}` === name)
        ? "constructor"
        : inType || qualifier !== undefined
          ? "method"
          : "function"
      : node.type === "type_definition"
        ? "type"
        : inType
          ? "field"
          : "variable";
    specs.push({
      kind,
      name,
      nameNode,
      body: node.childForFieldName("body"),
      ...(qualifier === undefined ? {} : { qualifier }),
      ...(declarators.length > 1 ? { range: declarator } : {}),
    });
  }
  return specs;
}

function cType(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined => {
    const body = node.childForFieldName("body");
    // `struct s x;` uses a type; only a specifier with a body declares one.
    if (body === null) return undefined;
    return named(kind, node, { body, members: body });
  };
}

function cTypedef(node: Node, context: RuleContext): SymbolSpec[] {
  const type = node.childForFieldName("type");
  const body = type?.childForFieldName("body") ?? null;
  const specs = cSymbols(node, context);
  if (body === null || type === null) return specs;
  const kind: SymbolKind = type.type === "enum_specifier" ? "enum" : "struct";
  return specs.map((spec) => ({ ...spec, kind, body, members: body }));
}

/** The C / C++ table. */
export const C_FAMILY_RULES: LanguageRules = {
  preproc_ifdef: { through: true },
  preproc_if: { through: true },
  preproc_else: { through: true },
  preproc_elif: { through: true },
  linkage_specification: { wrap: true },
  template_declaration: { wrap: true },
  declaration_list: { through: true },
  field_declaration_list: { through: true },
  access_specifier: { through: true },
  enumerator_list: { through: true },
  preproc_def: {
    symbols: (node) => named("macro", node, { body: node.childForFieldName("value") }),
  },
  preproc_function_def: {
    symbols: (node) => named("macro", node, { body: node.childForFieldName("value") }),
  },
  namespace_definition: {
    symbols: (node) => {
      const body = node.childForFieldName("body");
      return named("namespace", node, { body, members: body });
    },
  },
  class_specifier: { symbols: cType("class") },
  struct_specifier: { symbols: cType("struct") },
  union_specifier: { symbols: cType("struct") },
  enum_specifier: { symbols: cType("enum") },
  enumerator: { symbols: (node) => named("enum_member", node) },
  function_definition: { symbols: cSymbols },
  declaration: {
    symbols: (node, context) => {
      const type = node.childForFieldName("type");
      const own = type === null ? [] : ([] as SymbolSpec[]);
      const typeSpec =
        type !== null && type.childForFieldName("body") !== null
          ? RULE_OF_TYPE(type, context)
          : undefined;
      return [...own, ...(typeSpec === undefined ? [] : [typeSpec]), ...cSymbols(node, context)];
    },
  },
  field_declaration: { symbols: cSymbols },
  type_definition: { symbols: cTypedef },
};

function RULE_OF_TYPE(type: Node, context: RuleContext): SymbolSpec | undefined {
  const rule = C_FAMILY_RULES[type.type];
  if (rule === undefined || !("symbols" in rule)) return undefined;
  const found = rule.symbols(type, context);
  return Array.isArray(found) ? found[0] : (found as SymbolSpec | undefined);
}

function hasModifier(node: Node, word: string): boolean {
  for (const child of node.namedChildren) {
    if (child === null) continue;
    if (child.type === "modifiers" || child.type === "modifier") {
      if (new RegExp(`\\b${word}\\b`).test(child.text)) return true;
    }
  }
  return false;
}

function jvmType(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined => {
    const body = node.childForFieldName("body");
    return named(kind, node, {
      body,
      members: body,
      exported: hasModifier(node, "public"),
    });
  };
}

function jvmMember(kind: SymbolKind) {
  return (node: Node): SymbolSpec | undefined =>
    named(kind, node, { exported: hasModifier(node, "public") });
}

/** Java and C# fields: one symbol per declarator. */
function jvmFields(node: Node, context: RuleContext): SymbolSpec[] {
  const holder = node.namedChildren.find((child) => child?.type === "variable_declaration") ?? node;
  const declarators = holder.namedChildren.filter(
    (child): child is Node => child?.type === "variable_declarator",
  );
  const kind: SymbolKind =
    context.parent?.kind === "interface" || hasModifier(node, "final") || hasModifier(node, "const")
      ? "constant"
      : "field";
  return declarators.flatMap((declarator) => {
    const nameNode =
      declarator.childForFieldName("name") ??
      declarator.namedChildren.find((child) => child?.type === "identifier") ??
      null;
    if (nameNode === null) return [];
    return [
      {
        kind,
        name: nameNode.text,
        nameNode,
        exported: hasModifier(node, "public"),
        headerEnd: declarator.endIndex,
        ...(declarators.length > 1 ? { range: declarator } : {}),
      },
    ];
  });
}

/** The Java table. */
export const JAVA_RULES: LanguageRules = {
  class_declaration: { symbols: jvmType("class") },
  interface_declaration: { symbols: jvmType("interface") },
  annotation_type_declaration: { symbols: jvmType("interface") },
  enum_declaration: { symbols: jvmType("enum") },
  record_declaration: { symbols: jvmType("class") },
  class_body: { through: true },
  interface_body: { through: true },
  annotation_type_body: { through: true },
  enum_body: { through: true },
  enum_body_declarations: { through: true },
  enum_constant: { symbols: (node) => named("enum_member", node) },
  method_declaration: { symbols: jvmMember("method") },
  annotation_type_element_declaration: { symbols: jvmMember("method") },
  constructor_declaration: { symbols: jvmMember("constructor") },
  compact_constructor_declaration: { symbols: jvmMember("constructor") },
  field_declaration: { symbols: jvmFields },
  constant_declaration: { symbols: jvmFields },
};

/** The C# table. */
export const CSHARP_RULES: LanguageRules = {
  namespace_declaration: { symbols: jvmType("namespace") },
  file_scoped_namespace_declaration: { symbols: (node) => named("namespace", node) },
  class_declaration: { symbols: jvmType("class") },
  struct_declaration: { symbols: jvmType("struct") },
  record_declaration: { symbols: jvmType("class") },
  record_struct_declaration: { symbols: jvmType("struct") },
  interface_declaration: { symbols: jvmType("interface") },
  enum_declaration: { symbols: jvmType("enum") },
  declaration_list: { through: true },
  enum_member_declaration_list: { through: true },
  enum_member_declaration: { symbols: (node) => named("enum_member", node) },
  method_declaration: { symbols: jvmMember("method") },
  constructor_declaration: { symbols: jvmMember("constructor") },
  destructor_declaration: { symbols: jvmMember("method") },
  operator_declaration: { symbols: jvmMember("method") },
  property_declaration: { symbols: jvmMember("property") },
  indexer_declaration: { symbols: () => undefined },
  event_declaration: { symbols: jvmMember("property") },
  delegate_declaration: { symbols: jvmMember("type") },
  field_declaration: { symbols: jvmFields },
  event_field_declaration: { symbols: jvmFields },
};
