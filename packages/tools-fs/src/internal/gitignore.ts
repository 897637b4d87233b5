import { type FileSystem, FileSystemError } from "../file-system.js";

/**
 * A small `.gitignore` matcher over any {@link FileSystem} seam, for the JS search fallback and
 * `list_directory`. It follows git's rules: blank lines and `#` comments skipped, `\#` / `\!`
 * escapes, trailing spaces trimmed (unless escaped), `!` re-includes, a trailing `/` matches
 * directories only, a pattern with a `/` at the start or in the middle is anchored to the
 * directory of its ignore file (otherwise it matches a name at any depth below it), `*` / `?` /
 * `[…]` stay within one segment, `**` spans directories, the last matching rule wins, rules of a
 * deeper ignore file beat shallower ones, and nothing inside an ignored directory can be
 * re-included. `.gitignore` and `.ignore` files are read (as ripgrep does).
 *
 * @internal
 */

/** The ignore files read in every directory, in order (later files win). */
export const IGNORE_FILE_NAMES: readonly string[] = [".gitignore", ".ignore"];

/** One parsed line of an ignore file. */
export interface IgnoreRule {
  /** The directory holding the ignore file (workspace path, `""` for the root). */
  base: string;
  /** Matches a path relative to `base`. */
  regExp: RegExp;
  /** A `!` rule: re-includes what earlier rules ignored. */
  negated: boolean;
  /** A rule ending in `/`: matches directories only. */
  directoryOnly: boolean;
  /** The line as written, for messages. */
  source: string;
}

/** One piece of a compiled ignore pattern. */
type IgnoreNode =
  | { kind: "one"; test: (character: string) => boolean }
  | { kind: "star"; test: (character: string) => boolean }
  | { kind: "dirs" };

const notSlash = (character: string): boolean => character !== "/";
const anyCharacter = (): boolean => true;

