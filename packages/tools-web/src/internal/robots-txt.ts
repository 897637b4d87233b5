/**
 * A robots.txt parser and matcher after RFC 9309: groups of `user-agent` lines with their
 * `allow` / `disallow` rules, the crawler's group found by its product token (case-insensitive;
 * every matching group combined, else every `*` group), and the longest matching rule decides
 * (`allow` wins a tie). Patterns take `*` (any run of characters) and a final `$` (the end).
 * Matching is linear in the path and the pattern (no expressions), and the wildcard rules of one
 * check scan at most {@link ROBOTS_MATCH_BUDGET} characters, so a hostile file cannot stall it.
 * Each rule keeps its line, so a refusal can name it.
 */

/** One `user-agent` line. */
export interface RobotsAgentLine {
  /** 1-based line number. */
  line: number;
  /** The line as written (trimmed, without its comment). */
  text: string;
}

/** One `allow` / `disallow` rule. */
export interface RobotsRule {
  /** Whether it allows (`allow:`) or disallows (`disallow:`). */
  allow: boolean;
  /** The path pattern, percent-encoding normalised. */
  pattern: string;
  /** 1-based line number. */
  line: number;
  /** The line as written (trimmed, without its comment). */
  text: string;
  /** The group's first `user-agent` line. */
  group: RobotsAgentLine;
}

/** A group: its `user-agent` lines and its rules. */
interface RobotsGroup {
  agents: RobotsAgentLine[];
  tokens: string[];
  rules: RobotsRule[];
}

/** A parsed robots.txt. */
export interface RobotsTxt {
  /** The groups, in file order. */
  groups: readonly RobotsGroup[];
}

/** The verdict on one path. */
export interface RobotsVerdict {
  /** Whether the crawler may fetch it. */
  allowed: boolean;
  /** The rule that decided, when one matched. */
  rule?: RobotsRule;
  /** The file has more wildcard rules than can be checked against this path in time: disallowed. */
  tooComplex?: boolean;
}

/**
 * Most characters of path that wildcard rules may scan in one check (their count times the
 * path's length): about 0.1 s. A file past it is judged disallowed for that path — only a file
 * built to stall its readers gets there (tens of thousands of wildcard rules, or a very long URL).
 */
export const ROBOTS_MATCH_BUDGET = 32_000_000;

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * Normalises percent-encoding as RFC 9309 §2.2.2 asks before comparing: characters outside
 * US-ASCII are percent-encoded (UTF-8), an encoded unreserved character is decoded, and the hex
 * digits of the other escapes are upper-cased. Applied to patterns and paths alike.
 *
 * @param value - a path or a pattern
 * @returns the normalised text
 */
export function normalizeRobotsPath(value: string): string {
  let out = "";
  for (let index = 0; index < value.length; index += 1) {
    const character = value[index] as string;
    const code = value.charCodeAt(index);
    if (character === "%" && HEX.test(value.slice(index + 1, index + 3))) {
      const decoded = String.fromCharCode(Number.parseInt(value.slice(index + 1, index + 3), 16));
      out += UNRESERVED.test(decoded)
        ? decoded
        : `%${value.slice(index + 1, index + 3).toUpperCase()}`;
      index += 2;
    } else if (code > 0x7e || code < 0x21) {
      const pair = code >= 0xd800 && code <= 0xdbff ? value.slice(index, index + 2) : character;
      try {
        out += encodeURIComponent(pair);
      } catch {
        out += "%EF%BF%BD";
      }
      index += pair.length - 1;
    } else {
      out += character;
    }
  }
  return out;
}

/** The product token of a user-agent value: its leading letters, `_` and `-`, lower-cased. */
export function productToken(value: string): string {
  return (/^[A-Za-z_-]+/.exec(value.trim())?.[0] ?? "").toLowerCase();
}

/**
 * Parses a robots.txt. Lines are `key: value`; `#` starts a comment; keys are case-insensitive;
 * rules before any `user-agent` line, empty `disallow:` values and unknown keys are ignored.
 *
 * @param text - the file
 * @returns the groups
 */
export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  let current: RobotsGroup | undefined;
  let agentsOpen = false;
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const hash = (lines[index] as string).indexOf("#");
    const written = (
      hash === -1 ? (lines[index] as string) : (lines[index] as string).slice(0, hash)
    ).trim();
    const colon = written.indexOf(":");
    if (colon === -1) continue;
    const key = written.slice(0, colon).trim().toLowerCase();
    const value = written.slice(colon + 1).trim();
    const line = index + 1;
    if (key === "user-agent") {
      if (current === undefined || !agentsOpen) {
        current = { agents: [], tokens: [], rules: [] };
        groups.push(current);
      }
      current.agents.push({ line, text: written });
      current.tokens.push(value === "*" ? "*" : productToken(value));
      agentsOpen = true;
    } else if (key === "allow" || key === "disallow") {
      agentsOpen = false;
      if (current === undefined || value === "") continue;
      current.rules.push({
        allow: key === "allow",
        pattern: normalizeRobotsPath(value),
        line,
        text: written,
        group: current.agents[0] as RobotsAgentLine,
      });
    }
  }
  return { groups };
}

/**
 * Whether a `*` / `$` pattern matches the start of a path, in linear time: the text before the
 * first `*` must start the path, each later piece is found leftmost after the previous one, and
 * with a final `$` the last piece must end the path.
 *
 * @param pattern - a normalised pattern
 * @param path - a normalised path (with its query)
 * @returns `true` when it matches
 */
export function matchesRobotsPattern(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith("$");
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split("*");
  const first = pieces[0] as string;
  if (!path.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || path.length === first.length;
  let position = first.length;
  const last = pieces.length - 1;
  for (let index = 1; index < last; index += 1) {
    const piece = pieces[index] as string;
    if (piece === "") continue;
    const found = path.indexOf(piece, position);
    if (found === -1) return false;
    position = found + piece.length;
  }
  const tail = pieces[last] as string;
  if (!anchored) return path.indexOf(tail, position) !== -1;
  return path.length - tail.length >= position && path.endsWith(tail);
}

/**
 * Decides whether a crawler may fetch a path: the rules of every group naming its product token
 * (else of every `*` group), the longest matching pattern wins, `allow` on a tie, and no match
 * allows. `/robots.txt` itself is always allowed. Past {@link ROBOTS_MATCH_BUDGET}, disallowed
 * with `tooComplex`.
 *
 * @param robots - the parsed file
 * @param token - the crawler's product token (e.g. `"agentool-tools-web"`)
 * @param path - the URL's path and query, as `URL` writes them
 * @returns the verdict and the deciding rule
 */
export function checkRobots(robots: RobotsTxt, token: string, path: string): RobotsVerdict {
  if (path === "/robots.txt") return { allowed: true };
  const wanted = token.toLowerCase();
  let groups = robots.groups.filter((group) => group.tokens.includes(wanted));
  if (groups.length === 0) groups = robots.groups.filter((group) => group.tokens.includes("*"));
  const target = normalizeRobotsPath(path);
  let best: RobotsRule | undefined;
  let scanned = 0;
  for (const group of groups) {
    for (const rule of group.rules) {
      if (rule.pattern.includes("*")) {
        scanned += target.length;
        if (scanned > ROBOTS_MATCH_BUDGET) return { allowed: false, tooComplex: true };
      }
      if (!matchesRobotsPattern(rule.pattern, target)) continue;
      if (
        best === undefined ||
        rule.pattern.length > best.pattern.length ||
        (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)
      ) {
        best = rule;
      }
    }
  }
  if (best === undefined) return { allowed: true };
  return { allowed: best.allow, rule: best };
}
