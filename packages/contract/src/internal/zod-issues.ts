import type { z } from "zod";

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text.length === 0 ? String(segment) : `.${String(segment)}`;
  }
  return text.length === 0 ? "(input)" : text;
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path);
  switch (issue.code) {
    case "unrecognized_keys":
      return `${where}: unknown field${issue.keys.length > 1 ? "s" : ""} ${issue.keys
        .map((key) => JSON.stringify(key))
        .join(", ")} — remove ${issue.keys.length > 1 ? "them" : "it"}`;
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
 *
 * @internal
 */
export function formatZodIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const nested = issue.errors.flat();
      lines.push(`${formatPath(issue.path)}: ${issue.message}`);
      for (const inner of nested.slice(0, 3)) {
        lines.push(`  or ${describeIssue({ ...inner, path: [...issue.path, ...inner.path] })}`);
      }
      continue;
    }
    lines.push(describeIssue(issue));
  }
  return lines;
}
