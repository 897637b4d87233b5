import { type IgnoreRule, matchIgnoreRules, parseIgnoreFile } from "../../internal/gitignore.js";
import { gitignoreLiteral } from "./gitignore-literal.js";

/**
 * The ignore files rg reads in a directory, by rank: rg lets a match of a higher rank win
 * (`.rgignore` over `.ignore` over `.gitignore` over `.git/info/exclude`), and within one rank
 * the deepest file's match.
 */
export const IGNORE_FILES = [
  { name: ".git/info/exclude", rank: 0 },
  { name: ".gitignore", rank: 1 },
  { name: ".ignore", rank: 2 },
  { name: ".rgignore", rank: 3 },
] as const;

/** Most pattern tests spent deciding which directories the check walks into (then it stops pruning). */
const MAX_PRUNING_TESTS = 200_000;

/** A line with its trailing unescaped whitespace removed (as git and rg read it). */
function trimLine(raw: string): string {
  let end = raw.length;
  while (end > 0 && /\s/.test(raw[end - 1] as string)) end -= 1;
  if (end < raw.length && end > 0 && raw[end - 1] === "\\") end += 1;
  return raw.slice(0, end);
}

/**
 * One ignore line of the directory `base` as a line of an ignore file read at the root: an
 * anchored pattern (a `/` at its start or middle) gets `/<base>/` before it, any other
 * `/<base>/**` + `/`, so it matches what it matched below `base` and nothing else.
 *
 * @param raw - the line as written
 * @param base - the directory of its ignore file (workspace path, `""` for the root)
 * @param unanchoredOnly - keep only patterns that match at any depth (files above the root)
 * @returns the line, or `undefined` for a blank line, a comment or a dropped pattern
 */
export function anchorIgnoreLine(
  raw: string,
  base: string,
  unanchoredOnly: boolean,
): string | undefined {
  let line = trimLine(raw);
  if (line.length === 0 || line.startsWith("#")) return undefined;
  let negation = "";
  if (line.startsWith("!")) {
    negation = "!";
    line = line.slice(1);
  }
  const withoutTrailingSlash = line.replace(/\/+$/, "");
  if (withoutTrailingSlash.length === 0) return undefined;
  const anchored = withoutTrailingSlash.includes("/");
  if (anchored && unanchoredOnly) return undefined;
  const body = line.replace(/^\/+/, "");
  if (base.length === 0) return `${negation}${anchored ? "/" : ""}${body}`;
  return `${negation}/${gitignoreLiteral(base)}/${anchored ? "" : "**/"}${body}`;
}

/**
 * The rules of the ignore files read safely for one search: as lines of one ignore file anchored
 * at the root (for rg, when it must read none itself), and parsed, to tell which directories are
 * ignored (for the check's walk).
 */
export class CollectedIgnoreRules {
  readonly #lines: string[][] = [[], [], [], []];
  readonly #parsed: IgnoreRule[][] = [[], [], [], []];
  #ordered: IgnoreRule[] | undefined;
  #testsLeft = MAX_PRUNING_TESTS;
  readonly #verdicts = new Map<string, boolean>();
  /** Characters of ignore text kept so far. */
  characters = 0;

  /**
   * Adds an ignore file's text.
   *
   * @param rank - its rank in {@link IGNORE_FILES}
   * @param text - its content
   * @param base - its directory (workspace path, `""` for the root)
   * @param outside - a file above the root: only its patterns that match at any depth are kept
   */
  add(rank: number, text: string, base: string, outside: boolean): void {
    const kept: string[] = [];
    for (const raw of text.split(/\r?\n/)) {
      const line = anchorIgnoreLine(raw, outside ? "" : base, outside);
      if (line !== undefined) {
        (this.#lines[rank] as string[]).push(line);
        kept.push(raw);
      }
    }
    this.characters += text.length;
    if (kept.length === 0) return;
    const parsed = parseIgnoreFile(kept.join("\n"), outside ? "" : base);
    (this.#parsed[rank] as IgnoreRule[]).push(...parsed);
    this.#ordered = undefined;
    this.#verdicts.clear();
  }

  /** Every kept line, lowest rank first, shallow files before deep ones (the last match wins). */
  lines(): string[] {
    return this.#lines.flat();
  }

  /**
   * Whether a directory is ignored (itself or a directory above it), as far as the rules read so
   * far and the pruning budget tell; `false` once the budget is spent.
   *
   * @param path - a workspace path
   * @returns whether rg would not enter it
   */
  isIgnoredDirectory(path: string): boolean {
    const known = this.#verdicts.get(path);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf("/");
    let ignored = slash !== -1 && this.isIgnoredDirectory(path.slice(0, slash));
    if (!ignored) {
      this.#ordered ??= this.#parsed.flat();
      this.#testsLeft -= this.#ordered.length;
      ignored = this.#testsLeft >= 0 && matchIgnoreRules(this.#ordered, path, true) === true;
    }
    this.#verdicts.set(path, ignored);
    return ignored;
  }
}
