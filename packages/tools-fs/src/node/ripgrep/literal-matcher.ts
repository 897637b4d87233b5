import type { SearchRequest } from "../../internal/search-types.js";

/** What makes a pattern more than its literal text in rg's regex syntax. */
const REGEX_SYNTAX = /[\\.+*?()|[\]{}^$]/;

/**
 * The bytes (case-sensitive) or the expression (ignoring case) that find `request.pattern` in a
 * file exactly as rg would, when the pattern is plain text on one line; undefined otherwise (a
 * regular expression, an empty pattern, a line break, or characters whose handling differs: a BOM,
 * the replacement character, a lone surrogate — which rg receives as the replacement character).
 *
 * @param request - the search
 * @returns the test of a file's bytes, if the pattern is plain text
 */
export function literalMatcher(request: SearchRequest): ((bytes: Buffer) => boolean) | undefined {
  const pattern = request.pattern;
  if (pattern.length === 0 || /[\r\n\u{feff}\u{fffd}]|\p{Cs}/u.test(pattern)) return undefined;
  if (!request.literal && REGEX_SYNTAX.test(pattern)) return undefined;
  if (!request.ignoreCase) {
    const needle = Buffer.from(pattern, "utf8");
    return (bytes) => bytes.indexOf(needle) !== -1;
  }
  // rg folds case by Unicode simple case folding, as a JavaScript `iu` expression does.
  let expression: RegExp;
  try {
    expression = new RegExp(pattern.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&"), "iu");
  } catch {
    return undefined; // not expressible here: rg decides
  }
  return (bytes) => expression.test(bytes.toString("utf8"));
}
