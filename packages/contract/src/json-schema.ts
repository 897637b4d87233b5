import { z } from "zod";
import { AgentoolError } from "./agentool-error.js";
import type { AnyTool } from "./define-tool.js";

/** A JSON Schema object (a plain JSON value). */
export type JsonSchema = { [key: string]: JsonValue };

/** Any JSON value. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Applies `visit` to every sub-schema, children first, and returns the new tree. */
function mapSchemas(
  schema: JsonSchema,
  visit: (node: JsonSchema, isRoot: boolean) => JsonSchema,
): JsonSchema {
  const walk = (node: JsonSchema, isRoot: boolean): JsonSchema => {
    const next: JsonSchema = { ...node };
    if (isObject(next.properties)) {
      const properties: JsonSchema = {};
      for (const [key, value] of Object.entries(next.properties)) {
        properties[key] = isObject(value) ? walk(value, false) : value;
      }
      next.properties = properties;
    }
    if (isObject(next.items)) next.items = walk(next.items, false);
    if (isObject(next.additionalProperties))
      next.additionalProperties = walk(next.additionalProperties, false);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const list = next[key];
      if (Array.isArray(list))
        next[key] = list.map((item) => (isObject(item) ? walk(item, false) : item));
    }
    return visit(next, isRoot);
  };
  return walk(schema, true);
}

/**
 * The provider-neutral JSON Schema of a tool's input: draft-07 compatible, no `$schema`, no
 * `$ref`/`$defs`, no ±2^53 integer bounds, `additionalProperties: false` on every object with
 * properties. This is also what Anthropic's `input_schema` and MCP's `inputSchema` take.
 *
 * @param tool - a tool made by `defineTool`
 * @returns a plain JSON Schema object with `type: "object"` at the root
 * @example
 * const schema = toJsonSchema(readFile); // { type: "object", properties: { path: {...} }, required: ["path"], additionalProperties: false }
 */
export function toJsonSchema(tool: Pick<AnyTool, "name" | "input">): JsonSchema {
  return convertSchema(tool.name, "input", tool.input);
}

/**
 * The JSON Schema of a tool's successful data (MCP's `outputSchema`), when the tool declares an
 * `output` schema: draft-07 compatible, no `$schema`, no `$ref`/`$defs`, no ±2^53 integer bounds.
 *
 * @param tool - a tool made by `defineTool`
 * @returns a plain JSON Schema object with `type: "object"` at the root, or `undefined` when the
 * tool declares no output schema
 * @example
 * toOutputJsonSchema(gitStatus); // { type: "object", properties: { branch: {...}, ... }, required: [...] }
 */
export function toOutputJsonSchema(tool: Pick<AnyTool, "name" | "output">): JsonSchema | undefined {
  if (tool.output === undefined) return undefined;
  return convertSchema(tool.name, "output", tool.output);
}

