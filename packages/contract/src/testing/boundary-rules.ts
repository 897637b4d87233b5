import { NEXT_CALL_PATTERN, parseNextCall } from "../paging.js";
import { TRUNCATION_MARKER_PATTERN } from "../truncate.js";

/**
 * Every tool name the agentool families ship (landed and planned). The conformance kit looks for
 * these in descriptions: a description may name only tools mounted beside it.
 */
export const AGENTOOL_TOOL_NAMES: readonly string[] = [
  "think",
  "update_plan",
  "read_file",
  "write_file",
  "edit_file",
  "multi_edit",
  "create_directory",
  "list_directory",
  "delete_file",
  "move_file",
  "copy_file",
  "file_stats",
  "grep_search",
  "glob_search",
  "extract_toc",
  "count_words",
  "run_command",
  "git_status",
  "git_diff",
  "git_log",
  "git_show",
  "git_add",
  "git_commit",
  "git_branch",
  "web_search",
  "wiki_search",
  "web_fetch",
  "ask_user",
  "confirm",
  "notify",
  "search_knowledge",
  "search_memory",
  "remember",
  "memory_write",
  "memory_read",
  "memory_search",
  "memory_delete",
  "memory_list",
  "use_skill",
  "read_skill_file",
  "preview",
];

const SNAKE_CASE_KEY = /^[a-z0-9][a-z0-9_]*$/;

/**
 * Lists the keys of `value` (nested objects and arrays included) that are not snake_case, as
 * paths such as `entries[0].sizeBytes`.
 *
 * @param value - a tool's `data`
 * @returns the offending key paths (empty when every key is snake_case)
 */
export function findNonSnakeCaseKeys(value: unknown): string[] {
  const found: string[] = [];
  const seen = new Set<object>();
  const walk = (current: unknown, path: string, depth: number) => {
    if (typeof current !== "object" || current === null || depth > 32) return;
    if (seen.has(current)) return;
    seen.add(current);
    if (Array.isArray(current)) {
      for (const [index, item] of current.entries()) walk(item, `${path}[${index}]`, depth + 1);
      return;
    }
    if (current instanceof Uint8Array || current instanceof Date) return;
    for (const [key, item] of Object.entries(current)) {
      const here = path.length === 0 ? key : `${path}.${key}`;
      if (!SNAKE_CASE_KEY.test(key)) found.push(here);
      walk(item, here, depth + 1);
    }
  };
  walk(value, "", 0);
  return found;
}

const AD_HOC_MARKERS: readonly RegExp[] = [
  /\[truncated\b/gi,
  /\(truncated\b/gi,
  /\btruncated\]/gi,
  /\b(?:output|result|text|list|content) (?:was |is )?truncated\b/gi,
  /\b\d[\d,]* more (?:lines|entries|matches|files|commits|characters|bytes|results|items|branches)\b/gi,
];

/**
 * Finds truncation notes in rendered text that are not the contract's marker (a marker must come
 * from `formatTruncationMarker` / `formatPageMarker`).
 *
 * @param text - a rendered result
 * @returns the offending snippets
 */
export function findForeignMarkers(text: string): string[] {
  const standard: Array<[number, number]> = [];
  const global = new RegExp(TRUNCATION_MARKER_PATTERN.source, "g");
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    standard.push([match.index, match.index + match[0].length]);
  }
  const inside = (index: number) => standard.some(([start, end]) => index >= start && index < end);
  const found: string[] = [];
  for (const pattern of AD_HOC_MARKERS) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (!inside(match.index)) {
        found.push(text.slice(Math.max(0, match.index - 20), match.index + match[0].length + 20));
      }
    }
  }
  return found;
}

/**
 * The standard markers in rendered text, each with the next call it names (when it names one).
 *
 * @param text - a rendered result
 * @returns every marker found, in order
 */
export function findMarkers(
  text: string,
): Array<{ marker: string; next: ReturnType<typeof parseNextCall> }> {
  const global = new RegExp(TRUNCATION_MARKER_PATTERN.source, "g");
  const markers: Array<{ marker: string; next: ReturnType<typeof parseNextCall> }> = [];
  for (let match = global.exec(text); match !== null; match = global.exec(text)) {
    markers.push({
      marker: match[0],
      next: NEXT_CALL_PATTERN.test(match[0]) ? parseNextCall(match[0]) : undefined,
    });
  }
  return markers;
}

const SINGLE_WORD_NAME = /^[a-z]+$/;

/**
 * Finds tool names in a text (a description) that are not among the mounted ones. A name with an
 * underscore counts wherever it appears as a word; a one-word name (`confirm`, `notify`) only in
 * backticks or followed by "tool", so ordinary English does not count.
 *
 * @param text - a description
 * @param mounted - the names of the tools mounted beside it
 * @param known - every tool name to look for
 * @returns the absent tool names mentioned
 */
export function findAbsentToolNames(
  text: string,
  mounted: ReadonlySet<string>,
  known: readonly string[],
): string[] {
  const found: string[] = [];
  for (const name of known) {
    if (mounted.has(name)) continue;
    const pattern = SINGLE_WORD_NAME.test(name)
      ? new RegExp(`\`${name}\`|\\b${name} tool\\b`)
      : new RegExp(`(?<![a-z0-9_])${name}(?![a-z0-9_])`);
    if (pattern.test(text)) found.push(name);
  }
  return found;
}
