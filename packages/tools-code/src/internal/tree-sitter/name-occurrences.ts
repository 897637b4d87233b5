import type { Node } from "web-tree-sitter";
import { LANGUAGE_RULES } from "./extract-symbols.js";
import { IDENTIFIER_NODE_TYPES } from "./identifiers.js";
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
 * Identifier occurrences of one name in one text, confirmed by the syntax tree (for
 * `find_references`): the text is searched for the name between identifier boundaries, and each
 * hit is kept only when the tree's smallest node there is an identifier of exactly that span — so
 * hits inside strings, comments and longer names drop out. Each kept hit says whether it declares
 * the name, imports it or uses it, and names its innermost enclosing symbol (the engine's
 * symbols, from the same tree). Unlike `collectIdentifiers` (which walks every node), it visits
 * only the textual hits — a large file with three uses costs a parse and three lookups. Added
 * beside the engine for `find_references`; the tree is deleted before returning.
 *
 * @internal
 */

/** What an occurrence does with the name. */
export type OccurrenceRole = "declaration" | "import" | "reference";

/**
 * Where the name stands, syntactically — what `find_references` binds it by:
 * - `free`: a plain identifier (a variable, function, class or type name, declared or used);
 * - `shorthand`: `{ name }` in an object literal or a destructuring pattern (a variable, and a
 *   property);
 * - `member_access`: after a dot (`x.name`, `this.name`, `ns.Type`, Python `x.name`), with its
 *   receiver's text;
 * - `member_declaration`: a class, interface, enum or object-literal member's name (`name()`,
 *   `name: T`, `{ name: value }`, a method `def name` in a Python class);
 * - `import` / `export`: inside an import or an `export { … }` clause.
 */
export type OccurrenceForm =
  | "free"
  | "shorthand"
  | "member_access"
  | "member_declaration"
  | "import"
  | "export";

/** One confirmed occurrence. */
export interface NameOccurrence {
  /** Offset in the text (UTF-16 code units). */
  index: number;
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
  /** Declaration, import or plain use. */
  role: OccurrenceRole;
  /** Qualified name of the innermost enclosing symbol, or `null` at the top of the file. */
  enclosing: string | null;
  /** The kind of that symbol (`class`, `interface`, `function`…), or `null` at the top. */
  enclosingKind: string | null;
  /** Where the name stands ({@link OccurrenceForm}). */
  form: OccurrenceForm;
  /** The receiver's text of a `member_access` (`this`, `z`, `schema.shape`), capped at 200 characters. */
  receiver?: string;
}

/** Parents whose name-like child declares it, besides a `name` field. */
const DECLARING_PARENTS = new Set([
  "variable_declarator",
  "required_parameter",
  "optional_parameter",
  "rest_pattern",
  "formal_parameters",
  "parameters",
  "default_parameter",
  "typed_parameter",
  "typed_default_parameter",
  "lambda_parameters",
  "parameter_declaration",
  "formal_parameter",
  "shorthand_property_identifier_pattern",
  "object_pattern",
  "array_pattern",
  "catch_clause",
  "type_parameter",
  "enum_assignment",
  "enum_body",
]);

/** Ancestors that make an occurrence an import. */
const IMPORTING = new Set([
  "import_specifier",
  "import_clause",
  "namespace_import",
  "import_statement",
  "import_from_statement",
  "import_declaration",
  "import_spec",
  "use_declaration",
  "using_directive",
  "named_imports",
  "aliased_import",
  "dotted_name",
]);

/** Parents whose `name` field is a use (JSX tags, calls by name), not a declaration. */
const USING_PARENTS = new Set([
  "jsx_opening_element",
  "jsx_closing_element",
  "jsx_self_closing_element",
  "decorator",
  "call",
]);

function isWordCharacter(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    (code >= 48 && code <= 57) ||
    code === 95 ||
    code === 36 ||
    code >= 0x80
  );
}

