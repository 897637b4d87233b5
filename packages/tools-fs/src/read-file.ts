import {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  defineTool,
  fail,
  formatCount,
  formatPageMarker,
  formatTruncationMarker,
  isOffsetPastEnd,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  type PageInfo,
  PRIVATE_KEY_REDACTION,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolContext,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import type { FileStat } from "./file-system.js";
import {
  findTailStart,
  LineIndex,
  LruCache,
  locateLine,
  numberLine,
  readLines,
} from "./internal/line-index.js";
import { looksLikeArmourLine } from "./internal/private-key-lines.js";
import {
  BINARY_SNIFF_BYTES,
  type DecodedText,
  decodeText,
  decodeUtf8Lenient,
  detectBom,
  detectLineEnding,
  encodingLabel,
  isBinary,
  type LineEnding,
  SHORT_SHA_LENGTH,
  sha256Hex,
  type TextEncodingName,
} from "./internal/text-codec.js";
import {
  directoryNotFile,
  formatSize,
  pathNotFound,
  workspaceOption,
} from "./internal/tool-support.js";
import { countNewlines } from "./internal/unified-diff.js";
import type { ResolvedPath, Workspace } from "./workspace.js";

/** The default name of the read tool. */
export const READ_FILE_TOOL_NAME = "read_file";

/** Default page length in lines, when the model sends no `limit`. */
export const DEFAULT_READ_LIMIT = 400;

/** Largest `limit` a model may ask for. */
export const DEFAULT_MAX_READ_LIMIT = 2_000;

/** Default cap on the characters of one rendered page (numbered lines); the page ends early past it. */
export const DEFAULT_MAX_PAGE_CHARACTERS = 100_000;

/** Default cap on the characters shown of one line; the rest is cut with a marker. */
export const DEFAULT_MAX_LINE_CHARACTERS = 2_000;

/** Files larger than this (bytes) are paged by streaming through a sparse line index: 8 MiB. */
export const DEFAULT_STREAM_THRESHOLD_BYTES = 8 * 1_048_576;

/**
 * Streamed files up to this size (bytes) get one full pass on their first page — an exact
 * `total` and the `sha` on every page: 64 MiB. Larger files are read only as far as a page
 * needs (the head at once, the tail backwards from the end, a middle page by scanning up to it).
 */
export const DEFAULT_FULL_PASS_MAX_BYTES = 64 * 1_048_576;

/** How many small files' decoded text is kept for the next page (each at most 2 MiB). */
const WHOLE_CACHE_ENTRIES = 4;

/** The largest file whose decoded text is kept between calls. */
const WHOLE_CACHE_MAX_BYTES = 2 * 1_048_576;

/** How long ago a file must have changed before its text is kept (timestamps are coarse). */
const WHOLE_CACHE_SETTLED_MS = 2_000;

/** A small file read whole: its text and the facts every page reports. */
interface DecodedWholeFile {
  decoded: DecodedText;
  sha: string;
  total: number;
  bytes: number;
}

/** How many line indexes (one per huge file version) are cached per tool. */
export const DEFAULT_INDEX_CACHE_ENTRIES = 16;

/** Default time limit of one read: 120 s (the first page of a huge file scans it once). */
export const DEFAULT_READ_FILE_TIMEOUT_MS = 120_000;

/** Options of {@link createReadFileTool}. */
export interface ReadFileToolOptions {
  /** The confinement layer (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). Default `"read_file"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Names of the tools mounted beside this one: the default description (and the marker of a
   * cut line) names only these (`createFsTools` passes what it mounts). Default: none.
   */
  mountedTools?: readonly string[];
  /** Page length when the model sends no `limit`. Default {@link DEFAULT_READ_LIMIT} (400). */
  defaultLimit?: number;
  /** Largest `limit` accepted. Default {@link DEFAULT_MAX_READ_LIMIT} (2,000). */
  maxLimit?: number;
  /** Most characters in one rendered page. Default {@link DEFAULT_MAX_PAGE_CHARACTERS} (100,000). */
  maxPageCharacters?: number;
  /** Most characters shown of one line. Default {@link DEFAULT_MAX_LINE_CHARACTERS} (2,000). */
  maxLineCharacters?: number;
  /** Size above which a file is streamed, never read whole. Default {@link DEFAULT_STREAM_THRESHOLD_BYTES} (8 MiB). */
  streamThresholdBytes?: number;
  /**
   * Streamed files up to this size get one full pass (exact `total`, `sha`) on their first page;
   * larger ones are read only as far as each page needs, and their pages carry `total_at_least`
   * until a page's scan reaches the end, and no `sha`. Default {@link DEFAULT_FULL_PASS_MAX_BYTES} (64 MiB).
   */
  fullPassMaxBytes?: number;
  /** Line indexes of huge files kept (LRU). `0` disables the cache. Default {@link DEFAULT_INDEX_CACHE_ENTRIES} (16). */
  indexCacheEntries?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_READ_FILE_TIMEOUT_MS} (120 s). */
  timeoutMs?: number;
}

