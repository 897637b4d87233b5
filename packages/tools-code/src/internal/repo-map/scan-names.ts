/**
 * The lexical pass behind `repo_map`'s ranking graph: one linear scan of a file's text that skips
 * comments and string literals and reports (a) the names the file defines — the identifier after
 * a declaration keyword (`function`, `class`, `def`, `fn`, `func`…, `const`/`let`/`var` at the
 * top level), and a `name(…) {` header at the start of a line or after a modifier or a type —
 * and (b) every other identifier with how often it occurs. It costs a few milliseconds per
 * megabyte where a tree-sitter parse costs a quarter of a second, so a cold map of thousands of
 * files stays within seconds; the symbols a map *shows* still come from tree-sitter.
 *
 * @internal
 */

/** How a language writes comments and strings. */
export type LexicalStyle = "c" | "hash" | "php";

/** What {@link scanNames} found in one text, names as ids of the cache's name table. */
export interface NameScan {
  /** Ids of the names defined in the text, each once, ascending. */
  definitions: Uint32Array;
  /**
   * Ids of the names defined at the top level (outside braces; in Python and Ruby at column 0),
   * a subset of {@link NameScan.definitions}, ascending: the rest are members and locals.
   */
  topDefinitions: Uint32Array;
  /**
   * Ids of the names declared as locals (`const`/`let`/`var` inside braces; an indented
   * `name = …` in Python and Ruby) and not in {@link NameScan.definitions}, ascending: the file
   * says these names of its own, so its uses of them are no uses of another file's.
   */
  localDefinitions: Uint32Array;
  /**
   * Ids of the referenced names used at least once bare or through an imported module
   * (`util.joinValues` after `import * as util`), not only as a property of some value
   * (`items.map`), ascending: a subset of {@link NameScan.names}.
   */
  bareNames: Uint32Array;
  /** Ids of the distinct referenced identifiers (definition sites not counted), ascending. */
  names: Uint32Array;
  /** How often each of {@link NameScan.names} occurs, same order. */
  counts: Uint32Array;
}

/** Words that introduce a definition: the next identifier is defined. */
const DEFINING_KEYWORDS = new Set([
  "function",
  "class",
  "interface",
  "type",
  "enum",
  "namespace",
  "module",
  "def",
  "func",
  "fn",
  "struct",
  "trait",
  "union",
  "record",
  "macro_rules",
]);

/** Declarations that define a name only at the top level (elsewhere they are locals). */
const TOP_LEVEL_KEYWORDS = new Set(["const", "let", "var", "static"]);

/** Words after which `name(…) {` is a method header. */
const MODIFIERS = new Set([
  "public",
  "private",
  "protected",
  "static",
  "async",
  "get",
  "set",
  "override",
  "readonly",
  "abstract",
  "virtual",
  "final",
  "export",
  "default",
  "pub",
  "inline",
  "constexpr",
  "unsafe",
  "extern",
]);

/** Built-in type words after which `name(…) {` is a function header (`void run() {`). */
const TYPE_WORDS = new Set(
  "void int long short char bool boolean double float unsigned auto string".split(" "),
);

/** Built-in type words that are also ordinary names (`function string()`, `z.object(…)`). */
const SOFT_KEYWORDS = new Set(
  "string number boolean object symbol bigint any unknown never".split(" "),
);

/** Keywords and built-in words of the supported languages: never references worth ranking. */
const KEYWORDS = new Set([
  ...DEFINING_KEYWORDS,
  ...TOP_LEVEL_KEYWORDS,
  ...MODIFIERS,
  ..."if else for while do switch case break continue return throw try catch finally new delete typeof instanceof in of void this super null undefined true false import from as await yield with extends implements keyof declare is asserts satisfies infer unique any unknown never string number boolean object symbol bigint and or not elif pass lambda nonlocal global del assert raise except None True False self cls print go defer chan map select range package fallthrough goto nil mut impl pub use crate mod where match loop move ref dyn Self int float double char long short byte bool unsigned signed sizeof typedef auto register volatile struct_ template typename operator friend namespace_ using boolean_ then fi done esac elsif end unless until begin rescue ensure yield_ echo local readonly_ export_ function_ foreach endforeach endif endwhile array isset unset empty require require_once include include_once instanceof_ clone insteadof callable iterable"
    .split(" ")
    .filter((word) => !word.endsWith("_")),
]);

