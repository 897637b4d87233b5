import { formatCount, formatCountOf, formatPageMarker, truncateText } from "@agentool/contract";
import type { AstSearchToolData } from "../../ast-search.js";
import type { AstCapture, AstMatch } from "./match-record.js";

/** The default name of the structural search tool. */
export const AST_SEARCH_TOOL_NAME = "ast_search";

/** Default cap on the rendered result, in characters (a page is shortened to fit it). */
export const DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS = 40_000;

/** Numbers a line like read_file does (six columns, a tab). */
export function numberLine(line: number, text: string): string {
  return `${String(line).padStart(6)}\t${text}`;
}

function renderCapture(capture: AstCapture, oneLine: boolean): string {
  const sigil = capture.multiple ? "$$$" : "$";
  if (capture.text.length === 0) return `  ${sigil}${capture.name} = (empty)`;
  const lines = capture.text.split("\n");
  const shown = (lines[0] as string).replace(/\r$/, "");
  const more = lines.length > 1 ? ` … (+${formatCountOf(lines.length - 1, "line")})` : "";
  const cut = capture.cut !== undefined && lines.length === 1 ? " …" : "";
  const where = capture.line === undefined || oneLine ? "" : `  (line ${capture.line})`;
  return `  ${sigil}${capture.name} = ${shown}${cut}${more}${where}`;
}

/** Matches after this many on one line show only their position and captures. */
const MAX_SHOWN_PER_LINE = 3;

function renderMatch(
  path: string,
  match: AstMatch,
  sameLine: { column: boolean; elide: boolean },
): string {
  const oneLine = match.start_line === match.end_line;
  const range = oneLine
    ? `${path}:${match.start_line}${sameLine.column ? `:${match.start_column}` : ""}`
    : `${path}:${match.start_line}-${match.end_line}`;
  const captures = match.captures.map((capture) => renderCapture(capture, oneLine));
  if (oneLine && sameLine.elide) return [`${range}  (line shown above)`, ...captures].join("\n");
  const lines = match.text
    .split("\n")
    .map((text, index) => numberLine(match.start_line + index, text));
  if (match.omitted_lines > 0)
    lines.push(
      `      …\t(${formatCountOf(match.omitted_lines, "more line")} of this match, to line ${match.end_line})`,
    );
  return [range, ...lines, ...captures].join("\n");
}

/** A file's matches; several on one line are told apart by column, and the line shown a few times only. */
function renderFile(path: string, matches: readonly AstMatch[]): string[] {
  let run = 0;
  return matches.map((match, index) => {
    run = matches[index - 1]?.start_line === match.start_line ? run + 1 : 0;
    const column = run > 0 || matches[index + 1]?.start_line === match.start_line;
    return renderMatch(path, match, { column, elide: run >= MAX_SHOWN_PER_LINE });
  });
}

function renderHead(data: AstSearchToolData): string {
  const what = `${JSON.stringify(data.pattern)} (${data.language}) in ${data.path}`;
  if (data.offset === 1 && !data.truncated && data.total !== undefined)
    return `${formatCountOf(data.total, "match", "matches")} in ${formatCountOf(data.total_files ?? data.files.length, "file")} for ${what}:`;
  const end = data.offset + data.match_count - 1;
  const of =
    data.total !== undefined
      ? `${formatCount(data.total)}${data.total_files === undefined ? "" : ` (in ${formatCountOf(data.total_files, "file")})`}`
      : `at least ${formatCount(data.total_at_least ?? end)}`;
  return `Matches ${formatCount(data.offset)}–${formatCount(end)} of ${of} for ${what}, sorted by path:`;
}

/**
 * Renders an `ast_search` result for the model: a summary line with exact counts (or "at least"
 * when the scan stopped at the match cap), then each match as `path:start-end`, its lines
 * numbered like read_file and one `$NAME = …` line per capture, then the contract's page marker
 * naming the next call when the page is cut, and any note (caps reached, files skipped).
 *
 * @param data - the tool's data
 * @param maxOutputCharacters - cap on the text
 * @param toolName - the tool's name, for the next call the marker names
 * @returns model-facing text
 * @example
 * formatAstSearchResult(data);
 * // "2 matches in 1 file for \"console.log($$$ARGS)\" (typescript) in .:\nsrc/a.ts:3\n     3\tconsole.log(x)\n  $$$ARGS = x\n…"
 */
export function formatAstSearchResult(
  data: AstSearchToolData,
  maxOutputCharacters: number = DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS,
  toolName: string = AST_SEARCH_TOOL_NAME,
): string {
  if (data.files.length === 0) {
    const head = `No match for ${JSON.stringify(data.pattern)} (${data.language}) in ${data.path}.`;
    return data.message === undefined ? head : `${head}\n${data.message}`;
  }
  const body = data.files.flatMap((file) => renderFile(file.path, file.matches)).join("\n\n");
  let text = truncateText(`${renderHead(data)}\n${body}`, {
    maxCharacters: maxOutputCharacters,
    next: "narrow the path or the pattern, or lower limit",
  }).text;
  if (data.next_offset !== undefined) {
    const all = data.total ?? data.total_at_least ?? data.next_offset;
    const omitted = Math.max(1, all - data.next_offset + 1);
    text += `\n${formatPageMarker({
      tool: toolName,
      nextOffset: data.next_offset,
      omitted,
      unit: omitted === 1 && data.total !== undefined ? "match" : "matches",
      atLeast: data.total === undefined,
      args: { pattern: data.pattern, language: data.language, path: data.path, limit: data.limit },
    })}`;
  }
  return data.message === undefined ? text : `${text}\n${data.message}`;
}
