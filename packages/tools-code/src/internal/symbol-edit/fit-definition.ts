/**
 * Fitting a model's new definition into the place of an old one: the block is dedented as a
 * whole and every line after the first re-indented to the symbol's column, so relative
 * indentation is kept whatever column the model wrote it at.
 *
 * @internal
 */

function leadingWhitespace(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

/** Smallest leading-whitespace width of the non-blank lines wider than `over`, or `undefined`. */
function smallestIndent(lines: readonly string[], over = -1): number | undefined {
  let smallest: number | undefined;
  for (const line of lines) {
    if (line.trim().length === 0) continue;
    const width = leadingWhitespace(line).length;
    if (width > over && (smallest === undefined || width < smallest)) smallest = width;
  }
  return smallest;
}

/** A decorator, attribute or annotation line (`@x`, `#[x]`, `[X]`). */
const DECORATOR_LINE = /^[ \t]*(?:@|#\[|\[)/;

/**
 * The indentation of the line an offset is on (its leading spaces and tabs).
 *
 * @param text - the file's text
 * @param index - an offset in it
 * @returns the line's leading whitespace
 */
export function indentationAt(text: string, index: number): string {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  return leadingWhitespace(text.slice(lineStart, index + 1));
}

/**
 * Fits a new definition into the place of the old one: LF line breaks, blank lines around it
 * dropped, the block dedented as a whole, its first line with no indentation (the file's line
 * keeps its own) and every other non-blank line indented with `indent` plus its depth relative
 * to the block. Two readings of a first line sent without indentation (copied from the file,
 * the rest left as it stands there): after a decorator line, the next line is at the block's
 * level; otherwise, lines indented exactly like the old definition's body are kept as they are.
 *
 * @param newBody - the model's definition
 * @param indent - the indentation of the line the old definition starts on
 * @param old - the old definition's text (from its first character)
 * @returns the text to put in the old one's place
 * @example
 * fitDefinition("def f(self):\n    return 1", "    ", "def f(self):\n        pass");
 * // "def f(self):\n        return 1"
 */
export function fitDefinition(newBody: string, indent: string, old: string): string {
  const lines = newBody.replace(/\r\n?/g, "\n").split("\n");
  while (lines.length > 0 && (lines[0] as string).trim().length === 0) lines.shift();
  while (lines.length > 0 && (lines[lines.length - 1] as string).trim().length === 0) lines.pop();
  const first = lines[0];
  if (first === undefined) return "";
  const firstWidth = leadingWhitespace(first).length;
  const rest = lines.slice(1);
  const restWidth = smallestIndent(rest);
  let strip = Math.min(firstWidth, restWidth ?? firstWidth);
  let copied = false;
  if (firstWidth === 0 && indent.length > 0 && restWidth !== undefined) {
    const second = rest.find((line) => line.trim().length > 0) as string;
    const oldBody = old.replace(/\r\n?/g, "\n").split("\n").slice(1);
    if (DECORATOR_LINE.test(first)) strip = Math.min(leadingWhitespace(second).length, restWidth);
    else copied = restWidth === smallestIndent(oldBody, indent.length);
  }
  const fitted = lines.map((line, index) => {
    if (index === 0) return line.trimStart();
    if (line.trim().length === 0) return "";
    if (copied) return line;
    return `${indent}${line.slice(Math.min(strip, leadingWhitespace(line).length))}`;
  });
  const body = fitted.join("\n");
  return old.endsWith("\n") ? `${body}\n` : body;
}
