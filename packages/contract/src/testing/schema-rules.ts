import type { JsonSchema } from "../json-schema.js";

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every sub-schema of a node, with the path suffix that reaches it. */
function subSchemas(node: JsonSchema): Array<[string, JsonSchema]> {
  const found: Array<[string, JsonSchema]> = [];
  const add = (suffix: string, value: unknown) => {
    if (isObject(value)) found.push([suffix, value]);
  };
  if (isObject(node.properties)) {
    for (const [key, value] of Object.entries(node.properties)) add(`.${key}`, value);
  }
  if (Array.isArray(node.items)) {
    node.items.forEach((item, index) => {
      add(`[${index}]`, item);
    });
  } else add("[]", node.items);
  add(".additionalItems", node.additionalItems);
  add("{}", node.additionalProperties);
  if (isObject(node.patternProperties)) {
    for (const [pattern, value] of Object.entries(node.patternProperties))
      add(`{${pattern}}`, value);
  }
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const list = node[keyword];
    if (!Array.isArray(list)) continue;
    list.forEach((item, index) => {
      add(`.${keyword}[${index}]`, item);
    });
  }
  add(".not", node.not);
  return found;
}

/**
 * Finds the unions in a tool's input JSON Schema: `anyOf`, `oneOf` or a `type` array, at any
 * depth. Clients that turn an MCP tool's JSON Schema back into zod and validate the model's
 * arguments on their side (`@langchain/mcp-adapters`, Mastra) flatten unions — a field loses its
 * type, or only one branch survives — so the model is refused input the tool accepts. A tool
 * advertises one shape per field and accepts the others silently (e.g. with `z.preprocess`,
 * whose input JSON Schema is the shape after it).
 *
 * @param schema - a tool's input JSON Schema (from `toJsonSchema`)
 * @returns one problem per union, naming its path (`$.command`, `$.options[]`); empty when none
 * @example
 * findSchemaUnions(toJsonSchema(runCommand)); // []
 * findSchemaUnions({ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "number" }] } } });
 * // ["$.a is a union (anyOf)…"]
 */
export function findSchemaUnions(schema: JsonSchema): string[] {
  const problems: string[] = [];
  const visit = (node: JsonSchema, path: string) => {
    const kinds: string[] = [];
    if (Array.isArray(node.anyOf)) kinds.push("anyOf");
    if (Array.isArray(node.oneOf)) kinds.push("oneOf");
    if (Array.isArray(node.type)) kinds.push(`type ${JSON.stringify(node.type)}`);
    if (kinds.length > 0) {
      problems.push(
        `${path} is a union (${kinds.join(", ")}); clients that convert JSON Schema back to zod (@langchain/mcp-adapters, Mastra) flatten it and refuse valid input. Advertise one shape and accept the others silently with z.preprocess.`,
      );
    }
    for (const [suffix, child] of subSchemas(node)) visit(child, `${path}${suffix}`);
  };
  visit(schema, "$");
  return problems;
}

/**
 * The keys of `PageInfo` that live only in `data`: the model reads the rendered page and its
 * marker, never these, so a description that names them points at nothing it can see.
 */
export const PAGE_INFO_DATA_KEYS: readonly string[] = Object.freeze([
  "next_offset",
  "total_at_least",
]);

/**
 * The `PageInfo` data keys a description names (`next_offset`, `total_at_least`).
 *
 * @param text - a tool's or a field's description
 * @returns the keys named, in the order of {@link PAGE_INFO_DATA_KEYS}; empty when none
 * @example
 * findPageDataKeys("Use the next_offset a cut result gives."); // ["next_offset"]
 */
export function findPageDataKeys(text: string): string[] {
  return PAGE_INFO_DATA_KEYS.filter((key) => new RegExp(`\\b${key}\\b`).test(text));
}
