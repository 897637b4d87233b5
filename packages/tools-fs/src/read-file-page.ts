import { formatCount, formatPageMarker, type PageInfo } from "@agentool/contract";
import { numberLine } from "./internal/line-index.js";
import {
  cutLineMarker,
  type PageCollector,
  type PageFacts,
  type ReadFileCutLine,
} from "./internal/read-page.js";
import {
  encodingLabel,
  type LineEnding,
  SHORT_SHA_LENGTH,
  type TextEncodingName,
} from "./internal/text-codec.js";
import { formatSize } from "./internal/tool-support.js";

/** The default name of the read tool. */
export const READ_FILE_TOOL_NAME = "read_file";

/** Default page length in lines, when the model sends no `limit`. */
export const DEFAULT_READ_LIMIT = 400;

export type { ReadFileCutLine };

/** One page of a file, as `read_file` returns it. */
export interface ReadFileToolData extends PageInfo {
  /** The path as shown to the model. */
  path: string;
  /**
   * The page's text as it is in the file: its lines with their own line endings (the last one
   * without when the file has none), no line numbers. A line listed in `cut_lines` holds only
   * its first characters. Empty for an empty file.
   */
  content: string;
  /**
   * First line on the page (1-based; 0 for an empty file). Negative when the page is a tail of a
   * file whose lines were not counted: then lines are numbered from the end (-1 is the last).
   */
  start_line: number;
  /** Last line on the page (0 for an empty file; negative when numbered from the end). */
  end_line: number;
  /** The page size that applied (the `limit` asked for, or the default). */
  limit: number;
  /**
   * Present when a negative `offset` counted back past the first line: the offset asked for.
   * The page then starts at line 1 (the whole file is the tail).
   */
  requested_offset?: number;
  /** Lines in the file (exact); absent when only a lower bound is known (`total_at_least`). */
  total?: number;
  /**
   * A lower bound on the lines, for a file over `fullPassMaxBytes` whose lines were not all
   * counted yet (a page reads only as far as it needs).
   */
  total_at_least?: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether lines after this page were left out (then `next_offset` is set). */
  truncated: boolean;
  /** The file's encoding. */
  encoding: TextEncodingName;
  /** The file's line endings (for a streamed file: of its first chunk). */
  line_ending: LineEnding;
  /**
   * sha-256 of the whole file, lower-case hex (pass a 12+ character prefix as `expected_sha`).
   * Absent for a file over `fullPassMaxBytes` (hashing it would cost a full pass; the edit tools
   * hash what they load themselves).
   */
  sha?: string;
  /** The file's size in bytes. */
  bytes: number;
  /** Whether some bytes (on this page, for a streamed file) were invalid and shown as U+FFFD. */
  invalid_bytes: boolean;
  /** The lines of the page that were cut for length, in order. */
  cut_lines: ReadFileCutLine[];
  /** Whether the file was paged by streaming (larger than the stream threshold). */
  streamed: boolean;
  /**
   * Present (`true`) when lines of this page belong to a private key (`-----BEGIN … PRIVATE
   * KEY-----` to its END line, or a PuTTY key): each such line reads `[private key redacted]`.
   */
  redacted_private_keys?: true;
}

/** How the rendered page looks: the tool's name and the tools its notes may name. */
export interface ReadFileFormatOptions {
  /** The tool that serves the next page. Default `"read_file"`. */
  tool?: string;
  /** Whether `grep_search` is mounted (named in the note of a cut line). Default `false`. */
  grepSearch?: boolean;
}

function formatHeader(data: ReadFileToolData): string {
  const details = [encodingLabel(data.encoding)];
  if (data.line_ending === "crlf") details.push("CRLF line endings");
  if (data.line_ending === "mixed") details.push("mixed line endings");
  if (data.invalid_bytes) details.push("invalid bytes shown as \uFFFD");
  if (data.sha !== undefined) details.push(`sha: ${data.sha.slice(0, SHORT_SHA_LENGTH)}`);
  else
    details.push(
      `${formatSize(data.bytes)}${data.total === undefined ? ", lines not all counted" : ""}, no sha`,
    );
  const range =
    data.total === 0
      ? "empty file, 0 lines"
      : data.start_line < 0
        ? `lines ${data.start_line} to ${data.end_line} counted from the end (-1 is the last line; more than ${(data.total_at_least ?? -data.start_line) - 1} lines in all; other tools number lines from the start)`
        : `lines ${data.start_line}–${data.end_line} of ${data.total ?? `at least ${data.total_at_least ?? data.end_line}`}`;
  return `${data.path} — ${range} (${details.join(", ")})`;
}

