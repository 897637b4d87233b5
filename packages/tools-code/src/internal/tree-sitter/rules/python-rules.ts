import type { Node } from "web-tree-sitter";
import type { LanguageRules, RuleContext, SymbolSpec } from "../walk-rules.js";

/**
 * Declarations of Python: classes, functions and methods (decorators included in their span),
 * and module- or class-level assignments. Definitions under `if` / `try` / `with` at module or
 * class level count (conditional definitions are definitions); nothing inside a function does.
 *
 * @internal
 */

function definition(node: Node, context: RuleContext): SymbolSpec | undefined {
  const nameNode = node.childForFieldName("name");
  if (nameNode === null) return undefined;
  const body = node.childForFieldName("body");
  const name = nameNode.text;
  if (node.type === "class_definition") {
    return { kind: "class", name, nameNode, body, members: body };
  }
  const inClass = context.parent?.kind === "class";
  return {
    kind: inClass ? (name === "__init__" ? "constructor" : "method") : "function",
    name,
    nameNode,
    body,
  };
}

function assignment(node: Node, context: RuleContext): SymbolSpec[] | undefined {
  if (context.parent !== undefined && context.parent.kind !== "class") return undefined;
  const specs: SymbolSpec[] = [];
  for (const child of node.namedChildren) {
    if (child?.type !== "assignment") continue;
    const left = child.childForFieldName("left");
    if (left?.type !== "identifier") continue;
    const value = child.childForFieldName("right");
    const name = left.text;
    specs.push({
      kind: /^[A-Z][A-Z0-9_]*$/.test(name) ? "constant" : "variable",
      name,
      nameNode: left,
      headerEnd:
        value === null
          ? child.endIndex
          : value.endIndex - value.startIndex <= 60
            ? value.endIndex
            : value.startIndex,
    });
  }
  return specs;
}

/** The Python table. */
export const PYTHON_RULES: LanguageRules = {
  decorated_definition: { wrap: true },
  class_definition: { symbols: definition },
  function_definition: { symbols: definition },
  expression_statement: { symbols: assignment },
  if_statement: { through: true },
  elif_clause: { through: true },
  else_clause: { through: true },
  try_statement: { through: true },
  except_clause: { through: true },
  finally_clause: { through: true },
  with_statement: { through: true },
  block: { through: true },
};
