import type { ArgumentPolicyVerdict } from "./argument-policy.js";

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * Whether `argument` is the long option `option` given in any form getopt accepts: exactly, with
 * `=value`, or abbreviated (GNU tools take any unambiguous prefix, e.g. `--checkpoint-act`).
 */
export function isLongOption(
  argument: string,
  option: string,
  abbreviations: boolean,
  exact: ReadonlySet<string> = NO_NAMES,
): boolean {
  if (!argument.startsWith("--")) return false;
  const equals = argument.indexOf("=");
  const name = equals === -1 ? argument : argument.slice(0, equals);
  if (name === option) return true;
  return abbreviations && name.length >= 4 && !exact.has(name) && option.startsWith(name);
}

/** A refusal naming the refused argument and what it does. */
export function refuse(refused: string, reason: string): ArgumentPolicyVerdict {
  return { refused, reason };
}