function isIdentifierStart(code: number): boolean {
  return (
    (code >= 97 && code <= 122) ||
    (code >= 65 && code <= 90) ||
    code === 95 ||
    code === 36 ||
    code >= 0x80
  );
}

function isIdentifierPart(code: number): boolean {
  return isIdentifierStart(code) || (code >= 48 && code <= 57);
}

/** Index just past a quoted string that cannot span lines (ends at the quote or the line end). */
function skipLineString(text: string, start: number, quote: number): number {
  let index = start + 1;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 92) index += 2;
    else if (code === quote) return index + 1;
    else if (code === 10) return index;
    else index += 1;
  }
  return index;
}

/** Index just past a string that may span lines, ending at `close` (e.g. `"""`). */
function skipUntil(text: string, start: number, close: string): number {
  const end = text.indexOf(close, start);
  return end === -1 ? text.length : end + close.length;
}

/** The first character that is not a space or tab from `index`. */
function nextNonBlank(text: string, index: number): number {
  let at = index;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code !== 32 && code !== 9 && code !== 13) break;
    at += 1;
  }
  return at;
}

/**
 * Whether the text after a `)` closing a `name(` call looks like a definition's body or return
 * type: `{`, or `:`/`->` followed (before `;`, `,`, `)` or a blank line) by `{` or `;`.
 */
function opensBody(text: string, after: number): boolean {
  const at = nextNonBlank(text, after);
  const code = text.charCodeAt(at);
  if (code === 123) return true;
  const arrow = code === 45 && text.charCodeAt(at + 1) === 62;
  if (code !== 58 && !arrow) return false;
  const limit = Math.min(text.length, at + 300);
  for (let index = at + 1; index < limit; index += 1) {
    const next = text.charCodeAt(index);
    if (next === 123 || next === 59) return true;
    if (next === 44 || next === 41 || next === 61) {
      // `=>` of an arrow function type is fine; `=`, `,` and `)` end an expression.
      if (next === 61 && text.charCodeAt(index + 1) === 62) continue;
      return false;
    }
  }
  return false;
}

interface Paren {
  /** The identifier just before the `(`, when it may be a definition's name. */
  candidate: string | undefined;
  /** Whether that definition would be at the top level. */
  top?: boolean;
}

/** The scanner's running state (one per text). */
class NameScanner {
  readonly definitions = new Set<string>();
  readonly topDefinitions = new Set<string>();
  readonly locals = new Set<string>();
  readonly bare = new Set<string>();
  /** Names bound by import statements (modules, namespaces, imported bindings). */
  private readonly imported = new Set<string>();
  /** Inside an import statement (until `from`, `;` or the line's end). */
  private importing = false;
  readonly references = new Map<string, number>();
  private braceDepth = 0;
  private readonly templates: number[] = [];
  private readonly parens: Paren[] = [];
  /** The next identifier is defined: `function`, `class`… was just read. */
  private defineNext = false;
  /** The definition {@link NameScanner.defineNext} announces is at the top level. */
  private defineTop = false;
  /** The name {@link NameScanner.defineNext} announces is a local (`const` inside braces). */
  private defineLocal = false;
  /** Go's `func (receiver)`: the name follows the receiver's closing parenthesis. */
  private receiverDepth = -1;
  private previousWord: string | undefined;
  private lineStart = true;

  constructor(
    private readonly text: string,
    private readonly style: LexicalStyle,
  ) {}

