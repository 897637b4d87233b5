import type { z } from "zod";
import type { ToolInputSchema } from "../define-tool.js";
import { findUnknownNestedFields } from "../internal/field-suggestions.js";
import { dropNullsForOptionalFields } from "../internal/normalize-input.js";
import { formatZodIssues } from "../internal/zod-issues.js";
import { fail, ok, type ToolFailure, type ToolResult } from "../result.js";
import { applyAliases } from "./field-aliases.js";
import type { ToolCore } from "./tool-core.js";

const textEncoder = new TextEncoder();

/**
 * Validates raw input the way `run` does: a JSON string is parsed, the size is capped, aliases
 * are renamed, `null` is dropped for optional fields, then the strict schema (and unknown nested
 * keys) decide.
 *
 * @param core - the tool
 * @param rawInput - what the caller sent
 * @returns `ok(validated input)` or an `INVALID_INPUT` failure naming every bad field
 * @internal
 */
export function validateInput<Input extends ToolInputSchema, Output>(
  core: ToolCore<Input, Output>,
  rawInput: unknown,
): ToolResult<z.output<Input>> {
  let candidate = rawInput ?? {};
  if (typeof candidate === "string") {
    try {
      candidate = JSON.parse(candidate);
    } catch {
      return invalidInput(core.name, [
        "(input): expected a JSON object, received a string that is not JSON",
      ]);
    }
  }
  if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) {
    return invalidInput(core.name, [
      `(input): expected an object of named arguments, received ${Array.isArray(candidate) ? "array" : candidate === null ? "null" : typeof candidate}`,
    ]);
  }
  const maxInputBytes = core.maxInputBytes;
  const size = inputSizeBytes(candidate, maxInputBytes);
  if (size > maxInputBytes) {
    return fail(
      "INVALID_INPUT",
      `Input for ${core.name} is too large: ${size === Number.POSITIVE_INFINITY ? "not serialisable" : `${size} bytes`} (limit ${maxInputBytes} bytes).`,
      { hint: "Send less at once: split the work into several smaller calls." },
    );
  }
  const input = core.input;
  const renamed =
    core.aliasEntries.length === 0 ? candidate : applyAliases(core.aliasEntries, candidate);
  const normalized = dropNullsForOptionalFields(input, renamed);
  const parsed = input.safeParse(normalized);
  if (!parsed.success) {
    // Parse again with the offending values attached, only on the slow path, to say what was received.
    const detailed = input.safeParse(normalized, { reportInput: true });
    const zodIssues = (detailed.error ?? parsed.error).issues;
    const issues = [
      ...zodIssues,
      ...notYetReported(nestedUnknownIssues(input, normalized), zodIssues),
    ];
    return invalidInput(core.name, formatZodIssues(issues, input));
  }
  const nested = nestedUnknownIssues(input, normalized);
  if (nested.length > 0) return invalidInput(core.name, formatZodIssues(nested, input));
  return ok(parsed.data);
}

function invalidInput(name: string, lines: string[]): ToolFailure {
  // A field's own message may end with a period (a refine's sentence); the joints and the end add theirs.
  const clauses = lines.map((line) =>
    line.endsWith(".") && !line.endsWith("..") ? line.slice(0, -1) : line,
  );
  return fail("INVALID_INPUT", `Invalid input for ${name}: ${clauses.join("; ")}.`, {
    hint: `Fix the field${lines.length > 1 ? "s" : ""} named above and call ${name} again with arguments that match its schema.`,
  });
}

function inputSizeBytes(input: unknown, maxBytes: number): number {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  if (json === undefined) return 0;
  return json.length * 3 <= maxBytes ? json.length : textEncoder.encode(json).length;
}

function hasNestedObjects(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null) return true;
  }
  return false;
}

/** Unknown keys of nested objects, as zod issues (zod itself strips them silently). */
function nestedUnknownIssues(input: ToolInputSchema, value: unknown): z.core.$ZodIssue[] {
  if (!hasNestedObjects(value)) return [];
  return findUnknownNestedFields(input, value).map(
    (entry) =>
      ({
        code: "unrecognized_keys",
        keys: entry.keys,
        path: entry.path,
        message: "Unrecognized keys",
      }) as z.core.$ZodIssue,
  );
}

/**
 * The unknown nested keys zod has not reported itself: a strict nested object (multi_edit's
 * edits) makes zod report its unknown keys, and the walk finds them again.
 */
function notYetReported(
  nested: z.core.$ZodIssue[],
  reported: readonly z.core.$ZodIssue[],
): z.core.$ZodIssue[] {
  const seen = new Set<string>();
  for (const issue of reported) {
    if (issue.code !== "unrecognized_keys") continue;
    for (const key of issue.keys) seen.add(JSON.stringify([issue.path, key]));
  }
  if (seen.size === 0) return nested;
  return nested.flatMap((issue): z.core.$ZodIssue[] => {
    if (issue.code !== "unrecognized_keys") return [issue];
    const keys = issue.keys.filter((key) => !seen.has(JSON.stringify([issue.path, key])));
    return keys.length === 0 ? [] : [{ ...issue, keys }];
  });
}
