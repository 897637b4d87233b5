import type { z } from "zod";

type AnySchema = z.core.$ZodType;

/**
 * The zod definition of a schema, read structurally.
 *
 * @internal
 */
export function definitionOf(schema: AnySchema): { type: string } & Record<string, unknown> {
  return schema._zod.def as unknown as { type: string } & Record<string, unknown>;
}

/**
 * The schema inside optional, nullable, default, readonly, catch and pipe wrappers.
 *
 * @internal
 */
export function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (let depth = 0; depth < 16; depth += 1) {
    const def = definitionOf(current);
    if (
      def.type === "optional" ||
      def.type === "nullable" ||
      def.type === "default" ||
      def.type === "prefault" ||
      def.type === "readonly" ||
      def.type === "catch" ||
      def.type === "nonoptional"
    ) {
      current = def.innerType as AnySchema;
    } else if (def.type === "pipe") {
      current = def.in as AnySchema;
    } else {
      return current;
    }
  }
  return current;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function accepts(schema: AnySchema, value: unknown): boolean {
  return (schema as unknown as z.ZodType).safeParse(value).success;
}

/**
 * Treats `null` as "not given" for optional fields that do not accept `null` themselves.
 * OpenAI strict function calling makes every optional property required-but-nullable, so a
 * model following that schema sends `null` for what it leaves out; this maps it back.
 * Returns the same value when nothing changes (no copy on the hot path).
 *
 * @internal
 */
export function dropNullsForOptionalFields(schema: AnySchema, value: unknown): unknown {
  const inner = unwrap(schema);
  const def = definitionOf(inner);
  if (def.type === "object" && isPlainObject(value)) {
    const shape = (inner as unknown as z.ZodObject).shape as Record<string, AnySchema>;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      // Only the schema's own fields: a model may send keys such as "valueOf" or "constructor".
      if (!Object.hasOwn(shape, key)) continue;
      const field = shape[key];
      if (field === undefined) continue;
      const item = value[key];
      if (item === null) {
        if (!accepts(field, null) && accepts(field, undefined)) {
          copy ??= { ...value };
          delete copy[key];
        }
        continue;
      }
      if (typeof item === "object") {
        const normalized = dropNullsForOptionalFields(field, item);
        if (normalized !== item) {
          copy ??= { ...value };
          copy[key] = normalized;
        }
      }
    }
    return copy ?? value;
  }
  if (def.type === "array" && Array.isArray(value)) {
    const element = def.element as AnySchema;
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      if (typeof item !== "object" || item === null) return;
      const normalized = dropNullsForOptionalFields(element, item);
      if (normalized !== item) {
        copy ??= [...value];
        copy[index] = normalized;
      }
    });
    return copy ?? value;
  }
  return value;
}
