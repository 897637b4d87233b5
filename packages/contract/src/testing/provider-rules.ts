import {
  GEMINI_SCHEMA_KEYWORDS,
  GEMINI_STRING_FORMATS,
  GEMINI_TYPES,
  type JsonSchema,
  OPENAI_STRICT_FORMATS,
  OPENAI_STRICT_KEYWORDS,
} from "../json-schema.js";

/** A provider whose function-calling rules the kit checks. */
export type Provider = "openai" | "anthropic" | "gemini";

const NAME_RULES: Record<Provider, { pattern: RegExp; rule: string }> = {
  openai: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: "1–64 of a-z, A-Z, 0-9, _ and -" },
  anthropic: { pattern: /^[a-zA-Z0-9_-]{1,64}$/, rule: "1–64 of a-z, A-Z, 0-9, _ and -" },
  gemini: {
    pattern: /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/,
    rule: "starts with a letter or _, then a-z, A-Z, 0-9, _, ., : or -, at most 64 characters",
  },
};

const JSON_SCHEMA_TYPES = ["string", "number", "integer", "boolean", "object", "array", "null"];

/** OpenAI strict mode limits (Structured Outputs). */
const OPENAI_MAX_DEPTH = 10;
const OPENAI_MAX_PROPERTIES = 5000;
const OPENAI_MAX_ENUM_VALUES = 1000;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function children(node: JsonSchema): Array<[string, JsonSchema]> {
  const found: Array<[string, JsonSchema]> = [];
  if (isObject(node.properties)) {
    for (const [key, value] of Object.entries(node.properties)) {
      if (isObject(value)) found.push([`.properties.${key}`, value]);
    }
  }
  if (isObject(node.items)) found.push([".items", node.items]);
  if (isObject(node.additionalProperties))
    found.push([".additionalProperties", node.additionalProperties]);
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    const list = node[key];
    if (Array.isArray(list)) {
      list.forEach((item, index) => {
        if (isObject(item)) found.push([`.${key}[${index}]`, item]);
      });
    }
  }
  return found;
}

function walk(
  schema: JsonSchema,
  visit: (node: JsonSchema, path: string, depth: number) => void,
): void {
  const step = (node: JsonSchema, path: string, depth: number) => {
    visit(node, path, depth);
    for (const [suffix, child] of children(node))
      step(child, `${path}${suffix}`, depth + (suffix.startsWith(".properties") ? 1 : 0));
  };
  step(schema, "$", 0);
}

/**
 * Checks a tool name against a provider's function-name rule.
 *
 * @param name - the tool name
 * @param provider - which provider's rule
 * @returns the problems found (empty when valid)
 * @example
 * validateToolName("read_file", "gemini"); // []
 */
export function validateToolName(name: string, provider: Provider): string[] {
  const { pattern, rule } = NAME_RULES[provider];
  return pattern.test(name)
    ? []
    : [`${provider}: the name ${JSON.stringify(name)} breaks the rule "${rule}"`];
}

/**
 * Checks a `parameters` schema against OpenAI strict function calling rules: root `object`,
 * `additionalProperties: false` and every property required at every level, only supported
 * keywords and formats, at most 10 levels of nesting, 5,000 properties and 1,000 enum values.
 *
 * @param schema - the `parameters` object
 * @returns the problems found (empty when valid)
 * @example
 * validateOpenAiStrictSchema(toOpenAiStrictSchema(tool)); // []
 */
export function validateOpenAiStrictSchema(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.type !== "object") problems.push('openai: the root must have type "object"');
  if (schema.anyOf !== undefined) problems.push("openai: the root must not be anyOf");
  let properties = 0;
  let enumValues = 0;
  walk(schema, (node, path, depth) => {
    if (depth > OPENAI_MAX_DEPTH)
      problems.push(`openai: ${path} is nested deeper than ${OPENAI_MAX_DEPTH} levels`);
    for (const key of Object.keys(node)) {
      if (!OPENAI_STRICT_KEYWORDS.includes(key))
        problems.push(`openai: ${path} uses the unsupported keyword "${key}"`);
    }
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const type of types) {
      if (typeof type !== "string" || !JSON_SCHEMA_TYPES.includes(type)) {
        problems.push(`openai: ${path} has the unknown type ${JSON.stringify(type)}`);
      }
    }
    if (
      node.type === undefined &&
      node.anyOf === undefined &&
      node.enum === undefined &&
      node.const === undefined
    ) {
      problems.push(`openai: ${path} has no type, anyOf, enum or const`);
    }
    if (typeof node.format === "string" && !OPENAI_STRICT_FORMATS.includes(node.format)) {
      problems.push(`openai: ${path} uses the unsupported format "${node.format}"`);
    }
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    const isObjectNode = types.includes("object") || isObject(node.properties);
    if (isObjectNode) {
      if (node.additionalProperties !== false)
        problems.push(`openai: ${path} must set additionalProperties: false`);
      const keys = isObject(node.properties) ? Object.keys(node.properties) : [];
      properties += keys.length;
      const required = Array.isArray(node.required) ? node.required : [];
      for (const key of keys) {
        if (!required.includes(key))
          problems.push(
            `openai: ${path}.properties.${key} must be listed in required (make it nullable instead of optional)`,
          );
      }
      for (const key of required) {
        if (typeof key !== "string" || !keys.includes(key))
          problems.push(`openai: ${path} requires ${JSON.stringify(key)}, which is not a property`);
      }
    }
  });
  if (properties > OPENAI_MAX_PROPERTIES)
    problems.push(`openai: ${properties} properties exceed the limit of ${OPENAI_MAX_PROPERTIES}`);
  if (enumValues > OPENAI_MAX_ENUM_VALUES)
    problems.push(
      `openai: ${enumValues} enum values exceed the limit of ${OPENAI_MAX_ENUM_VALUES}`,
    );
  return problems;
}

