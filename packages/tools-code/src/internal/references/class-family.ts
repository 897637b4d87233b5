import type { ModuleStyle } from "./module-scan.js";

/**
 * Class and interface headers with what they extend or implement, read lexically (for
 * `find_references { name: "Class.member" }`): `class A<T> extends B<T> implements C, ns.D {`,
 * `interface A extends B, C {`, Python `class A(B, mod.C):`. Each parent is given as written
 * without type arguments (`B`, `ns.D`), so the caller can bind it through the file's imports.
 *
 * @internal
 */

/** One class or interface header. */
export interface ClassHeader {
  /** The declared name. */
  name: string;
  /** Offset of the name in the text. */
  index: number;
  /** The parents as written (`B`, `ns.D`), type arguments dropped. */
  parents: string[];
}

const JS_HEADER = /\b(?:class|interface)\s+([\w$]+)/g;
const PY_HEADER = /^[ \t]*class[ \t]+(\w+)[ \t]*\(([^)]*)\)[ \t]*:/gm;

/** The text from `start` to the body's `{` at angle-bracket depth 0 (type arguments may hold braces). */
function headerTail(text: string, start: number): string | undefined {
  let angles = 0;
  const limit = Math.min(text.length, start + 2_000);
  for (let at = start; at < limit; at += 1) {
    const character = text[at];
    if (character === "<") angles += 1;
    else if (character === ">" && text[at - 1] !== "=") angles = Math.max(0, angles - 1);
    else if (character === "{" && angles === 0) return text.slice(start, at);
    else if (character === ";" && angles === 0) return undefined;
  }
  return undefined;
}

/** `extends B<T>, C implements ns.D` → `B`, `C`, `ns.D`. */
function parentsOf(tail: string): string[] {
  let flat = "";
  let depth = 0;
  for (const character of tail) {
    if (character === "<" || character === "(") depth += 1;
    else if (character === ">" || character === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) flat += character;
  }
  const heritage = /\b(?:extends|implements)\b([\s\S]*)$/.exec(flat)?.[1];
  if (heritage === undefined) return [];
  return heritage
    .split(/,|\bimplements\b|\bextends\b/)
    .map((part) => part.replace(/\s+/g, ""))
    .filter((part) => /^[\w$]+(?:\.[\w$]+)*$/.test(part));
}

/**
 * The class and interface headers of a text that have parents.
 *
 * @param text - the file's text
 * @param style - its module style
 * @returns the headers, in text order
 */
export function classHeaders(text: string, style: ModuleStyle): ClassHeader[] {
  const headers: ClassHeader[] = [];
  if (style === "python") {
    for (const match of text.matchAll(PY_HEADER)) {
      const parents = (match[2] as string)
        .split(",")
        .map((part) => part.trim())
        .filter((part) => /^[\w.]+$/.test(part));
      if (parents.length > 0) {
        headers.push({
          name: match[1] as string,
          index: (match.index ?? 0) + (match[0] as string).indexOf(match[1] as string),
          parents,
        });
      }
    }
    return headers;
  }
  for (const match of text.matchAll(JS_HEADER)) {
    const name = match[1] as string;
    const index = (match.index ?? 0) + (match[0] as string).length - name.length;
    const tail = headerTail(text, index + name.length);
    if (tail === undefined) continue;
    const parents = parentsOf(tail);
    if (parents.length > 0) headers.push({ name, index, parents });
  }
  return headers;
}