const readFileOptionsSchema = z.object({
  ...toolOptionsShape,
  workspace: workspaceOption,
  defaultLimit: z.number().int().min(1).max(100_000).optional(),
  maxLimit: z.number().int().min(1).max(100_000).optional(),
  maxPageCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  maxLineCharacters: z.number().int().min(20).max(1_000_000).optional(),
  streamThresholdBytes: z.number().int().min(0).max(1_073_741_824).optional(),
  fullPassMaxBytes: z.number().int().min(0).max(1_099_511_627_776).optional(),
  indexCacheEntries: z.number().int().min(0).max(1_000).optional(),
  // At most an hour, below the shared shape's one day.
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
});

/** The most lines a negative `offset` may count back from the end. */
const MAX_TAIL_LINES = 1_000_000_000;

function createReadFileInputSchema(defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({ unit: "line", defaultLimit, maxLimit });
  return z.object({
    path: z
      .string()
      .describe("The file to read, relative to the workspace root (e.g. 'src/index.ts')."),
    offset: z
      .number()
      .int()
      .min(-MAX_TAIL_LINES)
      .refine((value) => value !== 0, {
        message:
          "offset=0 is not a line: use 1 for the first line or a negative offset for the tail",
      })
      .optional()
      .describe(
        "1-based line to start at (default 1; 0 is not a line). A negative offset counts from the end: -100 starts 100 lines before the end (the tail), served without reading the whole file. Use the next_offset a cut page gives to get the next page.",
      ),
    limit: paging.limit,
  });
}

/** The read tool's input schema (with the default limits in its descriptions). */
export const readFileInputSchema = createReadFileInputSchema(
  DEFAULT_READ_LIMIT,
  DEFAULT_MAX_READ_LIMIT,
);

/** The read tool's input. */
export type ReadFileToolInput = z.output<typeof readFileInputSchema>;

/**
 * Names models trained on other toolsets send for `read_file`'s `path`, accepted silently (each
 * means exactly `path`).
 */
export const READ_FILE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
  filepath: "path",
  target_file: "path",
  absolute_path: "path",
});

/** A line of the page that was too long to show whole. */
export interface ReadFileCutLine {
  /** The line's number (1-based). */
  line: number;
  /** How much of it was left out. */
  omitted: number;
  /** The unit of `omitted`: characters, or bytes for a giant line of a streamed file (read only in part). */
  unit: "characters" | "bytes";
}

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

/**
 * Lines a streamed page looks back for a key block that starts before it, widened while every
 * line looked back on could be key armour (`looksLikeArmourLine`): most keys are < 120 lines, a
 * PGP block with a photo ID a few thousand.
 */
const KEY_LOOKBACK_STEPS = [256, 2_048, 16_384] as const;

/** The read tool's type. */
export type ReadFileTool = Tool<typeof readFileInputSchema, ReadFileToolData>;