/**
 * Checks an Anthropic `input_schema`: a JSON Schema object with `type: "object"` at the root,
 * known types, `required` naming only existing properties, no `$ref`.
 *
 * @param schema - the `input_schema` object
 * @returns the problems found (empty when valid)
 * @example
 * validateAnthropicInputSchema(toJsonSchema(tool)); // []
 */
export function validateAnthropicInputSchema(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.type !== "object")
    problems.push('anthropic: input_schema must have type "object" at the root');
  walk(schema, (node, path) => {
    if (node.$ref !== undefined) problems.push(`anthropic: ${path} uses $ref`);
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const type of types) {
      if (typeof type !== "string" || !JSON_SCHEMA_TYPES.includes(type)) {
        problems.push(`anthropic: ${path} has the unknown type ${JSON.stringify(type)}`);
      }
    }
    if (node.required !== undefined) {
      const keys = isObject(node.properties) ? Object.keys(node.properties) : [];
      if (!Array.isArray(node.required))
        problems.push(`anthropic: ${path}.required must be an array`);
      else {
        for (const key of node.required) {
          if (typeof key !== "string" || !keys.includes(key))
            problems.push(
              `anthropic: ${path} requires ${JSON.stringify(key)}, which is not a property`,
            );
        }
      }
    }
  });
  return problems;
}

/**
 * Checks a Gemini function declaration's `parameters` (an OpenAPI 3.0 `Schema` subset): only
 * supported keywords, upper-case single types, string-only enums, allowed formats, `required`
 * naming only existing properties, and a non-empty `properties` on the root object.
 *
 * @param schema - the `parameters` object
 * @returns the problems found (empty when valid)
 * @example
 * validateGeminiSchema(toGeminiSchema(tool)); // []
 */
export function validateGeminiSchema(schema: JsonSchema): string[] {
  const problems: string[] = [];
  if (schema.type !== "OBJECT") problems.push('gemini: the root must have type "OBJECT"');
  if (!isObject(schema.properties) || Object.keys(schema.properties).length === 0) {
    problems.push(
      "gemini: the root OBJECT must have non-empty properties (omit parameters for a tool without input)",
    );
  }
  walk(schema, (node, path) => {
    for (const key of Object.keys(node)) {
      if (!GEMINI_SCHEMA_KEYWORDS.includes(key))
        problems.push(`gemini: ${path} uses the unsupported keyword "${key}"`);
    }
    if (
      node.type !== undefined &&
      (typeof node.type !== "string" || !GEMINI_TYPES.includes(node.type))
    ) {
      problems.push(
        `gemini: ${path} has the type ${JSON.stringify(node.type)}; expected one of ${GEMINI_TYPES.join(", ")}`,
      );
    }
    if (node.type === undefined && node.anyOf === undefined)
      problems.push(`gemini: ${path} has neither type nor anyOf`);
    if (Array.isArray(node.enum)) {
      if (node.type !== "STRING") problems.push(`gemini: ${path} has an enum on a non-STRING type`);
      if (!node.enum.every((item) => typeof item === "string"))
        problems.push(`gemini: ${path} has non-string enum values`);
    }
    if (typeof node.format === "string") {
      const allowed =
        node.type === "STRING"
          ? GEMINI_STRING_FORMATS
          : node.type === "NUMBER"
            ? ["float", "double"]
            : node.type === "INTEGER"
              ? ["int32", "int64"]
              : [];
      if (!allowed.includes(node.format))
        problems.push(`gemini: ${path} uses the unsupported format "${node.format}"`);
    }
    if (node.type === "ARRAY" && !isObject(node.items))
      problems.push(`gemini: ${path} is an ARRAY without items`);
    if (node.required !== undefined) {
      const keys = isObject(node.properties) ? Object.keys(node.properties) : [];
      if (!Array.isArray(node.required)) problems.push(`gemini: ${path}.required must be an array`);
      else {
        for (const key of node.required) {
          if (typeof key !== "string" || !keys.includes(key))
            problems.push(
              `gemini: ${path} requires ${JSON.stringify(key)}, which is not a property`,
            );
        }
      }
    }
  });
  return problems;
}
