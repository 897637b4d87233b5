import type { JsonSchema, JsonValue } from "../json-schema.js";

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Builds the smallest input a JSON Schema accepts (required fields only), for checks that need
 * an otherwise-valid call. Refinements the schema cannot show may still reject it.
 *
 * @param schema - a JSON Schema from `toJsonSchema`
 * @returns a JSON value the schema's structure accepts
 * @example
 * sampleFromSchema(toJsonSchema(tool)); // { path: "sample" }
 */
export function sampleFromSchema(schema: JsonSchema): JsonValue {
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as JsonValue;
  if (Array.isArray(schema.anyOf) && isObject(schema.anyOf[0]))
    return sampleFromSchema(schema.anyOf[0]);
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type)
    ? schema.type.find((item) => item !== "null")
    : schema.type;
  switch (type) {
    case "string": {
      const minimum = typeof schema.minLength === "number" ? schema.minLength : 1;
      const text = "sample".repeat(Math.ceil(Math.max(minimum, 1) / 6));
      return text.slice(
        0,
        Math.max(
          minimum,
          Math.min(text.length, typeof schema.maxLength === "number" ? schema.maxLength : 6),
        ),
      );
    }
    case "integer":
    case "number": {
      if (typeof schema.minimum === "number") return schema.minimum;
      if (typeof schema.exclusiveMinimum === "number") return schema.exclusiveMinimum + 1;
      if (typeof schema.maximum === "number") return Math.min(1, schema.maximum);
      return 1;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      const count = typeof schema.minItems === "number" ? schema.minItems : 0;
      const item = isObject(schema.items) ? schema.items : {};
      return Array.from({ length: count }, () => sampleFromSchema(item));
    }
    case "object": {
      const result: { [key: string]: JsonValue } = {};
      const properties = isObject(schema.properties) ? schema.properties : {};
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const key of required) {
        const property = properties[String(key)];
        if (isObject(property)) result[String(key)] = sampleFromSchema(property);
      }
      return result;
    }
    default:
      return "sample";
  }
}

/**
 * A JSON value of a different type than the schema wants, for wrong-type checks.
 *
 * @internal
 */
export function wrongTypeFor(schema: JsonSchema): JsonValue {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("string") || Array.isArray(schema.enum)) return { not: "a string" };
  if (types.includes("number") || types.includes("integer")) return "not a number";
  if (types.includes("boolean")) return "not a boolean";
  // Not a string: a tool may accept a lone string for a list silently (advertising the array
  // only, so clients that rebuild zod from the JSON Schema see no union), e.g. run_command.
  if (types.includes("array")) return { not: "an array" };
  if (types.includes("object")) return "not an object";
  return { unexpected: ["value"] };
}
