import type { NextCallValue } from "@agentool/contract";

/**
 * The arguments of a call as the model gave them, besides `offset`: what a next-page marker
 * repeats so that following it literally asks for the same list (same filters, mode and page
 * size). Fields left out stay out; values that cannot be written in a marker are skipped.
 *
 * @param request - the parsed input of the call
 * @returns the arguments, in the schema's order
 * @example
 * callArguments({ path: "src", limit: 5, offset: 6 }); // { path: "src", limit: 5 }
 */
export function callArguments(request: object): Record<string, NextCallValue> {
  const args: Record<string, NextCallValue> = {};
  for (const [key, value] of Object.entries(request)) {
    if (key === "offset" || value === undefined) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      args[key] = value;
    } else if (
      Array.isArray(value) &&
      value.every((item) => typeof item === "string" || typeof item === "number")
    ) {
      args[key] = [...(value as Array<string | number>)];
    }
  }
  return args;
}