  run(): void {
    const text = this.text;
    let index = 0;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (isIdentifierStart(code)) {
        index = this.word(index);
        continue;
      }
      const skipped = this.skipNonCode(index, code);
      if (skipped !== index) {
        index = skipped;
        continue;
      }
      index = this.punctuation(index, code);
    }
  }

  /** Skips a comment or string at `index`; returns `index` when there is none. */
  private skipNonCode(index: number, code: number): number {
    const text = this.text;
    const next = text.charCodeAt(index + 1);
    if (this.style !== "hash" && code === 47 && next === 47) return skipUntil(text, index, "\n");
    if (this.style !== "hash" && code === 47 && next === 42)
      return skipUntil(text, index + 2, "*/");
    if (code === 35 && this.style !== "c") {
      // PHP 8 attributes `#[…]` are code.
      if (this.style === "php" && next === 91) return index;
      return skipUntil(text, index, "\n");
    }
    if (code === 34 || code === 39) {
      if (
        this.style === "hash" &&
        text.charCodeAt(index + 1) === code &&
        text.charCodeAt(index + 2) === code
      ) {
        const close = code === 34 ? '"""' : "'''";
        return skipUntil(text, index + 3, close);
      }
      return skipLineString(text, index, code);
    }
    if (code === 96) return this.template(index + 1);
    return index;
  }

  /** Skips a template literal's text up to its end or to a `${` (then code resumes). */
  private template(start: number): number {
    const text = this.text;
    let index = start;
    while (index < text.length) {
      const code = text.charCodeAt(index);
      if (code === 92) index += 2;
      else if (code === 96) return index + 1;
      else if (code === 36 && text.charCodeAt(index + 1) === 123 && this.style === "c") {
        this.templates.push(this.braceDepth);
        this.braceDepth += 1;
        return index + 2;
      } else index += 1;
    }
    return index;
  }

  private punctuation(index: number, code: number): number {
    if (code === 59) this.importing = false;
    if (code === 10) {
      if (this.style === "hash") this.importing = false;
      this.lineStart = true;
      return index + 1;
    }
    if (code === 32 || code === 9 || code === 13) return index + 1;
    this.lineStart = false;
    if (code === 123) {
      this.braceDepth += 1;
    } else if (code === 125) {
      this.braceDepth = Math.max(0, this.braceDepth - 1);
      if (
        this.templates.length > 0 &&
        this.templates[this.templates.length - 1] === this.braceDepth
      ) {
        this.templates.pop();
        this.defineNext = false;
        return this.template(index + 1);
      }
    } else if (code === 40) {
      this.parens.push({ candidate: undefined });
    } else if (code === 41) {
      const open = this.parens.pop();
      if (this.receiverDepth === this.parens.length) {
        this.receiverDepth = -1;
        this.defineNext = true;
        this.previousWord = undefined;
        return index + 1;
      }
      if (open?.candidate !== undefined && opensBody(this.text, index + 1)) {
        // The header's name was counted as a use when it was read; it is a definition.
        const count = (this.references.get(open.candidate) ?? 1) - 1;
        if (count > 0) this.references.set(open.candidate, count);
        else this.references.delete(open.candidate);
        this.define(open.candidate, open.top);
      }
    }
    if (code !== 42) this.defineNext = false; // `function*`
    this.previousWord = undefined;
    return index + 1;
  }

  private define(name: string, top: boolean | undefined): void {
    this.definitions.add(name);
    if (top === true) this.topDefinitions.add(name);
  }

  /** Whether a definition starting at `start` is at the top level. */
  private isTopLevel(start: number): boolean {
    if (this.style !== "hash") return this.braceDepth === 0;
    // Python and Ruby: at column 0, or after `async ` there.
    const lineBegin = this.text.lastIndexOf("\n", start - 1) + 1;
    const before = this.text.slice(lineBegin, start);
    return before === "" || before === "async ";
  }

  /**
   * Whether the word at `start` follows a `.` (a property, never a keyword or a definition):
   * `"module"` when what precedes the dot is a name the file imports, `"value"` otherwise,
   * `undefined` when there is no dot.
   */
  private propertyOf(start: number): "module" | "value" | undefined {
    const text = this.text;
    let at = start - 1;
    while (at >= 0) {
      const code = text.charCodeAt(at);
      if (code !== 32 && code !== 9 && code !== 10 && code !== 13) break;
      at -= 1;
    }
    if (at < 0 || text.charCodeAt(at) !== 46 || text.charCodeAt(at - 1) === 46) return undefined;
    let begin = at;
    while (begin > 0 && isIdentifierPart(text.charCodeAt(begin - 1))) begin -= 1;
    return begin < at && this.imported.has(text.slice(begin, at)) ? "module" : "value";
  }

  private word(start: number): number {
    const text = this.text;
    let end = start + 1;
    while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end += 1;
    let word = text.slice(start, end);
    if (this.style !== "c" && word.charCodeAt(0) === 36) word = word.slice(1);
    const atLineStart = this.lineStart;
    this.lineStart = false;
    const previous = this.previousWord;
    this.previousWord = word;
    if (word === "import") this.importing = true;
    else if (word === "from" && this.style !== "hash") this.importing = false;
    else if (this.importing) {
      // `import type * as errors from …`: the names an import binds are uses, never definitions.
      this.defineNext = false;
      this.imported.add(word);
      if (KEYWORDS.has(word) || word.length < 2) return end;
      this.references.set(word, (this.references.get(word) ?? 0) + 1);
      this.bare.add(word);
      return end;
    }
    if (this.defineNext && (!KEYWORDS.has(word) || SOFT_KEYWORDS.has(word))) {
      this.defineNext = false;
      if (this.defineLocal) this.locals.add(word);
      else this.define(word, this.defineTop);
      return end;
    }
    const property = this.propertyOf(start);
    if (property !== undefined) {
      // `z.string()`, `def.type`: a property name, whatever word it is.
      if (word.length < 2) return end;
      this.references.set(word, (this.references.get(word) ?? 0) + 1);
      if (property === "module") this.bare.add(word);
      return end;
    }

    if (DEFINING_KEYWORDS.has(word) || TOP_LEVEL_KEYWORDS.has(word)) {
      this.defineNext = true;
      this.defineTop = this.isTopLevel(start);
      this.defineLocal = TOP_LEVEL_KEYWORDS.has(word) && this.braceDepth > 0;
      if (word === "func" && text.charCodeAt(nextNonBlank(text, end)) === 40) {
        this.defineNext = false;
        this.receiverDepth = this.parens.length;
      }
      return end;
    }
    if (KEYWORDS.has(word) || word.length < 2) return end;
    const after = nextNonBlank(text, end);
    if (
      this.style === "hash" &&
      atLineStart &&
      start > 0 &&
      text.charCodeAt(start - 1) !== 10 &&
      text.charCodeAt(after) === 61 &&
      text.charCodeAt(after + 1) !== 61
    ) {
      // An indented assignment (`name = …`) is a local in Python and Ruby.
      this.locals.add(word);
    } else if (
      this.style === "hash" &&
      (start === 0 || text.charCodeAt(start - 1) === 10) &&
      text.charCodeAt(after) === 61 &&
      text.charCodeAt(after + 1) !== 61
    ) {
      // A module-level assignment (`NAME = …` at column 0) defines NAME in Python and Ruby.
      this.define(word, true);
      return end;
    }
    if (text.charCodeAt(after) === 40 && this.style !== "hash") {
      const header =
        atLineStart ||
        (previous !== undefined &&
          (MODIFIERS.has(previous) || TYPE_WORDS.has(previous) || !KEYWORDS.has(previous)));
      if (header) {
        this.references.set(word, (this.references.get(word) ?? 0) + 1);
        this.bare.add(word);
        this.parens.push({ candidate: word, top: this.isTopLevel(start) });
        this.previousWord = undefined;
        return after + 1;
      }
    }
    this.references.set(word, (this.references.get(word) ?? 0) + 1);
    this.bare.add(word);
    return end;
  }
}

