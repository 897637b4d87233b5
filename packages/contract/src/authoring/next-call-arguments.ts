import type { NextCallValue } from "../paging.js";

/**
 * The arguments a page marker repeats besides `offset` (`formatPageMarker({ args })`): every
 * value that shapes the result — the path or query, filters, mode, `limit` — in the order given,
 * leaving out those absent and those equal to their default (following the marker gives the
 * same page either way, and the marker stays short). Lists are compared by value.
 *
 * @param values - the call's arguments as the tool used them (`undefined` when not set)
 * @param defaults - the value each argument has when it is not sent
 * @returns the arguments to write in the next call
 * @example
 * formatPageMarker({
 *   tool: "grep_search", nextOffset: 101, omitted: 40, unit: "matches",
 *   args: nextCallArguments({ pattern: "TODO", glob: "*.ts", literal: false, limit: 100 }, { literal: false, limit: 100 }),
 * }); // "…[truncated: 40 more matches — call grep_search again with pattern=\"TODO\", glob=\"*.ts\", offset=101]"
 */
export function nextCallArguments(
  values: Readonly<Record<string, NextCallValue | undefined>>,
  defaults: Readonly<Record<string, NextCallValue>> = {},
): Record<string, NextCallValue> {
  const args: Record<string, NextCallValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const fallback = defaults[key];
    if (fallback !== undefined && JSON.stringify(fallback) === JSON.stringify(value)) continue;
    args[key] = value;
  }
  return args;
}

/**
 * The arguments of a call as the model gave them, besides `offset`: what a next-page marker
 * repeats so that following it literally asks for the same list (same filters, mode and page
 * size). Fields left out stay out; values a marker cannot carry (objects, lists of anything but
 * strings and numbers) are skipped. Use it where the marker repeats the call as sent; use
 * {@link nextCallArguments} where arguments at their default are left out.
 *
 * @param request - the parsed input of the call
 * @returns the arguments, in the input's order
 * @example
 * givenCallArguments({ path: "src", limit: 5, offset: 6 }); // { path: "src", limit: 5 }
 */
export function givenCallArguments(request: object): Record<string, NextCallValue> {
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