function classTest(inner: string): (character: string) => boolean {
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^[${inner.replace(/\\/g, "\\\\")}]$`);
  } catch {
    return () => false;
  }
  return (character) => pattern.test(character);
}

/** Parses a pattern body into nodes (and the equivalent regular-expression source, for messages). */
function segmentPatternToNodes(pattern: string): { nodes: IgnoreNode[]; source: string } {
  const nodes: IgnoreNode[] = [];
  let source = "";
  const literal = (character: string) => {
    nodes.push({ kind: "one", test: (candidate) => candidate === character });
    source += character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  };
  for (let index = 0; index < pattern.length; index += 1) {
    const character = pattern[index] as string;
    if (character === "\\" && index + 1 < pattern.length) {
      index += 1;
      literal(pattern[index] as string);
    } else if (character === "*") {
      if (pattern[index + 1] === "*") {
        const atSegmentStart = index === 0 || pattern[index - 1] === "/";
        const followedBySlash = pattern[index + 2] === "/";
        const atEnd = index + 2 === pattern.length;
        if (atSegmentStart && followedBySlash) {
          // `**/**/…/` is one `**/`
          if (nodes.at(-1)?.kind !== "dirs") {
            nodes.push({ kind: "dirs" });
            source += "(?:.*/)?";
          }
          index += 2;
          continue;
        }
        if (atSegmentStart && atEnd) {
          nodes.push({ kind: "star", test: anyCharacter });
          source += ".*";
          index += 1;
          continue;
        }
      }
      const previous = nodes.at(-1);
      if (previous?.kind !== "star") {
        nodes.push({ kind: "star", test: notSlash });
        source += "[^/]*";
      }
    } else if (character === "?") {
      nodes.push({ kind: "one", test: notSlash });
      source += "[^/]";
    } else if (character === "[") {
      const end = pattern.indexOf("]", index + 2);
      if (end === -1) literal("[");
      else {
        let inner = pattern.slice(index + 1, end);
        if (inner.startsWith("!")) inner = `^${inner.slice(1)}`;
        nodes.push({ kind: "one", test: classTest(inner) });
        source += `[${inner.replace(/\\/g, "\\\\")}]`;
        index = end;
      }
    } else {
      literal(character);
    }
  }
  return { nodes, source };
}

/** A state of an ignore pattern's automaton: `test` + `next` consumes a character; `epsilon` moves freely. */
interface IgnoreState {
  test?: (character: string) => boolean;
  next: number;
  epsilon?: number[];
}

/**
 * An ignore pattern matched by simulating its automaton over every state at once: linear in the
 * path whatever the line says (`*a*a*a*a*a*b` used to backtrack for minutes on a long name).
 */
class IgnorePattern extends RegExp {
  readonly #states: IgnoreState[] = [{ next: -1 }];
  readonly #start: number;
  readonly #marks: number[];
  #generation = 0;

  constructor(nodes: readonly IgnoreNode[], source: string) {
    super(source);
    let target = 0;
    for (let index = nodes.length - 1; index >= 0; index -= 1) {
      const node = nodes[index] as IgnoreNode;
      if (node.kind === "one") target = this.#push({ test: node.test, next: target });
      else {
        const split = this.#push({ next: -1, epsilon: [] });
        const loop = this.#push({
          test: node.kind === "star" ? node.test : anyCharacter,
          next: split,
        });
        if (node.kind === "star") (this.#states[split] as IgnoreState).epsilon = [loop, target];
        else {
          // (?:.*/)? : either nothing, or anything then a slash
          const slash = this.#push({ test: (character) => character === "/", next: target });
          (this.#states[split] as IgnoreState).epsilon = [loop, slash];
          target = this.#push({ next: -1, epsilon: [split, target] });
          continue;
        }
        target = split;
      }
    }
    this.#start = target;
    this.#marks = new Array<number>(this.#states.length).fill(-1);
  }

  #push(state: IgnoreState): number {
    this.#states.push(state);
    return this.#states.length - 1;
  }

  #add(set: number[], state: number): void {
    if (this.#marks[state] === this.#generation) return;
    this.#marks[state] = this.#generation;
    const { epsilon } = this.#states[state] as IgnoreState;
    if (epsilon === undefined) set.push(state);
    else for (const target of epsilon) this.#add(set, target);
  }

  override test(text: string): boolean {
    const input = String(text);
    this.#generation += 1;
    let current: number[] = [];
    this.#add(current, this.#start);
    for (let index = 0; index < input.length && current.length > 0; index += 1) {
      const character = input[index] as string;
      this.#generation += 1;
      const next: number[] = [];
      for (const state of current) {
        const { test, next: target } = this.#states[state] as IgnoreState;
        if (test?.(character) === true) this.#add(next, target);
      }
      current = next;
    }
    return current.length > 0 && this.#marks[0] === this.#generation;
  }

  override exec(text: string): RegExpExecArray | null {
    const input = String(text);
    if (!this.test(input)) return null;
    const match = [input] as unknown as RegExpExecArray;
    match.index = 0;
    match.input = input;
    return match;
  }
}

/**
 * Parses the text of one ignore file.
 *
 * @param text - the file's content
 * @param base - the workspace path of the directory holding it (`""` for the root)
 * @returns the rules, in file order
 * @example
 * parseIgnoreFile("node_modules/\n!keep.log\n*.log", ""); // three rules
 */
export function parseIgnoreFile(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine;
    if (line.length === 0 || line.startsWith("#")) continue;
    // Trailing spaces are ignored unless escaped with a backslash.
    let end = line.length;
    while (end > 0 && /\s/.test(line[end - 1] as string)) end -= 1;
    if (end < line.length && end > 0 && line[end - 1] === "\\") end += 1;
    line = line.slice(0, end);
    if (line.length === 0) continue;
    let negated = false;
    if (line.startsWith("!")) {
      negated = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let directoryOnly = false;
    if (line.endsWith("/")) {
      directoryOnly = true;
      line = line.replace(/\/+$/, "");
    }
    if (line.length === 0) continue;
    const anchored = line.includes("/");
    const body = line.replace(/^\/+/, "");
    if (body.length === 0) continue;
    const unanchored = !(anchored || body.startsWith("**/"));
    let regExp: RegExp;
    try {
      const parsed = segmentPatternToNodes(body);
      const nodes: IgnoreNode[] = unanchored ? [{ kind: "dirs" }, ...parsed.nodes] : parsed.nodes;
      regExp = new IgnorePattern(nodes, `^${unanchored ? "(?:.*/)?" : ""}${parsed.source}$`);
    } catch {
      continue; // a malformed line is skipped, as git does
    }
    rules.push({ base, regExp, negated, directoryOnly, source: rawLine });
  }
  return rules;
}

/**
 * Reads the ignore files (`.gitignore`, `.ignore`) of one directory. Missing or unreadable files
 * give no rules.
 *
 * @param fileSystem - the seam
 * @param directory - a workspace path (`""` for the root)
 * @param present - when the directory was just listed: whether a name is in it (an ignore file
 *   not in the listing is not looked for)
 * @returns the directory's rules, in order
 * @example
 * const rules = await loadIgnoreRules(fileSystem, "src");
 */
export async function loadIgnoreRules(
  fileSystem: FileSystem,
  directory: string,
  present?: (name: string) => boolean,
): Promise<IgnoreRule[]> {
  const rules: IgnoreRule[] = [];
  for (const name of IGNORE_FILE_NAMES) {
    if (present !== undefined && !present(name)) continue;
    const path = directory.length === 0 ? name : `${directory}/${name}`;
    try {
      const stat = await fileSystem.stat(path);
      if (stat === undefined || stat.type !== "file" || stat.size > 1_048_576) continue;
      const text = new TextDecoder().decode(await fileSystem.readFile(path));
      rules.push(...parseIgnoreFile(text, directory));
    } catch (error) {
      if (!FileSystemError.isInstance(error)) throw error;
    }
  }
  return rules;
}

/**
 * Applies rules to one path (its ancestors are not looked at).
 *
 * @param rules - rules from the root down (deeper files last)
 * @param path - a workspace path
 * @param isDirectory - whether the path is a directory
 * @returns `true` ignored, `false` re-included by a `!` rule, `undefined` no rule matched
 */
export function matchIgnoreRules(
  rules: readonly IgnoreRule[],
  path: string,
  isDirectory: boolean,
): boolean | undefined {
  for (let index = rules.length - 1; index >= 0; index -= 1) {
    const rule = rules[index] as IgnoreRule;
    if (rule.directoryOnly && !isDirectory) continue;
    let relative: string;
    if (rule.base.length === 0) relative = path;
    else if (path.startsWith(`${rule.base}/`)) relative = path.slice(rule.base.length + 1);
    else continue;
    if (rule.regExp.test(relative)) return !rule.negated;
  }
  return undefined;
}

/** Tells whether workspace paths are ignored by the `.gitignore` / `.ignore` files above them. */
export interface IgnoreMatcher {
  /**
   * Whether a workspace path is ignored: by a rule of an ignore file in any directory from the
   * root down to its parent, or because one of its parent directories is ignored. The root is
   * never ignored. Ignore files are read once and cached.
   *
   * @param path - a workspace path
   * @param isDirectory - whether it is a directory (for rules ending in `/`)
   */
  isIgnored(path: string, isDirectory: boolean): Promise<boolean>;
  /**
   * The rules that apply to the entries of a directory (root's first, the directory's last).
   * `present`, when the directory was just listed, tells which names it holds: its own ignore
   * files are then looked for only if listed (the first call for a directory decides).
   */
  rulesFor(directory: string, present?: (name: string) => boolean): Promise<readonly IgnoreRule[]>;
}

/**
 * Creates a cached `.gitignore` matcher over a seam.
 *
 * @param fileSystem - the seam whose ignore files to read
 * @returns the matcher
 * @example
 * const matcher = createIgnoreMatcher(workspace.fileSystem);
 * if (await matcher.isIgnored("node_modules/react/index.js", false)) skip();
 */
export function createIgnoreMatcher(fileSystem: FileSystem): IgnoreMatcher {
  const chains = new Map<string, Promise<readonly IgnoreRule[]>>();
  const directoryDecisions = new Map<string, Promise<boolean>>();

  function rulesFor(
    directory: string,
    present?: (name: string) => boolean,
  ): Promise<readonly IgnoreRule[]> {
    let chain = chains.get(directory);
    if (chain === undefined) {
      const slash = directory.lastIndexOf("/");
      const parent =
        directory.length === 0 ? undefined : slash === -1 ? "" : directory.slice(0, slash);
      chain = (async () => {
        const inherited = parent === undefined ? [] : await rulesFor(parent);
        const own = await loadIgnoreRules(fileSystem, directory, present);
        return own.length === 0 ? inherited : [...inherited, ...own];
      })();
      chains.set(directory, chain);
    }
    return chain;
  }

  async function decide(path: string, isDirectory: boolean): Promise<boolean> {
    const slash = path.lastIndexOf("/");
    const parent = slash === -1 ? "" : path.slice(0, slash);
    if (parent.length > 0 && (await directoryIgnored(parent))) return true;
    return matchIgnoreRules(await rulesFor(parent), path, isDirectory) === true;
  }

  function directoryIgnored(directory: string): Promise<boolean> {
    let decision = directoryDecisions.get(directory);
    if (decision === undefined) {
      decision = decide(directory, true);
      directoryDecisions.set(directory, decision);
    }
    return decision;
  }

  return {
    rulesFor,
    isIgnored(path, isDirectory) {
      if (path.length === 0) return Promise.resolve(false);
      return isDirectory ? directoryIgnored(path) : decide(path, false);
    },
  };
}