/**
 * Scans one text for defined and referenced names (see the module comment). Linear in the text;
 * never throws.
 *
 * @param text - the file's text
 * @param style - how its language writes comments and strings
 * @param idOf - the id of a name in the cache's name table (each name stored once)
 * @returns the definitions and the counted references
 */
export function scanNames(
  text: string,
  style: LexicalStyle,
  idOf: (name: string) => number,
): NameScan {
  const scanner = new NameScanner(text, style);
  scanner.run();
  const definitions = Uint32Array.from(scanner.definitions, idOf).sort();
  const topDefinitions = Uint32Array.from(scanner.topDefinitions, idOf).sort();
  for (const name of scanner.definitions) scanner.locals.delete(name);
  const localDefinitions = Uint32Array.from(scanner.locals, idOf).sort();
  for (const name of scanner.bare) if (!scanner.references.has(name)) scanner.bare.delete(name);
  const bareNames = Uint32Array.from(scanner.bare, idOf).sort();
  const pairs: Array<[number, number]> = [];
  for (const [name, count] of scanner.references) pairs.push([idOf(name), count]);
  pairs.sort((left, right) => left[0] - right[0]);
  const names = new Uint32Array(pairs.length);
  const counts = new Uint32Array(pairs.length);
  pairs.forEach(([id, count], index) => {
    names[index] = id;
    counts[index] = count;
  });
  return { definitions, topDefinitions, localDefinitions, bareNames, names, counts };
}
