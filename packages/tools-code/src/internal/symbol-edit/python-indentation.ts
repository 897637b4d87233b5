/**
 * Python's indentation rules, checked without Python: tree-sitter's Python grammar recovers from
 * a mis-indented block without an error node (a `def` whose body sits at its own column parses
 * as an empty method followed by statements), so replace_symbol checks the layout itself.
 *
 * @internal
 */

/** One indentation error, as Python's tokenizer would raise it. */
export interface IndentationProblem {
  /** 1-based line. */
  line: number;
  /** Python's wording: `expected an indented block`, `unexpected indent`, `unindent does not match any outer indentation level`. */
  message: string;
}

/** Width of a line's indentation as Python counts it (a tab moves to the next multiple of 8). */
function indentWidth(line: string): number {
  let width = 0;
  for (const character of line) {
    if (character === " ") width += 1;
    else if (character === "\t") width = width - (width % 8) + 8;
    else if (character === "\f") width = 0;
    else break;
  }
  return width;
}

/** What the scanner carries from one line to the next. */
interface ScanState {
  /** Open brackets. */
  depth: number;
  /** The quote of an open triple-quoted string. */
  triple: string | undefined;
  /** The last line ended with a backslash. */
  continued: boolean;
  /** The last significant character of the logical line so far. */
  last: string;
}

/** Scans one physical line (from `from`), updating brackets, strings and the last character. */
function scanLine(line: string, from: number, state: ScanState): void {
  let index = from;
  state.continued = false;
  while (index < line.length) {
    const character = line[index] as string;
    if (state.triple !== undefined) {
      if (character === "\\") index += 2;
      else if (line.startsWith(state.triple, index)) {
        index += 3;
        state.triple = undefined;
        state.last = '"';
      } else index += 1;
      continue;
    }
    if (character === "#") break;
    if (character === "\\" && index === line.length - 1) {
      state.continued = true;
      break;
    }
    if (character === '"' || character === "'") {
      const three = character.repeat(3);
      if (line.startsWith(three, index)) {
        state.triple = three;
        index += 3;
        continue;
      }
      index += 1;
      while (index < line.length && line[index] !== character)
        index += line[index] === "\\" ? 2 : 1;
      index += 1;
      state.last = '"';
      continue;
    }
    if ("([{".includes(character)) state.depth += 1;
    else if (")]}".includes(character)) state.depth = Math.max(0, state.depth - 1);
    if (character !== " " && character !== "\t") state.last = character;
    index += 1;
  }
}

/**
 * The indentation errors of a Python text, in line order (after the first, the checker
 * recovers as if the line were at a valid level, so later errors are real too).
 *
 * @param text - Python source (LF line breaks)
 * @param limit - the most to report
 * @returns the errors, `[]` when the layout is valid
 * @example
 * pythonIndentationProblems("def f():\nreturn 1\n"); // [{ line: 2, message: "expected an indented block" }]
 */
export function pythonIndentationProblems(text: string, limit = 20): IndentationProblem[] {
  const problems: IndentationProblem[] = [];
  const stack = [0];
  const state: ScanState = { depth: 0, triple: undefined, continued: false, last: "" };
  let expectIndent = false;
  const lines = text.split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = raw.replace(/\r$/, "");
    const inside = state.depth > 0 || state.triple !== undefined || state.continued;
    if (!inside) {
      const content = line.trimStart();
      if (content.length === 0 || content.startsWith("#")) continue;
      const width = indentWidth(line);
      const top = stack[stack.length - 1] as number;
      if (expectIndent) {
        if (width <= top) problems.push({ line: index + 1, message: "expected an indented block" });
        else stack.push(width);
      } else if (width > top) {
        problems.push({ line: index + 1, message: "unexpected indent" });
        stack.push(width);
      } else if (width < top) {
        while ((stack[stack.length - 1] as number) > width) stack.pop();
        if ((stack[stack.length - 1] as number) !== width) {
          problems.push({
            line: index + 1,
            message: "unindent does not match any outer indentation level",
          });
          stack.push(width);
        }
      }
      expectIndent = false;
      state.last = "";
    }
    if (problems.length >= limit) return problems;
    scanLine(line, 0, state);
    if (state.depth === 0 && state.triple === undefined && !state.continued)
      expectIndent = state.last === ":";
  }
  if (expectIndent) problems.push({ line: lines.length, message: "expected an indented block" });
  return problems.slice(0, limit);
}
