import type { GetLocalVariablesResponse, LocalVariable, RGBA } from "@figma/rest-api-spec";
import { hexColor } from "../color.js";
import { roundMeasure } from "../layer-spec.js";

/**
 * Figma local variables sorted into token groups: colours, spacing, radii, other numbers and
 * the rest; values of the default mode, aliases written `{name}`, other modes kept apart.
 *
 * @internal
 */

/** A token value: a CSS colour or length, a number, a string, a boolean, or an alias `{name}`. */
export type TokenValue = string | number | boolean;

/** Token groups filled from variables. */
export interface VariableTokens {
  colors: Record<string, TokenValue>;
  spacing: Record<string, TokenValue>;
  radii: Record<string, TokenValue>;
  numbers: Record<string, TokenValue>;
  other: Record<string, TokenValue>;
  /** Values in modes other than each collection's default: `"Theme/Dark"` → name → value. */
  modes: Record<string, Record<string, TokenValue>>;
}

function groupOf(variable: LocalVariable): keyof Omit<VariableTokens, "modes"> {
  if (variable.resolvedType === "COLOR") return "colors";
  if (variable.resolvedType !== "FLOAT") return "other";
  const scopes = variable.scopes as readonly string[];
  if (scopes.includes("CORNER_RADIUS")) return "radii";
  if (scopes.includes("GAP") || scopes.includes("WIDTH_HEIGHT")) return "spacing";
  return "numbers";
}

/**
 * Sorts the variables of GET /v1/files/:key/variables/local into token groups.
 *
 * @param answer - Figma's answer
 * @returns the groups
 */
export function variableTokens(answer: GetLocalVariablesResponse): VariableTokens {
  const tokens: VariableTokens = {
    colors: {},
    spacing: {},
    radii: {},
    numbers: {},
    other: {},
    modes: {},
  };
  const variables = answer.meta.variables;
  const collections = answer.meta.variableCollections;
  const names = new Map<string, string>();
  const seen = new Set<string>();
  for (const variable of Object.values(variables)) {
    if (variable.deletedButReferenced === true) continue;
    const collection = collections[variable.variableCollectionId];
    const name = seen.has(variable.name)
      ? `${collection?.name ?? "variables"}/${variable.name}`
      : variable.name;
    seen.add(variable.name);
    names.set(variable.id, name);
  }
  const tokenValue = (raw: LocalVariable["valuesByMode"][string], type: string): TokenValue => {
    if (typeof raw === "object" && raw !== null && "type" in raw && raw.type === "VARIABLE_ALIAS") {
      return `{${names.get(raw.id) ?? raw.id}}`;
    }
    if (typeof raw === "object" && raw !== null && "r" in raw) {
      const color = raw as RGBA;
      return hexColor(color.r, color.g, color.b, color.a);
    }
    if (typeof raw === "number") return type === "FLOAT" ? roundMeasure(raw) : raw;
    return raw as TokenValue;
  };
  for (const variable of Object.values(variables)) {
    const name = names.get(variable.id);
    const collection = collections[variable.variableCollectionId];
    if (name === undefined || collection === undefined) continue;
    const group = groupOf(variable);
    for (const mode of collection.modes) {
      const raw = variable.valuesByMode[mode.modeId];
      if (raw === undefined) continue;
      const value = tokenValue(raw, variable.resolvedType);
      if (mode.modeId === collection.defaultModeId) tokens[group][name] = value;
      else {
        const key = `${collection.name}/${mode.name}`;
        tokens.modes[key] ??= {};
        tokens.modes[key][name] = value;
      }
    }
  }
  return tokens;
}