function convertSchema(name: string, io: "input" | "output", source: z.ZodType): JsonSchema {
  const where = io === "input" ? `toJsonSchema(${name})` : `toOutputJsonSchema(${name})`;
  let raw: unknown;
  try {
    raw = z.toJSONSchema(source, {
      target: "draft-7",
      io,
      unrepresentable: "any",
      cycles: "throw",
      reused: "inline",
    });
  } catch (error) {
    throw new AgentoolError(
      `${where}: the ${io} schema cannot be expressed as JSON Schema (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
  const schema = clone(raw) as JsonSchema;
  delete schema.$schema;
  if ("$defs" in schema || "definitions" in schema || JSON.stringify(schema).includes('"$ref"')) {
    throw new AgentoolError(
      `${where}: recursive or referenced schemas are not supported; inline them.`,
    );
  }
  return mapSchemas(schema, (node) => {
    const next = { ...node };
    for (const key of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const) {
      const value = next[key];
      if (typeof value === "number" && Math.abs(value) >= SAFE_INTEGER_BOUND) delete next[key];
    }
    delete next.propertyNames;
    if (io === "output") return next;
    if (isObject(next.properties) && next.additionalProperties === undefined)
      next.additionalProperties = false;
    if (
      next.type === "object" &&
      next.properties === undefined &&
      next.additionalProperties === undefined
    ) {
      next.properties = {};
      next.additionalProperties = false;
    }
    return next;
  });
}

/**
 * String length caps from this many characters up are not written into descriptions (where a
 * provider's schema cannot carry them): only caps a model could plausibly meet are worth tokens.
 */
const LENGTH_NOTE_LIMIT = 500;

function describeConstraints(node: JsonSchema, keys: readonly string[]): string[] {
  const notes: string[] = [];
  const has = (key: string) => node[key] !== undefined;
  if (keys.includes("minLength") || keys.includes("maxLength")) {
    // A cap of LENGTH_NOTE_LIMIT characters or more is left out: a model meets it only by
    // mistake, the refusal names it, and its note would cost tokens on every call.
    const max =
      typeof node.maxLength === "number" && node.maxLength < LENGTH_NOTE_LIMIT
        ? node.maxLength
        : undefined;
    if (has("minLength") && max !== undefined) notes.push(`${node.minLength}–${max} characters`);
    else if (node.minLength === 1) {
      if (!has("maxLength")) notes.push("not empty");
    } else if (has("minLength")) notes.push(`at least ${node.minLength} characters`);
    else if (max !== undefined) notes.push(`at most ${max} characters`);
  }
  for (const key of keys) {
    if (key === "minLength" || key === "maxLength" || !has(key)) continue;
    const value = node[key];
    switch (key) {
      case "default":
        notes.push(`default ${JSON.stringify(value)}`);
        break;
      case "minimum":
        notes.push(`minimum ${value}`);
        break;
      case "maximum":
        notes.push(`maximum ${value}`);
        break;
      case "exclusiveMinimum":
        notes.push(`greater than ${value}`);
        break;
      case "exclusiveMaximum":
        notes.push(`less than ${value}`);
        break;
      case "minItems":
        notes.push(`at least ${value} items`);
        break;
      case "maxItems":
        notes.push(`at most ${value} items`);
        break;
      case "pattern":
        notes.push(`matching /${value}/`);
        break;
      case "format":
        notes.push(`format ${value}`);
        break;
      case "uniqueItems":
        if (value === true) notes.push("no duplicates");
        break;
      case "multipleOf":
        notes.push(`a multiple of ${value}`);
        break;
      case "enum":
        notes.push(
          `one of ${(value as JsonValue[]).map((item) => JSON.stringify(item)).join(", ")}`,
        );
        break;
      default:
        break;
    }
  }
  return notes;
}

function withNotes(node: JsonSchema, notes: string[]): JsonSchema {
  if (notes.length === 0) return node;
  const base = typeof node.description === "string" ? node.description.trimEnd() : "";
  const suffix = `(${notes.join("; ")})`;
  return { ...node, description: base.length > 0 ? `${base} ${suffix}` : suffix };
}

/** The keywords OpenAI strict function calling (Structured Outputs) accepts. */
export const OPENAI_STRICT_KEYWORDS: readonly string[] = [
  "type",
  "description",
  "title",
  "enum",
  "const",
  "anyOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "pattern",
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minItems",
  "maxItems",
];

/** The string formats OpenAI strict mode accepts. */
export const OPENAI_STRICT_FORMATS: readonly string[] = [
  "date-time",
  "time",
  "date",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uuid",
];

function makeNullable(node: JsonSchema): JsonSchema {
  const type = node.type;
  if (typeof type === "string") {
    const next: JsonSchema = { ...node, type: type === "null" ? "null" : [type, "null"] };
    if (Array.isArray(node.enum) && !node.enum.includes(null)) next.enum = [...node.enum, null];
    return next;
  }
  if (Array.isArray(type)) {
    return type.includes("null") ? node : { ...node, type: [...type, "null"] };
  }
  if (Array.isArray(node.anyOf)) {
    const hasNull = node.anyOf.some((item) => isObject(item) && item.type === "null");
    return hasNull ? node : { ...node, anyOf: [...node.anyOf, { type: "null" }] };
  }
  const { description, ...rest } = node;
  const wrapped: JsonSchema = { anyOf: [rest, { type: "null" }] };
  if (description !== undefined) wrapped.description = description;
  return wrapped;
}

/**
 * The `parameters` schema for OpenAI strict function calling: every property required,
 * optional ones nullable (a `null` argument means "not given" — `run` maps it back),
 * `additionalProperties: false` at every level, and only the keywords strict mode accepts.
 * Constraints it cannot express (lengths, defaults) are moved into the description, so the
 * model still learns them.
 *
 * Throws {@link AgentoolError} when the schema cannot be strict (a free-form record).
 *
 * @param tool - a tool made by `defineTool`
 * @returns the `parameters` object
 * @example
 * ({ type: "function", function: { name: tool.name, description: tool.description, parameters: toOpenAiStrictSchema(tool), strict: true } });
 */
export function toOpenAiStrictSchema(tool: Pick<AnyTool, "name" | "input">): JsonSchema {
  const generic = toJsonSchema(tool);
  return mapSchemas(generic, (node) => {
    let next: JsonSchema = { ...node };
    if (isObject(next.additionalProperties)) {
      throw new AgentoolError(
        `toOpenAiStrictSchema(${tool.name}): a free-form record (additionalProperties schema) cannot be used in OpenAI strict mode; use an array of { key, value } objects.`,
      );
    }
    if (next.const !== undefined) {
      next.enum = [next.const];
      delete next.const;
    }
    if (typeof next.format === "string" && !OPENAI_STRICT_FORMATS.includes(next.format)) {
      next = withNotes(next, describeConstraints(next, ["format"]));
      delete next.format;
    }
    const dropped = Object.keys(next).filter((key) => !OPENAI_STRICT_KEYWORDS.includes(key));
    next = withNotes(next, describeConstraints(next, dropped));
    for (const key of dropped) if (key !== "description") delete next[key];
    if (next.type === "object" || isObject(next.properties)) {
      const properties = isObject(next.properties) ? next.properties : {};
      const required = new Set(Array.isArray(next.required) ? next.required : []);
      const strictProperties: JsonSchema = {};
      for (const [key, value] of Object.entries(properties)) {
        strictProperties[key] = required.has(key) || !isObject(value) ? value : makeNullable(value);
      }
      next.properties = strictProperties;
      next.required = Object.keys(strictProperties);
      next.additionalProperties = false;
    }
    return next;
  });
}

/** The keywords Gemini function declarations accept in a `Schema` (an OpenAPI 3.0 subset). */
export const GEMINI_SCHEMA_KEYWORDS: readonly string[] = [
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
];

/** The `type` values of a Gemini `Schema`. */
export const GEMINI_TYPES: readonly string[] = [
  "STRING",
  "NUMBER",
  "INTEGER",
  "BOOLEAN",
  "ARRAY",
  "OBJECT",
  "NULL",
];

/** The string formats a Gemini `Schema` accepts. */
export const GEMINI_STRING_FORMATS: readonly string[] = ["enum", "date-time"];

function geminiType(type: string): string {
  return type.toUpperCase();
}

/**
 * The `parameters` schema for a Gemini function declaration: upper-case types, `nullable`
 * instead of `null` in a type list, string enums only, no `additionalProperties`, `const` or
 * exclusive bounds; constraints Gemini cannot express are moved into the description.
 *
 * @param tool - a tool made by `defineTool`
 * @returns the `parameters` object (a Gemini `Schema` of type `OBJECT`)
 * @example
 * ({ functionDeclarations: [{ name: tool.name, description: tool.description, parameters: toGeminiSchema(tool) }] });
 */
export function toGeminiSchema(tool: Pick<AnyTool, "name" | "input">): JsonSchema {
  const generic = toJsonSchema(tool);
  return mapSchemas(generic, (node) => {
    let next: JsonSchema = { ...node };
    const notes: string[] = [];
    if (isObject(next.additionalProperties)) notes.push("an object with any keys");
    delete next.additionalProperties;
    if (next.const !== undefined) {
      next.enum = [next.const];
      delete next.const;
    }
    const type = next.type;
    if (Array.isArray(type)) {
      const nonNull = type.filter((item) => item !== "null");
      if (type.includes("null")) next.nullable = true;
      if (nonNull.length === 1) next.type = geminiType(String(nonNull[0]));
      else {
        delete next.type;
        next.anyOf = nonNull.map((item) => ({ type: geminiType(String(item)) }));
      }
    } else if (typeof type === "string") {
      next.type = geminiType(type);
    }
    if (Array.isArray(next.anyOf)) {
      const options = next.anyOf.filter((item) => !(isObject(item) && item.type === "NULL"));
      if (options.length < next.anyOf.length) next.nullable = true;
      if (options.length === 1 && isObject(options[0])) {
        const { description: _ignored, ...only } = options[0];
        delete next.anyOf;
        next = { ...only, ...next };
      } else next.anyOf = options;
    }
    if (Array.isArray(next.enum)) {
      if (next.enum.every((item) => typeof item === "string")) {
        next.type = "STRING";
        next.format = "enum";
      } else {
        notes.push(...describeConstraints(next, ["enum"]));
        delete next.enum;
      }
    }
    if (
      typeof next.format === "string" &&
      !(next.type === "STRING" && GEMINI_STRING_FORMATS.includes(next.format))
    ) {
      notes.push(...describeConstraints(next, ["format"]));
      delete next.format;
    }
    const dropped = Object.keys(next).filter((key) => !GEMINI_SCHEMA_KEYWORDS.includes(key));
    notes.push(...describeConstraints(next, dropped));
    for (const key of dropped) delete next[key];
    return withNotes(next, notes);
  });
}