/** Offsets where `name` stands between identifier boundaries in `text` (the first `limit`). */
function textualHits(text: string, name: string, limit = Number.POSITIVE_INFINITY): number[] {
  const hits: number[] = [];
  for (
    let at = text.indexOf(name);
    at !== -1 && hits.length < limit;
    at = text.indexOf(name, at + 1)
  ) {
    const before = at === 0 ? 0 : text.charCodeAt(at - 1);
    const after = text.charCodeAt(at + name.length);
    if (!isWordCharacter(before) && (Number.isNaN(after) || !isWordCharacter(after))) hits.push(at);
  }
  return hits;
}

function roleOf(node: Node, index: number, declared: ReadonlySet<number>): OccurrenceRole {
  if (declared.has(index)) return "declaration";
  let ancestor = node.parent;
  for (let depth = 0; ancestor !== null && depth < 4; depth += 1) {
    if (IMPORTING.has(ancestor.type)) {
      // `import x from` / `import { x as y }`: both sides are imports.
      if (ancestor.type !== "dotted_name" || ancestor.parent?.type.startsWith("import"))
        return "import";
    }
    ancestor = ancestor.parent;
  }
  const parent = node.parent;
  if (parent === null) return "reference";
  if (DECLARING_PARENTS.has(parent.type)) {
    // The value side of `x = y`, a default value, a type annotation are uses.
    const value = parent.childForFieldName("value") ?? parent.childForFieldName("right");
    if (value === null || value.startIndex > index) return "declaration";
    return "reference";
  }
  const nameField = parent.childForFieldName("name");
  if (nameField !== null && nameField.startIndex === index && !USING_PARENTS.has(parent.type)) {
    return "declaration";
  }
  return "reference";
}

/**
 * The innermost symbol containing an offset, other than the one the offset names — for offsets
 * asked in ascending order (one forward pass over the symbols sorted by start: linear, where a
 * scan of every symbol per hit was quadratic on a file of thousands of symbols and hits).
 */
