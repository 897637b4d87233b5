import type { AnyTool } from "../define-tool.js";
import { WELL_KNOWN_FIELD_ALIASES } from "../internal/field-suggestions.js";
import type { JsonSchema } from "../json-schema.js";
import { isToolResult } from "../result.js";
import { sampleFromSchema } from "./sample-input.js";

/** A field no tool has: it keeps every probe below invalid, so no probe ever executes a tool. */
const NEVER_A_FIELD = "conformance_extra_field";

function isObject(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The field names models bring from other toolsets that a tool does not have but has a field
 * for (`file_path` where the tool has `path`, `max_length` where it has `limit`…): each with the
 * field it should lead to — the first of its table's targets the tool really has.
 *
 * @param properties - the tool's top-level input properties
 * @returns `[sent, expected]` pairs
 */
export function wellKnownNamesFor(properties: readonly string[]): Array<[string, string]> {
  const has = new Set(properties);
  const pairs: Array<[string, string]> = [];
  for (const [sent, targets] of Object.entries(WELL_KNOWN_FIELD_ALIASES)) {
    if (has.has(sent)) continue;
    const expected = targets.find((target) => has.has(target));
    if (expected !== undefined) pairs.push([sent, expected]);
  }
  return pairs;
}

/**
 * Sends each well-known foreign field name the tool has a field for (with a value of that
 * field's type, beside a field no tool has so the call is never valid and never executes) and
 * checks the answer leads the model on: the tool either takes the name as an alias (the answer
 * does not call it unknown) or its `INVALID_INPUT` says `did you mean "<field>"`.
 *
 * @param tool - the tool
 * @param schema - its input JSON Schema
 * @param report - records a violation (`did-you-mean`)
 */
export async function checkWellKnownFieldNames(
  tool: AnyTool,
  schema: JsonSchema,
  report: (rule: string, message: string) => void,
): Promise<void> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [sent, expected] of wellKnownNamesFor(Object.keys(properties))) {
    const property = properties[expected];
    const value = isObject(property) ? sampleFromSchema(property) : "x";
    const result = await tool.run({ [sent]: value, [NEVER_A_FIELD]: 1 }).catch(() => undefined);
    if (!isToolResult(result) || result.success || result.error.code !== "INVALID_INPUT") {
      report("did-you-mean", `a probe sending ${sent} must answer INVALID_INPUT`);
      continue;
    }
    const message = result.error.message;
    const calledUnknown = message.includes(`unknown field ${JSON.stringify(sent)}`);
    if (calledUnknown && !message.includes(`did you mean ${JSON.stringify(expected)}`)) {
      report(
        "did-you-mean",
        `sending ${sent} (what other toolsets call ${expected}) must suggest "${expected}" or be accepted as an alias; got: ${message.slice(0, 300)}`,
      );
    }
  }
}
