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
