import type { EngineSymbol, SymbolKind } from "./symbol.js";
import { oneLine } from "./walk-rules.js";

/**
 * Outlines by line patterns, for languages without a grammar (JSON and YAML keys, Markdown
 * headings, TOML/INI sections) and for code the parser refused (too large, too slow): keyword
 * lines such as `class X`, `def f`, `function g`. Every result of this module is labelled
 * `heuristic` by the caller: spans end where the next entry of the same depth starts.
 *
 * @internal
 */

/** The flavours of heuristic outline. */
export type HeuristicFlavour = "json" | "yaml" | "markdown" | "toml" | "ini" | "code";

interface Entry {
  kind: SymbolKind;
  name: string;
  depth: number;
  line: number;
  signature: string;
}

const CODE_PATTERN =
  /^(\s*)(?:(?:export|public|private|protected|internal|static|abstract|async|pub(?:\([^)]*\))?|default|declare|final|sealed|open|override)\s+)*(class|interface|struct|trait|enum|impl|type|function|def|fn|func|module|namespace|object)\s+([A-Za-z_$][\w$]*)/;

const CODE_KINDS: Readonly<Record<string, SymbolKind>> = {
  class: "class",
  object: "class",
  interface: "interface",
  struct: "struct",
  trait: "trait",
  enum: "enum",
  impl: "impl",
  type: "type",
  function: "function",
  def: "function",
  fn: "function",
  func: "function",
  module: "module",
  namespace: "namespace",
};

const HEADING_START = /^(#{1,6})[ \t]+/;

/**
 * An ATX heading's level and title (`## Title ##` → 2, `Title`), or `undefined`. Without a
 * backtracking pattern: `/^(#{1,6})\s+(.+?)\s*#*\s*$/` took 38 s on one 4 KB line of spaces.
 */
function markdownHeading(line: string): { level: number; title: string } | undefined {
  const start = HEADING_START.exec(line);
  if (start === null) return undefined;
  let end = line.length;
  while (end > start[0].length && /\s/.test(line[end - 1] as string)) end -= 1;
  // A closing run of # counts only after whitespace (`# C#` keeps its #).
  let hashes = end;
  while (hashes > start[0].length && line[hashes - 1] === "#") hashes -= 1;
  if (hashes < end && (hashes === start[0].length || /\s/.test(line[hashes - 1] as string))) {
    end = hashes;
    while (end > start[0].length && /\s/.test(line[end - 1] as string)) end -= 1;
  }
  if (end <= start[0].length) return undefined;
  return { level: (start[1] as string).length, title: line.slice(start[0].length, end) };
}

function scan(lines: readonly string[], flavour: HeuristicFlavour): Entry[] {
  const entries: Entry[] = [];
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const at = index + 1;
    if (flavour === "markdown") {
      const fenceMatch = /^\s{0,3}(```|~~~)/.exec(line);
      if (fenceMatch !== null) {
        fence = fence === undefined ? fenceMatch[1] : fence === fenceMatch[1] ? undefined : fence;
        continue;
      }
      const heading = fence === undefined ? markdownHeading(line) : undefined;
      if (heading !== undefined) {
        entries.push({
          kind: "heading",
          name: heading.title,
          depth: heading.level - 1,
          line: at,
          signature: line,
        });
      }
    } else if (flavour === "json") {
      const key = /^(\s*)"((?:[^"\\]|\\.)*)"\s*:/.exec(line);
      const indent = key?.[1]?.length ?? 0;
      if (key !== null && indent <= 4 && indent > 0) {
        entries.push({
          kind: "key",
          name: key[2] as string,
          depth: indent > 2 ? 1 : 0,
          line: at,
          signature: line,
        });
      }
    } else if (flavour === "yaml") {
      const key = /^( *)(?:- )?([^\s#:'"][^:#]*?|"[^"]*"|'[^']*'):(?:\s|$)/.exec(line);
      const indent = key?.[1]?.length ?? 0;
      if (key !== null && indent <= 2) {
        entries.push({
          kind: "key",
          name: (key[2] as string).replace(/^["']|["']$/g, ""),
          depth: indent === 0 ? 0 : 1,
          line: at,
          signature: line,
        });
      }
    } else if (flavour === "toml" || flavour === "ini") {
      const section = /^\s*\[\[?([^\]]+)\]\]?\s*(?:[#;].*)?$/.exec(line);
      if (section !== null) {
        entries.push({
          kind: "section",
          name: (section[1] as string).trim(),
          depth: 0,
          line: at,
          signature: line,
        });
      }
    } else {
      const match = CODE_PATTERN.exec(line);
      if (match !== null) {
        const indent = (match[1] as string).replace(/\t/g, "    ").length;
        entries.push({
          kind: CODE_KINDS[match[2] as string] ?? "function",
          name: match[3] as string,
          depth: Math.min(Math.floor(indent / 2), 8),
          line: at,
          signature: line,
        });
      }
    }
  }
  return entries;
}

/**
 * A heuristic outline of a text.
 *
 * @param text - the file's text
 * @param flavour - which patterns to use
 * @returns symbols (with `nameIndex` -1: names are not located), spans to the next sibling
 */
export function heuristicOutline(text: string, flavour: HeuristicFlavour): EngineSymbol[] {
  const lines = text.split("\n");
  const lineStarts: number[] = [0];
  for (let index = 0; index < lines.length - 1; index += 1) {
    lineStarts.push((lineStarts[index] as number) + (lines[index] as string).length + 1);
  }
  const lastLine = text.endsWith("\n") ? lines.length - 1 : lines.length;
  const entries = scan(lines, flavour);
  const symbols: EngineSymbol[] = [];
  const stack: { raw: number; symbol: EngineSymbol }[] = [];
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    let end = lastLine;
    for (let next = index + 1; next < entries.length; next += 1) {
      if ((entries[next] as Entry).depth <= entry.depth) {
        end = (entries[next] as Entry).line - 1;
        break;
      }
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.raw ?? 0) >= entry.depth) stack.pop();
    const parent = stack[stack.length - 1]?.symbol;
    const depth = parent === undefined ? 0 : parent.depth + 1;
    const symbol: EngineSymbol = {
      kind: entry.kind,
      name: entry.name,
      qualified_name: parent === undefined ? entry.name : `${parent.qualified_name}.${entry.name}`,
      signature: oneLine(entry.signature),
      start_line: entry.line,
      end_line: Math.max(entry.line, end),
      parent: parent?.qualified_name ?? null,
      depth,
      startIndex: lineStarts[entry.line - 1] ?? 0,
      endIndex: (lineStarts[Math.max(entry.line, end)] ?? text.length + 1) - 1,
      nameIndex: -1,
    };
    // The outline's depth counts containers (a level-3 heading under a level-1 one is one deeper).
    stack.push({ raw: entry.depth, symbol });
    symbols.push(symbol);
  }
  return symbols;
}