function defaultDescription(
  name: string,
  defaultLimit: number,
  maxPageCharacters: number,
  maxLineCharacters: number,
  mounted: MountedTools,
): string {
  const editors = ["edit_file", "multi_edit", "write_file"].filter((tool) => mounted.has(tool));
  const editorList =
    editors.length <= 1
      ? (editors[0] ?? "")
      : `${editors.slice(0, -1).join(", ")} or ${editors[editors.length - 1]}`;
  return joinSentences(
    [
      "Read a text file as numbered lines (cat -n style), one page at a time.",
      `The header reads \`path — lines A–B of TOTAL (encoding, sha: …)\` (a file over 64 MB: no sha, and TOTAL may be 'at least N'); when lines remain, the page ends with the exact next call (\`call ${name} again with offset=N\`).`,
      `Use offset (1-based line) and limit to page or jump${mounted.when("grep_search", ": after grep_search finds line 900, read with offset=880, limit=60")}; a negative offset reads the tail (offset=-50: the last 50 lines). A page holds up to ${defaultLimit} lines or ${formatCount(maxPageCharacters)} characters; lines over ${formatCount(maxLineCharacters)} characters are cut.`,
      editors.length > 0 &&
        `Read a file before editing it, and pass the header's sha as expected_sha to ${editorList} so a concurrent change is caught.`,
      "The line-number prefix is not part of the file: never copy it into the text you send back.",
      `Binary files are refused${mounted.when("file_stats", " (use file_stats)")}; directories are refused${mounted.when("list_directory", " (use list_directory)")}. Very large files work: pages come without loading the whole file.`,
    ],
    "\n",
  );
}

/** How the rendered page looks: the tool's name and the tools its notes may name. */
export interface ReadFileFormatOptions {
  /** The tool that serves the next page. Default `"read_file"`. */
  tool?: string;
  /** Whether `grep_search` is mounted (named in the note of a cut line). Default `false`. */
  grepSearch?: boolean;
}

/** A huge file's cached facts: its line index (complete after a full pass) and its sha. */
interface IndexedFile {
  index: LineIndex;
  sha: string | undefined;
}

/** A line to add to a page; `key` marks a line of a private key (shown as the redaction note). */
type PageLine = { text: string; ending: string; cutBytes: number; key?: boolean | undefined };

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

