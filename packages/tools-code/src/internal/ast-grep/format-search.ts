import { formatCount, formatPageMarker, truncateText } from "@agentool/contract";
import type { AstSearchToolData } from "../../ast-search.js";
import type { AstCapture, AstMatch } from "./match-record.js";

/** The default name of the structural search tool. */
export const AST_SEARCH_TOOL_NAME = "ast_search";

/** Default cap on the rendered result, in characters (a page is shortened to fit it). */
export const DEFAULT_AST_SEARCH_MAX_OUTPUT_CHARACTERS = 40_000;

const plural = (value: number, one: string, many = `${one}s`) =>
  `${formatCount(value)} ${value === 1 ? one : many}`;

/** Numbers a line like read_file does (six columns, a tab). */
export function numberLine(line: number, text: string): string {
  return `${String(line).padStart(6)}\t${text}`;
}

function renderCapture(capture: AstCapture): string {
  const sigil = capture.multiple ? "$$$" : "$";
  if (capture.text.length === 0) return `  ${sigil}${capture.name} = (empty)`;
  const lines = capture.text.split("\n");
  const shown = (lines[0] as string).replace(/\r$/, "");
  const more = lines.length > 1 ? ` … (+${plural(lines.length - 1, "line")})` : "";
  const cut = capture.cut !== undefined && lines.length === 1 ? " …" : "";
  const where = capture.line === undefined ? "" : `  (line ${capture.line})`;
  return `  ${sigil}${capture.name} = ${shown}${cut}${more}${where}`;
}

function renderMatch(path: string, match: AstMatch): string {
  const range =
    match.start_line === match.end_line
      ? `${path}:${match.start_line}`
      : `${path}:${match.start_line}-${match.end_line}`;
  const lines = match.text
    .split("\n")
    .map((text, index) => numberLine(match.start_line + index, text));
  if (match.omitted_lines > 0)
    lines.push(
      `      …\t(${plural(match.omitted_lines, "more line")} of this match, to line ${match.end_line})`,
    );
  return [range, ...lines, ...match.captures.map(renderCapture)].join("\n");
}

function renderHead(data: AstSearchToolData): string {
  const what = `${JSON.stringify(data.pattern)} (${data.language}) in ${data.path}`;
  if (data.offset === 1 && !data.truncated && data.total !== undefined)
    return `${plural(data.total, "match", "matches")} in ${plural(data.total_files ?? data.files.length, "file")} for ${what}:`;
  const end = data.offset + data.match_count - 1;
  const of =
    data.total !== undefined
      ? `${formatCount(data.total)}${data.total_files === undefined ? "" : ` (in ${plural(data.total_files, "file")})`}`
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
 * // "2 matches in 1 file for \"console.log($$$ARGS)\" (typescript) in .:\nsrc/a.ts:3\n     3\tconsole.log(x)\n  $$$ARGS = x  (line 3)\n…"
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
  const body = data.files
    .flatMap((file) => file.matches.map((match) => renderMatch(file.path, match)))
    .join("\n\n");
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