function enclosingFinder(symbols: readonly EngineSymbol[]) {
  const ordered = [...symbols].sort(
    (a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex,
  );
  const open: EngineSymbol[] = [];
  let next = 0;
  return (index: number): EngineSymbol | undefined => {
    while (next < ordered.length && (ordered[next] as EngineSymbol).startIndex <= index) {
      open.push(ordered[next] as EngineSymbol);
      next += 1;
    }
    while (open.length > 0 && (open[open.length - 1] as EngineSymbol).endIndex <= index) open.pop();
    // The innermost open symbol that contains the offset and is not named by it.
    for (let at = open.length - 1; at >= 0; at -= 1) {
      const symbol = open[at] as EngineSymbol;
      if (index < symbol.endIndex && symbol.nameIndex !== index) return symbol;
    }
    return undefined;
  };
}

/** Parents whose `name` (or `key`) child is a member's name. */
const MEMBER_DECLARING_PARENTS = new Set([
  "method_definition",
  "method_signature",
  "abstract_method_signature",
  "public_field_definition",
  "property_signature",
  "pair",
  "pair_pattern",
  "enum_body",
  "enum_assignment",
  "field_definition",
  "keyword_argument",
]);

const MAX_RECEIVER_CHARACTERS = 200;

function formOf(node: Node, role: OccurrenceRole): { form: OccurrenceForm; receiver?: string } {
  if (role === "import") return { form: "import" };
  const parent = node.parent;
  if (parent === null) return { form: "free" };
  if (
    node.type === "shorthand_property_identifier" ||
    node.type === "shorthand_property_identifier_pattern"
  ) {
    return { form: "shorthand" };
  }
  const memberParent =
    parent.type === "member_expression"
      ? parent.childForFieldName("property")
      : parent.type === "nested_type_identifier"
        ? parent.childForFieldName("name")
        : parent.type === "attribute"
          ? parent.childForFieldName("attribute")
          : null;
  if (memberParent !== null && memberParent.startIndex === node.startIndex) {
    const object =
      parent.childForFieldName("object") ?? parent.childForFieldName("module") ?? parent.child(0);
    return {
      form: "member_access",
      receiver: (object?.text ?? "").slice(0, MAX_RECEIVER_CHARACTERS),
    };
  }
  if (
    parent.type === "export_specifier" ||
    (parent.type === "export_clause" && node.type === "identifier")
  ) {
    return { form: "export" };
  }
  if (node.type === "property_identifier" || node.type === "private_property_identifier") {
    return { form: "member_declaration" };
  }
  if (MEMBER_DECLARING_PARENTS.has(parent.type)) {
    const key = parent.childForFieldName("key") ?? parent.childForFieldName("name");
    if (key === null || key.startIndex === node.startIndex) return { form: "member_declaration" };
  }
  // A Python method or class attribute: declared directly in a class body.
  const statement =
    parent.type === "function_definition"
      ? parent.parent?.type === "decorated_definition"
        ? parent.parent
        : parent
      : parent.type === "assignment"
        ? parent.parent
        : null;
  const named = parent.childForFieldName(parent.type === "assignment" ? "left" : "name");
  if (
    statement !== null &&
    named?.startIndex === node.startIndex &&
    statement.parent?.type === "block" &&
    statement.parent.parent?.type === "class_definition"
  ) {
    return { form: "member_declaration" };
  }
  return { form: "free" };
}

/** Options of {@link findNameOccurrences}. */
export interface FindNameOccurrencesOptions extends ParseTextOptions {
  /** The call's signal: aborting it stops the parse at once (and rejects with its reason). */
  signal?: AbortSignal | undefined;
}

/**
 * Finds the identifier occurrences of `name` in a text (see the module comment), on a parse
 * worker (`parse-pool.ts`).
 *
 * @param language - a parsed language
 * @param text - the file's text
 * @param name - an identifier
 * @param options - the parse time limit and the call's signal
 * @returns the occurrences in text order (empty when the name only appears in strings, comments
 *   or longer words)
 * @throws ParseFailure when the parse times out or fails or the grammar cannot be loaded
 */
export async function findNameOccurrences(
  language: ParsedLanguage,
  text: string,
  name: string,
  options: FindNameOccurrencesOptions = {},
): Promise<NameOccurrence[]> {
  if (textualHits(text, name, 1).length === 0) return [];
  return runInPool<NameOccurrence[]>(
    { kind: "occurrences", language, text, name },
    { signal: options.signal, timeoutMs: options.timeoutMs },
  );
}

/** How many hits are confirmed between two looks at the clock. */
const CLOCK_EVERY = 256;

/**
 * {@link findNameOccurrences} on this thread (what a parse worker runs); stops with a `timeout`
 * failure once the time limit has passed, parse and lookups together.
 *
 * @param language - a parsed language
 * @param text - the file's text
 * @param name - an identifier
 * @param options - the parse limits
 * @returns the occurrences in text order
 * @throws ParseFailure when a limit passed or the grammar cannot be loaded
 */
export async function findNameOccurrencesInThread(
  language: ParsedLanguage,
  text: string,
  name: string,
  options: ParseTextOptions = {},
): Promise<NameOccurrence[]> {
  const hits = textualHits(text, name);
  if (hits.length === 0) return [];
  const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  return withTree(
    language,
    text,
    (tree) => {
      const symbols = walkSymbols(tree.rootNode, text, LANGUAGE_RULES[language]);
      const declared = new Set(symbols.map((symbol) => symbol.nameIndex));
      const enclosingOf = enclosingFinder(symbols);
      const found: NameOccurrence[] = [];
      for (const [position, index] of hits.entries()) {
        if (
          position % CLOCK_EVERY === CLOCK_EVERY - 1 &&
          timeoutMs > 0 &&
          performance.now() > deadline
        )
          throw new ParseFailure("timeout", `reading the tree took longer than ${timeoutMs} ms.`);
        const node = tree.rootNode.descendantForIndex(index, index + name.length);
        if (node === null || node.startIndex !== index || node.endIndex !== index + name.length)
          continue;
        if (!IDENTIFIER_NODE_TYPES.has(node.type)) continue;
        const role = roleOf(node, index, declared);
        const enclosing = enclosingOf(index);
        found.push({
          index,
          line: node.startPosition.row + 1,
          column: node.startPosition.column + 1,
          role,
          enclosing: enclosing?.qualified_name ?? null,
          enclosingKind: enclosing?.kind ?? null,
          ...formOf(node, role),
        });
      }
      return found;
    },
    options,
  );
}
