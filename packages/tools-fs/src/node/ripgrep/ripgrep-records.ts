import {
  cutLine,
  isHiddenBelow,
  type SearchLine,
  type SearchRequest,
  type SearchScope,
} from "../../internal/search-types.js";

function decodeText(value: { text?: string; bytes?: string } | undefined): string {
  if (value === undefined) return "";
  if (typeof value.text === "string") return value.text;
  if (typeof value.bytes === "string") return Buffer.from(value.bytes, "base64").toString("utf8");
  return "";
}

/**
 * The workspace path of a path rg reports: ripgrep reports `./a.ts` when searching `.`
 * (workspace paths have no `./`), relative to where it runs (`prefix` puts the scope back).
 */
export function toWorkspacePath(reported: string, prefix: string): string {
  let path = reported.replace(/\\/g, "/");
  while (path.startsWith("./")) path = path.slice(2);
  if (prefix.length === 0) return path;
  return path.length === 0 || path === "." ? prefix.slice(0, -1) : `${prefix}${path}`;
}

/** Per search: whether each reported path may be shown (every match of a file repeats its path). */
const visibility = new WeakMap<SearchScope, Map<string, boolean>>();

export function visible(path: string, scope: SearchScope): boolean {
  let known = visibility.get(scope);
  if (known === undefined) {
    known = new Map();
    visibility.set(scope, known);
  }
  let shown = known.get(path);
  if (shown === undefined) {
    shown =
      path.length > 0 &&
      !scope.isSecret(path) &&
      (scope.includeHiddenAndIgnored || !isHiddenBelow(path, scope.path));
    known.set(path, shown);
  }
  return shown;
}

function stripLineEnding(text: string): string {
  return text.replace(/\r?\n$/, "");
}

function byteOffsetToIndex(text: string, byteOffset: number): number {
  return Buffer.from(text, "utf8").subarray(0, byteOffset).toString("utf8").length;
}

interface RipgrepJsonEvent {
  type: string;
  data: {
    path?: { text?: string; bytes?: string };
    lines?: { text?: string; bytes?: string };
    line_number?: number | null;
    submatches?: { start: number }[];
    stats?: { searches?: number };
  };
}

/** Reads one `--json` record into a line of the search, or the summary's file count. */
export function parseJsonRecord(
  record: string,
  request: SearchRequest,
  prefix: string,
): { path: string; line: SearchLine } | { searches: number } | undefined {
  let event: RipgrepJsonEvent;
  try {
    event = JSON.parse(record) as RipgrepJsonEvent;
  } catch {
    return undefined;
  }
  if (event.type === "summary") return { searches: event.data.stats?.searches ?? 0 };
  if (event.type !== "match" && event.type !== "context") return undefined;
  const path = toWorkspacePath(decodeText(event.data.path), prefix);
  if (!visible(path, request)) return undefined;
  const isMatch = event.type === "match";
  const raw = stripLineEnding(decodeText(event.data.lines));
  let focus = 0;
  if (isMatch && raw.length > request.maxLineCharacters) {
    focus = byteOffsetToIndex(raw, event.data.submatches?.[0]?.start ?? 0);
  }
  const { text, cut, cutStart } = cutLine(raw, focus, request.maxLineCharacters);
  const line: SearchLine = {
    line: event.data.line_number ?? 0,
    text,
    kind: isMatch ? "match" : "context",
  };
  if (cut > 0) line.cut = cut;
  if (cutStart > 0) line.cut_start = cutStart;
  return { path, line };
}

/** Reads one `--files-with-matches` / `--count` record (`--null`), or `--stats`' file count. */
export function parseRowRecord(
  record: string,
  final: boolean,
  request: SearchRequest,
  prefix: string,
): { path: string; count: number } | { searches: number } | undefined {
  const countMode = request.outputMode === "count";
  const nul = countMode ? record.lastIndexOf("\0") : -1;
  if (final || (countMode && nul === -1)) {
    // The `--stats` block after the last record.
    const searched = /(?:^|\n)(\d+) files searched(?:\n|$)/.exec(record);
    return searched === null ? undefined : { searches: Number(searched[1]) };
  }
  const path = toWorkspacePath(countMode ? record.slice(0, nul) : record, prefix);
  if (!visible(path, request)) return undefined;
  const count = countMode ? Number.parseInt(record.slice(nul + 1), 10) || 0 : 1;
  return { path, count };
}
