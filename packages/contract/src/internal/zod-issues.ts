import type { z } from "zod";
import { knownFieldsAt, suggestField } from "./field-suggestions.js";

type AnySchema = z.core.$ZodType;

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text.length === 0 ? String(segment) : `.${String(segment)}`;
  }
  return text.length === 0 ? "(input)" : text;
}

function describeUnknownKeys(
  where: string,
  keys: readonly string[],
  known: readonly string[],
): string {
  if (known.length === 0) {
    return `${where}: unknown field${keys.length > 1 ? "s" : ""} ${keys
      .map((key) => JSON.stringify(key))
      .join(", ")} — remove ${keys.length > 1 ? "them" : "it"}`;
  }
  const parts = keys.map((key) => {
    const suggestion = suggestField(key, known);
    return suggestion === undefined
      ? `unknown field ${JSON.stringify(key)}`
      : `unknown field ${JSON.stringify(key)} — did you mean ${JSON.stringify(suggestion)}?`;
  });
  return `${where}: ${parts.join("; ")} (known fields: ${known.join(", ")})`;
}

function describeIssue(issue: z.core.$ZodIssue, schema?: AnySchema): string {
  const where = formatPath(issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return describeUnknownKeys(
        where,
        issue.keys,
        schema === undefined ? [] : knownFieldsAt(schema, issue.path),
      );
    case "invalid_type": {
      const received = issue.input === undefined ? "nothing" : receivedType(issue.input);
      if (issue.input === undefined) {
        return `${where}: required field is missing (expected ${issue.expected})`;
      }
      return `${where}: expected ${issue.expected}, received ${received}`;
    }
    default:
      return `${where}: ${issue.message}`;
  }
}

function receivedType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * Formats zod issues as one line per bad field, each naming the field and what was expected.
 * With the schema, an unknown field also gets a "did you mean" and the list of known fields.
 *
 * @internal
 */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[], schema?: AnySchema): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const nested = issue.errors.flat();
      lines.push(`${formatPath(issue.path)}: ${issue.message}`);
      for (const inner of nested.slice(0, 3)) {
        lines.push(
          `  or ${describeIssue({ ...inner, path: [...issue.path, ...inner.path] }, schema)}`,
        );
      }
      continue;
    }
    lines.push(describeIssue(issue, schema));
  }
  return lines;
}
