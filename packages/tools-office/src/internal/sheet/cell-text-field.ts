import { z } from "zod";

/**
 * The one shape a cell value is advertised in: a string. Clients that turn JSON Schema back into
 * zod (@langchain/mcp-adapters, Mastra) flatten a union and refuse valid input, so numbers,
 * booleans and null — which models send anyway — are accepted silently as their text: `42`,
 * `TRUE` / `FALSE`, and `""` (empty: clear).
 *
 * @internal
 */

/**
 * A JSON value sent for a cell, as the text the cell field takes.
 *
 * @param value - what the model sent
 * @returns its text (other values unchanged, for the string check to refuse)
 */
export function toCellText(value: unknown): unknown {
  if (value === null) return "";
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return value;
}

/**
 * A cell value field.
 *
 * @param description - its description
 * @returns the zod schema
 */
export function cellTextField(description: string) {
  return z.preprocess(toCellText, z.string().max(32_767)).describe(description);
}
