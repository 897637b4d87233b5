import {
  formatCount,
  formatCountOf,
  formatPageMarker,
  formatTruncationMarker,
  nextCallArguments,
  truncateText,
} from "@agentool/contract";
import type { GrepSearchToolData } from "./grep-search.js";
import type { SearchLine } from "./internal/search-types.js";
import { echoPattern } from "./internal/tool-support.js";

/** The default name of the search tool. */
export const GREP_SEARCH_TOOL_NAME = "grep_search";

/** Default cap on the rendered result, in characters (a page is shortened to fit it). */
export const DEFAULT_GREP_MAX_OUTPUT_CHARACTERS = 40_000;

const count = (value: number) => formatCount(value);

function renderLines(lines: readonly SearchLine[], separators: boolean): string {
  const out: string[] = [];
  let previous: number | undefined;
  for (const line of lines) {
    if (separators && previous !== undefined && line.line > previous + 1) out.push("--");
    let text = line.text;
    if (line.cut !== undefined) {
      // The data keeps the text as it is; the ellipses and the marker are presentation.
      const before = line.cut_start ?? 0;
      text = `${before > 0 ? "…" : ""}${text}${line.cut > before ? "…" : ""} ${formatTruncationMarker(
        {
          omitted: line.cut,
          unit: "characters",
          next: `line ${line.line} is too long to show whole`,
        },
      )}`;
    }
    out.push(`${line.line}${line.kind === "match" ? ":" : "-"} ${text}`);
    previous = line.line;
  }
  return out.join("\n");
}

function pageItems(data: GrepSearchToolData): number {
  return data.output_mode === "content" ? (data.match_count ?? 0) : data.files.length;
}

function renderHead(data: GrepSearchToolData): string {
  const where = `${data.path}${data.glob === undefined ? "" : ` (glob ${data.glob})`}`;
  const pattern = echoPattern(data.pattern);
  const whole = !data.truncated && data.offset === 1 && data.total !== undefined;
  const end = data.offset + pageItems(data) - 1;
  const of =
    data.total !== undefined ? count(data.total) : `at least ${count(data.total_at_least ?? end)}`;
  if (data.output_mode === "content") {
    if (whole)
      return `${formatCountOf(data.total ?? 0, "matching line")} in ${formatCountOf(data.total_files ?? data.files.length, "file")} for ${pattern} in ${where}:`;
    const files =
      data.total_files === undefined ? "" : ` (in ${formatCountOf(data.total_files, "file")})`;
    return `Matching lines ${count(data.offset)}–${count(end)} of ${of}${files} for ${pattern} in ${where}, sorted by path:`;
  }
  if (data.output_mode === "files_with_matches") {
    if (whole)
      return `${formatCountOf(data.files.length, "file")} contain${data.files.length === 1 ? "s" : ""} ${pattern} in ${where}:`;
    return `Files ${count(data.offset)}–${count(end)} of ${of} that contain ${pattern} in ${where}, sorted by path:`;
  }
  if (whole)
    return `${formatCountOf(data.total_matches ?? data.match_count ?? 0, "matching line")} in ${formatCountOf(data.files.length, "file")} for ${pattern} in ${where}:`;
  const inAll = data.total_matches === undefined ? "" : `; ${count(data.total_matches)} in all`;
  return `Files ${count(data.offset)}–${count(end)} of ${of} with matches for ${pattern} in ${where}, sorted by path (${formatCountOf(data.match_count ?? 0, "matching line")} in these ${formatCountOf(data.files.length, "file")}${inAll}):`;
}

/**
 * Renders a `grep_search` result for the model: a summary line (exact counts, or "at least"
 * when the search stopped early), then per file its path and its lines (`12: match`,
 * `13- context`, `--` between groups only when context lines are shown), or paths / counts,
 * and the contract's page marker naming the next call when the page is cut.
 *
 * @param data - the tool's data
 * @param maxOutputCharacters - cap on the text
 * @param toolName - the tool's name, for the next call the marker names
 * @returns model-facing text
 * @example
 * formatGrepSearchResult(data); // "3 matching lines in 2 files for \"TODO\" in .:\nsrc/a.ts\n12: // TODO…"
 */
export function formatGrepSearchResult(
  data: GrepSearchToolData,
  maxOutputCharacters: number = DEFAULT_GREP_MAX_OUTPUT_CHARACTERS,
  toolName: string = GREP_SEARCH_TOOL_NAME,
): string {
  if (data.files.length === 0) {
    const where = `${data.path}${data.glob === undefined ? "" : ` (glob ${data.glob})`}`;
    return data.message ?? `No match for ${echoPattern(data.pattern)} in ${where}.`;
  }
  let body: string;
  if (data.output_mode === "content") {
    const separators = (data.context_lines ?? 0) > 0;
    body = data.files
      .map((file) => `${file.path}\n${renderLines(file.lines ?? [], separators)}`)
      .join("\n\n");
  } else if (data.output_mode === "count") {
    body = data.files.map((file) => `${file.path}: ${file.count ?? 0}`).join("\n");
  } else {
    body = data.files.map((file) => file.path).join("\n");
  }
  let text = truncateText(`${renderHead(data)}\n${body}`, {
    maxCharacters: maxOutputCharacters,
    next: 'narrow the search with glob or path, lower context_lines, or use output_mode="files_with_matches"',
  }).text;
  if (data.next_offset !== undefined) {
    const all = data.total ?? data.total_at_least ?? data.next_offset;
    const omitted = Math.max(1, all - data.next_offset + 1);
    const unit =
      data.output_mode === "content"
        ? omitted === 1 && data.total !== undefined
          ? "match"
          : "matches"
        : omitted === 1 && data.total !== undefined
          ? "file"
          : "files";
    text += `\n${formatPageMarker({
      tool: toolName,
      nextOffset: data.next_offset,
      omitted,
      unit,
      atLeast: data.total === undefined,
      // Every argument that shapes the page (the limit always), so the marker followed
      // literally keeps it; a filter at its default is left out.
      args: nextCallArguments(
        {
          pattern: data.pattern,
          path: data.path,
          glob: data.glob,
          output_mode: data.output_mode,
          context_lines: data.context_lines,
          ignore_case: data.ignore_case,
          literal: data.literal,
          limit: data.limit,
        },
        {
          output_mode: "content",
          context_lines: 0,
          ignore_case: false,
          literal: false,
        },
      ),
    })}`;
  }
  return data.message === undefined ? text : `${text}\n${data.message}`;
}