/** The page's lines as shown: each line of `content` without its line break. */
function pageLines(content: string): string[] {
  if (content.length === 0) return [];
  const lines = content.split("\n");
  if (content.endsWith("\n")) lines.pop();
  return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

/**
 * Renders a page for the model: the header, the numbered lines (`cat -n` style; a cut line ends
 * with the standard marker) and, when lines remain, the page marker naming the exact next call.
 *
 * @param data - the read tool's result data
 * @param options - the tool's name and whether grep_search is mounted
 * @returns model-facing text
 * @example
 * formatReadFilePage(data);
 * // "src/a.ts — lines 1–400 of 1234 (utf-8, sha: 0123456789ab)\n     1\timport …\n…[truncated: 834 more lines — call read_file again with offset=401]"
 */
export function formatReadFilePage(
  data: ReadFileToolData,
  options: ReadFileFormatOptions = {},
): string {
  const header = formatHeader(data);
  if (data.total === 0) return `${header}\n(The file is empty: it has no lines.)`;
  const note =
    data.requested_offset === undefined
      ? ""
      : `\n(offset=${data.requested_offset} counts back past the first line: the file has ${formatCount(data.total ?? data.end_line)} lines, so the page starts at line 1.)`;
  const cuts = new Map(data.cut_lines.map((cut) => [cut.line, cut]));
  const numbered = pageLines(data.content).map((line, index) => {
    const number = data.start_line + index;
    const cut = cuts.get(number);
    return numberLine(
      number,
      cut === undefined ? line : `${line} ${cutLineMarker(cut, options.grepSearch === true)}`,
    );
  });
  const marker =
    data.next_offset === undefined
      ? ""
      : `\n${formatPageMarker({
          tool: options.tool ?? READ_FILE_TOOL_NAME,
          nextOffset: data.next_offset,
          ...(data.end_line < 0
            ? { omitted: -data.end_line - 1 }
            : data.total !== undefined
              ? { omitted: data.total - data.end_line }
              : {
                  omitted: Math.max(1, (data.total_at_least ?? 0) - data.end_line),
                  atLeast: true,
                }),
          unit: "lines",
          args: { path: data.path, limit: data.limit },
        })}`;
  return `${header}${note}\n${numbered.join("\n")}${marker}`;
}

/**
 * The page's data from its collected lines and the facts of its file.
 *
 * @param path - the path as shown to the model
 * @param page - the collected lines
 * @param offset - the number of the page's first line
 * @param limit - the page size that applied
 * @param facts - the file's facts; `more` tells whether lines follow the page (default: the page
 *   ends before `total`); without an exact `total`, `total_at_least` is the lower bound
 * @returns the data
 * @internal
 */
export function readFilePageData(
  path: string,
  page: PageCollector,
  offset: number,
  limit: number,
  facts: PageFacts,
): ReadFileToolData {
  const shown = page.shown;
  const endLine = shown === 0 ? 0 : offset + shown - 1;
  const data: ReadFileToolData = {
    path,
    content: page.content,
    start_line: shown === 0 ? 0 : offset,
    end_line: endLine,
    limit,
    truncated: false,
    encoding: facts.encoding,
    line_ending: facts.line_ending,
    bytes: facts.bytes,
    invalid_bytes: facts.invalid_bytes,
    cut_lines: page.cutLines,
    streamed: facts.streamed,
  };
  if (facts.total !== undefined) data.total = facts.total;
  else data.total_at_least = Math.max(facts.total_at_least ?? 0, endLine, 0);
  if (facts.sha !== undefined) data.sha = facts.sha;
  const more = facts.more ?? (facts.total !== undefined && endLine < facts.total);
  if (more && shown > 0) {
    data.next_offset = endLine + 1;
    data.truncated = true;
  }
  if (page.redacted) data.redacted_private_keys = true;
  return data;
}