function cutLineMarker(cut: ReadFileCutLine, grepSearch: boolean): string {
  return formatTruncationMarker({
    omitted: cut.omitted,
    unit: cut.unit,
    next: `line ${cut.line} is too long to show whole${grepSearch ? "; grep_search finds text inside it" : ""}`,
  });
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
        })}`;
  return `${header}\n${numbered.join("\n")}${marker}`;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Creates the `read_file` tool: a page of a text file — `data.content` is the text as it is, the
 * rendered page numbers the lines under a header naming the range, total lines, encoding and
 * sha-256 prefix, and ends with the exact next call when lines remain. `offset` (1-based line) and
 * `limit` page; the data carries `total`, `next_offset` and `truncated`; an offset past the end is
 * the contract's `offsetPastEnd` (`INVALID_INPUT`). UTF-8, UTF-8 with BOM and UTF-16 (with BOM)
 * are decoded; invalid bytes show as U+FFFD and are noted in the header; binary files are refused
 * (`UNSUPPORTED`) and a directory is `INVALID_PATH` (naming list_directory).
 *
 * Files above `streamThresholdBytes` are never read whole: one streamed pass builds a sparse line
 * index (cached per real path, size, modification time and identity, with the sha from
 * `FileSystem.digest`), and each page is read with ranged reads from the nearest checkpoint —
 * memory stays bounded for a 1 GiB file and later pages skip the scan. Huge UTF-16 files are
 * refused with `TOO_LARGE` (UTF-8 is the streamed encoding).
 *
 * @param options - the workspace, name/description overrides, the mounted tools and the caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const readFile = createReadFileTool({ workspace });
 * await readFile.run({ path: "src/index.ts", offset: 401 });
 * // data.content: "export …\n…", data.start_line: 401, data.next_offset: 801 when more remain
 */
export function createReadFileTool(options: ReadFileToolOptions): ReadFileTool {
  const parsed = parseOptions("createReadFileTool", readFileOptionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const mounted = mountedTools(parsed.mountedTools);
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_READ_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_READ_LIMIT, maxLimit);
  const maxPageCharacters = parsed.maxPageCharacters ?? DEFAULT_MAX_PAGE_CHARACTERS;
  const maxLineCharacters = parsed.maxLineCharacters ?? DEFAULT_MAX_LINE_CHARACTERS;
  // Lines up to 64 KiB are read whole (cut by characters); longer ones are read only this far.
  const maxLineBytes = Math.max(maxLineCharacters * 4 + 8, 65_536);
  const streamThreshold = parsed.streamThresholdBytes ?? DEFAULT_STREAM_THRESHOLD_BYTES;
  const fullPassMaxBytes = parsed.fullPassMaxBytes ?? DEFAULT_FULL_PASS_MAX_BYTES;
  const cache = new LruCache<Promise<IndexedFile>>(
    parsed.indexCacheEntries ?? DEFAULT_INDEX_CACHE_ENTRIES,
  );
  const wholeCache = new LruCache<Promise<DecodedWholeFile | undefined>>(
    parsed.indexCacheEntries === 0 ? 0 : WHOLE_CACHE_ENTRIES,
  );
  const name = parsed.name ?? READ_FILE_TOOL_NAME;
  const input = createReadFileInputSchema(defaultLimit, maxLimit);
  const formatOptions: ReadFileFormatOptions = {
    tool: name,
    grepSearch: mounted.has("grep_search"),
  };

  /** Collects a page from decoded lines, honouring the line, page and line-length caps. */
  function collectPage(first: number, limit: number) {
    let content = "";
    let shown = 0;
    let characters = 0;
    const cutLines: ReadFileCutLine[] = [];
    let redacted = false;
    return {
      get content() {
        return content;
      },
      /** Whether a line of a private key was replaced by the note. */
      get redacted() {
        return redacted;
      },
      get shown() {
        return shown;
      },
      cutLines,
      /** Adds a line; `false` when the page is full (the line was not added). */
      add(line: PageLine): boolean {
        if (shown >= limit) return false;
        const number = first + shown;
        if (line.key === true) {
          redacted = true;
          line = { text: PRIVATE_KEY_REDACTION, ending: line.ending, cutBytes: 0 };
        }
        let text = line.text;
        let cut: ReadFileCutLine | undefined;
        if (text.length > maxLineCharacters) {
          let end = maxLineCharacters;
          const code = text.charCodeAt(end - 1);
          if (code >= 0xd800 && code <= 0xdbff) end -= 1;
          cut = { line: number, omitted: text.length - end, unit: "characters" };
          text = text.slice(0, end);
        }
        if (line.cutBytes > 0) {
          // Only the first bytes of a giant line were read: count the rest in bytes.
          const dropped = cut === undefined ? 0 : utf8Length(line.text.slice(text.length));
          cut = { line: number, omitted: line.cutBytes + dropped, unit: "bytes" };
        }
        // The page cap counts the rendered line: number, tab, text and a cut line's marker.
        const rendered =
          numberLine(number, text).length +
          (cut === undefined
            ? 0
            : cutLineMarker(cut, formatOptions.grepSearch === true).length + 1);
        if (shown > 0 && characters + rendered + 1 > maxPageCharacters) return false;
        content += text + line.ending;
        if (cut !== undefined) cutLines.push(cut);
        shown += 1;
        characters += rendered + 1;
        return true;
      },
    };
  }

  /**
   * The page's data. `facts.more` tells whether lines follow the page (default: the page ends
   * before `total`); without an exact `total`, `total_at_least` is the lower bound.
   */
  function finish(
    resolved: ResolvedPath,
    page: ReturnType<typeof collectPage>,
    offset: number,
    facts: Pick<
      ReadFileToolData,
      | "total"
      | "total_at_least"
      | "encoding"
      | "line_ending"
      | "sha"
      | "bytes"
      | "invalid_bytes"
      | "streamed"
    > & { more?: boolean },
  ) {
    const shown = page.shown;
    const endLine = shown === 0 ? 0 : offset + shown - 1;
    const data: ReadFileToolData = {
      path: resolved.display,
      content: page.content,
      start_line: shown === 0 ? 0 : offset,
      end_line: endLine,
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
    return ok(data);
  }

  function pastEnd(offset: number, total: number) {
    return offsetPastEnd({ tool: name, offset, total, unit: "lines" });
  }

  /** Reads, sniffs, hashes and decodes a whole file; `undefined` for a binary one. */
  async function decodeWhole(real: string): Promise<DecodedWholeFile | undefined> {
    const bytes = await fileSystem.readFile(real);
    if (isBinary(bytes)) return undefined;
    // Web Crypto hashes off the main thread: decode meanwhile.
    const hashing = sha256Hex(bytes);
    const decoded = decodeText(bytes);
    if (decoded === undefined) return undefined;
    const sha = await hashing;
    const text = decoded.text;
    const total = text.length === 0 ? 0 : countNewlines(text) + (text.endsWith("\n") ? 0 : 1);
    return { decoded, sha, total, bytes: bytes.length };
  }

  async function readWhole(resolved: ResolvedPath, stat: FileStat, offset: number, limit: number) {
    // Paging through one file repeats the call with another offset: the decoded text of a
    // small file is kept, keyed by size, time and identity like the line indexes of large ones.
    const key = `${resolved.real}\0${stat.size}\0${stat.modifiedMs}\0${stat.identity ?? ""}`;
    // A file changed within the last moments may change again within the same timestamp tick
    // without its size changing (git's "racily clean" entries): such a file is never kept.
    const cacheable =
      stat.size <= WHOLE_CACHE_MAX_BYTES &&
      stat.identity !== undefined &&
      Date.now() - stat.modifiedMs > WHOLE_CACHE_SETTLED_MS;
    let reading = cacheable ? wholeCache.get(key) : undefined;
    if (reading === undefined) {
      reading = decodeWhole(resolved.real);
      if (cacheable) {
        wholeCache.set(key, reading);
        reading.catch(() => wholeCache.delete(key));
      }
    }
    const whole = await reading;
    if (whole === undefined) return binaryRefusal(resolved);
    const { decoded, sha, total } = whole;
    const text = decoded.text;
    const bytes = { length: whole.bytes };
    // A negative offset counts from the end; the total is known, so the page is numbered as usual.
    if (offset < 0) offset = Math.max(1, total + offset + 1);
    if (isOffsetPastEnd(offset, total)) return pastEnd(offset, total);
    const page = collectPage(offset, limit);
    // One linear indexOf pass; only a file holding a key pays for the line-by-line scan.
    const isKeyLine = containsPrivateKey(text) ? createPrivateKeyLineScanner() : undefined;
    let start = 0;
    for (let line = 1; line < offset; line += 1) {
      const next = text.indexOf("\n", start) + 1;
      if (isKeyLine !== undefined) isKeyLine(text.slice(start, next === 0 ? text.length : next));
      start = next;
    }
    while (total > 0 && start < text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      const hasCr = end > start && text.charCodeAt(end - 1) === 13;
      const line = text.slice(start, hasCr ? end - 1 : end);
      const ending = `${hasCr ? "\r" : ""}${newline === -1 ? "" : "\n"}`;
      if (!page.add({ text: line, ending, cutBytes: 0, key: isKeyLine?.(line) })) break;
      if (newline === -1) break;
      start = newline + 1;
    }
    return finish(resolved, page, offset, {
      total,
      encoding: decoded.encoding,
      line_ending: decoded.lineEnding,
      sha,
      bytes: bytes.length,
      invalid_bytes: decoded.invalidBytes,
      streamed: false,
    });
  }

  function binaryRefusal(resolved: ResolvedPath) {
    return fail(
      "UNSUPPORTED",
      `${resolved.display} looks like a binary file; ${name} shows text files only.`,
      {
        hint: mounted.has("file_stats")
          ? `Call file_stats on ${resolved.display} for its size and type.`
          : `${name} reads text files only; ask the user what this file holds.`,
      },
    );
  }

  /**
   * The cached line index of a streamed file version (keyed by real path, size, time and
   * identity). A file up to `fullPassMaxBytes` gets one full pass with its sha on first use;
   * a larger one starts empty and is scanned only as far as pages need.
   */
  function indexFile(
    resolved: ResolvedPath,
    stat: FileStat,
    size: number,
    start: number,
    context: ToolContext,
  ) {
    const key = `${resolved.real}\0${stat.size}\0${stat.modifiedMs}\0${stat.identity ?? ""}`;
    const cached = cache.get(key);
    if (cached !== undefined) return { key, entry: cached };
    const index = new LineIndex(size, { start });
    const entry =
      size > fullPassMaxBytes
        ? Promise.resolve<IndexedFile>({ index, sha: undefined })
        : (async (): Promise<IndexedFile> => {
            const reader = await fileSystem.openReader(resolved.real);
            try {
              const [, sha] = await Promise.all([
                index.extendTo(reader, Number.POSITIVE_INFINITY, {
                  signal: context.signal,
                  onProgress: (completed, total) =>
                    context.progress({
                      message: `Indexing the lines of ${resolved.display}`,
                      completed,
                      total,
                    }),
                }),
                fileSystem.digest(resolved.real),
              ]);
              return { index, sha };
            } finally {
              await reader.close();
            }
          })();
    cache.set(key, entry);
    entry.catch(() => cache.delete(key));
    return { key, entry };
  }

  async function readStreamed(
    resolved: ResolvedPath,
    stat: FileStat,
    requestedOffset: number,
    limit: number,
    context: ToolContext,
  ) {
    const reader = await fileSystem.openReader(resolved.real);
    try {
      const head = await reader.read(0, Math.min(reader.size, BINARY_SNIFF_BYTES));
      if (isBinary(head)) return binaryRefusal(resolved);
      const bom = detectBom(head);
      if (bom === "utf-16le" || bom === "utf-16be") {
        return fail(
          "TOO_LARGE",
          `${resolved.display} is a ${stat.size}-byte UTF-16 file; ${name} streams only UTF-8 files larger than ${streamThreshold} bytes.`,
          {
            hint: `${mounted.has("grep_search") ? `Use grep_search to find what you need in ${resolved.display}, or ask` : "Ask"} the user for a UTF-8 copy.`,
          },
        );
      }
      const start = bom === "utf-8-bom" ? 3 : 0;
      const { key, entry } = indexFile(resolved, stat, reader.size, start, context);
      const { index, sha } = await entry;
      const changed = () => {
        cache.delete(key);
        return fail("CONFLICT", `${resolved.display} changed while it was being read.`, {
          hint: `Call ${name} again.`,
          retryable: true,
        });
      };
      if (index.size !== reader.size || (index.complete && index.scanned !== index.size))
        return changed();
      // Where reading starts: a little before the page, so that a key block beginning before
      // it is recognised; `lookback` lines are read for that only. When every line read before
      // the page could sit inside key armour (base64 body, armour headers, the blank line after
      // them) and the window does not start at the top, the page may be inside a block that
      // began earlier (a PGP private key runs to hundreds of lines): the window is widened
      // (256 → 2,048 → 16,384 lines) until it starts on another line; past that, the page's
      // leading armour lines are redacted.
      let offset = requestedOffset;
      let position = start;
      let lookback = 0;
      let fromEnd = false;
      let tailTotal: number | undefined;
      let page = collectPage(offset, limit);
      let invalidBytes = false;
      // The byte after the last line read, to tell whether lines follow the page.
      let after = position;
      let full = false;
      for (const [attempt, lookbackLines] of KEY_LOOKBACK_STEPS.entries()) {
        offset = requestedOffset;
        fromEnd = false;
        tailTotal = undefined;
        if (offset < 0 && !index.complete) {
          // The tail of a file whose lines were not counted: found backwards from the end.
          const wanted = -offset;
          const found = await findTailStart(reader, start, wanted + lookbackLines, {
            signal: context.signal,
          });
          position = found.position;
          const pageLines = Math.min(wanted, found.lines);
          lookback = found.lines - pageLines;
          if (found.reachedStart) {
            tailTotal = found.lines;
            offset = found.lines - pageLines + 1;
          } else fromEnd = true;
        } else {
          if (offset < 0) offset = Math.max(1, (index.totalLines ?? 0) + offset + 1);
          const first = Math.max(1, offset - lookbackLines);
          if (!index.reaches(offset)) {
            await index.extendTo(reader, offset, {
              signal: context.signal,
              onProgress: (completed, total) =>
                context.progress({
                  message: `Counting lines of ${resolved.display} up to line ${offset}`,
                  completed,
                  total,
                }),
            });
            if (index.complete && index.scanned !== index.size) return changed();
          }
          if (index.totalLines !== undefined && isOffsetPastEnd(offset, index.totalLines))
            return pastEnd(offset, index.totalLines);
          const located = locateLine(index, first);
          position = located.position;
          lookback = offset - first + located.skip;
        }
        page = collectPage(offset, limit);
        invalidBytes = false;
        after = position;
        full = false;
        // Whether every line before the page could be key armour, the window not at the top.
        let bodyBefore = lookback > 0 && position > start;
        const last = attempt === KEY_LOOKBACK_STEPS.length - 1;
        if (position < index.size) {
          let line = 0;
          const isKeyLine = createPrivateKeyLineScanner();
          // Only after the widest window: the page's leading body lines count as key lines.
          let orphanBody = false;
          for await (const raw of readLines(reader, position, index.size, maxLineBytes)) {
            if (context.signal.aborted) break;
            const cutShort = raw.bytes.length < raw.byteLength;
            line += 1;
            if (line <= lookback) {
              // Only the key scanner sees lines before the page (and those before the checkpoint's skip).
              const before = decodeUtf8Lenient(raw.bytes, cutShort).text;
              isKeyLine(before);
              if (bodyBefore && !looksLikeArmourLine(before.trim())) bodyBefore = false;
              after += raw.byteLength + (raw.newline ? 1 : 0);
              continue;
            }
            if (line === lookback + 1) {
              if (bodyBefore && !last) break; // widen the window and read again
              orphanBody = bodyBefore;
            }
            const decoded = decodeUtf8Lenient(raw.bytes, cutShort);
            const hasCr = !cutShort && decoded.text.endsWith("\r");
            const text = hasCr ? decoded.text.slice(0, -1) : decoded.text;
            const ending = `${hasCr ? "\r" : ""}${raw.newline ? "\n" : ""}`;
            const cutBytes = cutShort ? raw.byteLength - utf8Length(decoded.text) : 0;
            let keyLine = isKeyLine(decoded.text);
            if (orphanBody) {
              // Inside a block whose BEGIN is out of reach: armour lines, then its END line.
              const trimmed = decoded.text.trim();
              if (keyLine || !looksLikeArmourLine(trimmed)) {
                orphanBody = false;
                if (trimmed.includes("-----END ") && trimmed.includes("PRIVATE KEY"))
                  keyLine = true;
              } else keyLine = true;
            }
            if (!page.add({ text, ending, cutBytes, key: keyLine })) {
              full = true;
              break;
            }
            if (decoded.invalidBytes) invalidBytes = true;
            after += raw.byteLength + (raw.newline ? 1 : 0);
          }
        }
        if (!bodyBefore || last || context.signal.aborted) break;
      }
      const sample = decodeUtf8Lenient(head.subarray(start), true).text;
      // A tail numbered from the end stays so, even if another call completed the index meanwhile.
      const readToEnd = !fromEnd && !full && after >= index.size && page.shown > 0;
      const known = fromEnd
        ? undefined
        : (index.totalLines ?? tailTotal ?? (readToEnd ? offset + page.shown - 1 : undefined));
      const endLine = page.shown === 0 ? 0 : offset + page.shown - 1;
      return finish(resolved, page, offset, {
        ...(known !== undefined
          ? { total: known }
          : {
              total_at_least: fromEnd
                ? Math.max(-offset + lookback + 1, index.complete ? 0 : index.lines + 1)
                : Math.max(index.lines, endLine) + (after < index.size || full ? 1 : 0),
            }),
        ...(known === undefined
          ? { more: fromEnd ? endLine < -1 : full || after < index.size }
          : {}),
        encoding: bom ?? "utf-8",
        line_ending: detectLineEnding(sample),
        sha,
        bytes: index.size,
        invalid_bytes: invalidBytes,
        streamed: true,
      });
    } finally {
      await reader.close();
    }
  }

  return defineTool({
    name,
    description:
      parsed.description ??
      defaultDescription(name, defaultLimit, maxPageCharacters, maxLineCharacters, mounted),
    input,
    aliases: READ_FILE_ALIASES,
    annotations: { title: "Read file", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_READ_FILE_TIMEOUT_MS,
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path);
      const stat = await fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return pathNotFound(resolved.display);
      }
      if (stat.type === "directory") {
        return directoryNotFile(resolved.display, `${name} reads files`);
      }
      if (stat.type !== "file") {
        return fail(
          "UNSUPPORTED",
          `${resolved.display} is not a regular file (a device, socket or pipe).`,
          {
            hint: `Call file_stats on ${resolved.display} to see what it is.`,
          },
        );
      }
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      if (stat.size > streamThreshold) return readStreamed(resolved, stat, offset, limit, context);
      return readWhole(resolved, stat, offset, limit);
    },
    render: (data) => formatReadFilePage(data, formatOptions),
  });
}
