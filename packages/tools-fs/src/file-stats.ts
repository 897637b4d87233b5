import {
  defineTool,
  formatCount,
  formatPageMarker,
  isOffsetPastEnd,
  joinSentences,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolContext,
} from "@agentool/contract";
import { z } from "zod";
import type { DirectoryEntry, FileSystem } from "./file-system.js";
import {
  createIgnoreMatcher,
  IGNORE_FILE_NAMES,
  type IgnoreRule,
  loadIgnoreRules,
  matchIgnoreRules,
} from "./internal/gitignore.js";
import {
  BINARY_SNIFF_BYTES,
  decodeText,
  detectBom,
  detectLineEnding,
  encodingLabel,
  isBinary,
  type LineEnding,
  type TextEncodingName,
} from "./internal/text-codec.js";
import {
  formatSize,
  limitsInOrder,
  pageLimitOptionsShape,
  pathNotFound,
  type WorkspaceToolOptions,
  workspaceToolOptionsShape,
} from "./internal/tool-support.js";
import type { ResolvedPath } from "./workspace.js";

/** The default name of the statistics tool. */
export const FILE_STATS_TOOL_NAME = "file_stats";

/** Default size above which lines are counted by streaming the file in chunks: 8 MiB. */
export const DEFAULT_STATS_STREAM_THRESHOLD_BYTES = 8 * 1024 * 1024;

/** Default chunk size when streaming: 1 MiB. */
export const DEFAULT_STATS_STREAM_CHUNK_BYTES = 1024 * 1024;

/** Default page size for a directory (`limit` when the model gives none): 200 files. */
export const DEFAULT_STATS_LIMIT = 200;

/** Default largest `limit` a model may ask for: 2,000 files. */
export const DEFAULT_MAX_STATS_LIMIT = 2000;

/**
 * Default number of entries a directory walk counts before it stops: 10,000 (it always walks far
 * enough to fill the page). Below it the totals are exact; past it they are lower bounds.
 */
export const DEFAULT_MAX_SCAN_ENTRIES = 10_000;

/** Options of {@link createFileStatsTool}. */
export interface FileStatsToolOptions extends WorkspaceToolOptions {
  /** Files above this size are streamed in chunks instead of read whole. Default {@link DEFAULT_STATS_STREAM_THRESHOLD_BYTES} (8 MiB). */
  streamThresholdBytes?: number;
  /** Chunk size when streaming. Default {@link DEFAULT_STATS_STREAM_CHUNK_BYTES} (1 MiB). */
  streamChunkBytes?: number;
  /** Files on a page of a directory when the model gives no `limit`. Default {@link DEFAULT_STATS_LIMIT} (200). */
  defaultLimit?: number;
  /** Largest `limit` accepted. Default {@link DEFAULT_MAX_STATS_LIMIT} (2,000). */
  maxLimit?: number;
  /** Entries a directory walk counts at most (past the page); the totals are exact below it. Default {@link DEFAULT_MAX_SCAN_ENTRIES} (10,000). */
  maxScanEntries?: number;
}

const optionsSchema = z
  .object({
    ...workspaceToolOptionsShape,
    streamThresholdBytes: z.number().int().min(0).optional(),
    streamChunkBytes: z
      .number()
      .int()
      .min(4096)
      .max(64 * 1024 * 1024)
      .optional(),
    ...pageLimitOptionsShape,
    maxScanEntries: z.number().int().min(1).max(10_000_000).optional(),
  })
  .refine(...limitsInOrder(DEFAULT_STATS_LIMIT, DEFAULT_MAX_STATS_LIMIT));

function createInputSchema(defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({ unit: "file", defaultLimit, maxLimit });
  return z.object({
    path: z
      .string()
      .optional()
      .describe(
        "A file or directory, relative to the workspace root. Default: the root ('.'), which gives per-file figures for the whole workspace.",
      ),
    offset: paging.offset.describe(
      "For a directory: 1-based position (by path) of the first file to list (default 1). Use the next_offset a cut result gives to get the next page.",
    ),
    limit: paging.limit.describe(
      `For a directory: most files to list (default ${defaultLimit}, at most ${maxLimit}).`,
    ),
  });
}

/** The input schema of `file_stats` (with the default limits in its descriptions). */
export const fileStatsInputSchema = createInputSchema(DEFAULT_STATS_LIMIT, DEFAULT_MAX_STATS_LIMIT);

/** The input of `file_stats`. */
export type FileStatsInput = z.output<typeof fileStatsInputSchema>;

/** Names from other toolsets accepted silently for `file_stats`'s `path`. */
export const FILE_STATS_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
  dir_path: "path",
  directory: "path",
});

/** Figures of one file. */
export interface FileFigures {
  /** The file, as a workspace path. */
  path: string;
  /** Size in bytes (exact). */
  bytes: number;
  /** Lines (a final line ending does not start another line); `null` for a binary file. */
  lines: number | null;
  /** Whether the file looks binary (NUL bytes or many control characters). */
  binary: boolean;
}

/** What `file_stats` returns for a file. */
export interface FileStatsFileData extends FileFigures {
  /** Discriminates the result. */
  kind: "file";
  /** The text encoding (`utf-8`, `utf-8 with BOM`, `utf-16le`, `utf-16be`); `null` for a binary file. */
  encoding: string | null;
  /** The line endings (`lf`, `crlf`, `mixed`, `none`); `null` for a binary file. */
  line_ending: LineEnding | null;
  /** Whether some bytes are not valid in the encoding (only checked for files read whole). */
  invalid_bytes: boolean;
  /** Whether the file was streamed in chunks (large files) instead of read whole. */
  streamed: boolean;
  /** Last modification, ISO 8601. */
  modified_at: string;
}

/** The figures of the files on one page of a directory. */
export interface ListedFigures {
  /** Files on this page. */
  files: number;
  /** Their bytes. */
  bytes: number;
  /** Their lines (text files only). */
  lines: number;
  /** How many of them are binary (no lines counted). */
  binary_files: number;
}

/** What `file_stats` returns for a directory. */
export interface FileStatsDirectoryData {
  /** Discriminates the result. */
  kind: "directory";
  /** The directory, as a workspace path. */
  path: string;
  /** Last modification of the directory itself, ISO 8601. */
  modified_at: string;
  /** The 1-based position of the first file of this page. */
  offset: number;
  /**
   * This page's files with their figures, by path (folder by folder, names in code-point order);
   * the same call always gives the same files.
   */
  files: FileFigures[];
  /** Files in the whole tree (exact); absent when the walk stopped counting (`complete: false`). */
  total?: number;
  /** A lower bound on the files in the tree, when the walk stopped counting. */
  total_at_least?: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether files after this page were left out. */
  truncated: boolean;
  /** Subdirectories in the tree (a lower bound when `complete` is false). */
  directories: number;
  /** Bytes of every file in the tree, exact (a lower bound when `complete` is false). */
  bytes: number;
  /** Whether the walk covered the whole tree; when false the tree figures are lower bounds. */
  complete: boolean;
  /** Figures of the files on this page only (lines are counted for these files only). */
  listed: ListedFigures;
  /** Hidden entries (names starting with '.') not counted (a lower bound when not `complete`). */
  skipped_hidden: number;
  /** Entries ignored by `.gitignore` / `.ignore` not counted (a lower bound when not `complete`). */
  skipped_ignored: number;
}

/** What `file_stats` returns. */
export type FileStatsToolData = FileStatsFileData | FileStatsDirectoryData;

/** The `file_stats` tool's type. */
export type FileStatsTool = Tool<typeof fileStatsInputSchema, FileStatsToolData>;

function description(defaultLimit: number, mounted: ReturnType<typeof mountedTools>): string {
  return joinSentences(
    [
      "Get figures about a file or a directory without reading its content into the conversation.",
      `For a file: size in bytes, line count, whether it is binary, text encoding, line endings (LF/CRLF) and last modification time.${mounted.when("read_file", " Use it before read_file on a file that may be huge or binary, to plan which pages to read.")}`,
      `For a directory: how many files, subdirectories and bytes the whole tree holds, and each file's lines and size by path — up to limit files a call (default ${defaultLimit}); when more remain, the result ends with the exact call for the next page (offset=…). Hidden and .gitignored entries are not counted.`,
    ],
    "\n",
  );
}

interface Analysis {
  lines: number | null;
  binary: boolean;
  encoding: TextEncodingName | null;
  lineEnding: LineEnding | null;
  invalidBytes: boolean;
  streamed: boolean;
}

function countTextLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  let index = text.indexOf("\n");
  while (index !== -1) {
    lines += 1;
    index = text.indexOf("\n", index + 1);
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

/** Counts lines by reading the file in chunks: memory stays at one chunk whatever the size. */
async function streamLines(
  fileSystem: FileSystem,
  real: string,
  chunkBytes: number,
  signal: AbortSignal,
): Promise<Analysis> {
  const reader = await fileSystem.openReader(real);
  try {
    const head = await reader.read(0, Math.min(reader.size, BINARY_SNIFF_BYTES));
    if (isBinary(head)) {
      return {
        lines: null,
        binary: true,
        encoding: null,
        lineEnding: null,
        invalidBytes: false,
        streamed: true,
      };
    }
    const encoding = detectBom(head) ?? "utf-8";
    const unit = encoding === "utf-16le" || encoding === "utf-16be" ? 2 : 1;
    const newlineOffset = encoding === "utf-16be" ? 1 : 0;
    let newlines = 0;
    let crlf = 0;
    let previousWasCarriageReturn = false;
    let lastUnitIsNewline = false;
    let position = encoding === "utf-8-bom" ? 3 : unit === 2 ? 2 : 0;
    const size = reader.size;
    // Keep chunks aligned to the code unit.
    const step = chunkBytes - (chunkBytes % unit);
    while (position < size) {
      signal.throwIfAborted();
      const chunk = await reader.read(position, Math.min(step, size - position));
      if (chunk.length === 0) break;
      for (let index = 0; index + unit - 1 < chunk.length; index += unit) {
        const low = chunk[index + newlineOffset] as number;
        const high = unit === 2 ? (chunk[index + 1 - newlineOffset] as number) : 0;
        const isNewline = low === 0x0a && high === 0;
        if (isNewline) {
          newlines += 1;
          if (previousWasCarriageReturn) crlf += 1;
        }
        previousWasCarriageReturn = low === 0x0d && high === 0;
        lastUnitIsNewline = isNewline;
      }
      position += chunk.length;
    }
    const textBytes = size - (encoding === "utf-8-bom" ? 3 : unit === 2 ? 2 : 0);
    const lines = textBytes <= 0 ? 0 : lastUnitIsNewline ? newlines : newlines + 1;
    const lineEnding: LineEnding =
      newlines === 0 ? "none" : crlf === newlines ? "crlf" : crlf === 0 ? "lf" : "mixed";
    return { lines, binary: false, encoding, lineEnding, invalidBytes: false, streamed: true };
  } finally {
    await reader.close();
  }
}

const LINE_ENDING_LABELS: Record<LineEnding, string> = {
  lf: "LF line endings",
  crlf: "CRLF line endings",
  mixed: "mixed LF/CRLF line endings",
  none: "no line endings",
};

/** Options of {@link formatFileStats}. */
export interface FileStatsFormatOptions {
  /** The tool's name, for the next-page call. Default `"file_stats"`. */
  toolName?: string;
}

function sizeWithBytes(bytes: number): string {
  return bytes < 1024
    ? `${formatCount(bytes)} ${bytes === 1 ? "byte" : "bytes"}`
    : `${formatSize(bytes)} (${formatCount(bytes)} bytes)`;
}

function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/**
 * Renders `file_stats` data for the model: every number says what it covers (the whole tree, or
 * the files of this page), and "at least" when the walk stopped counting.
 *
 * @param data - the figures
 * @param options - the tool's name (for the next-page call)
 * @returns model-facing text
 */
export function formatFileStats(
  data: FileStatsToolData,
  options: FileStatsFormatOptions = {},
): string {
  if (data.kind === "file") {
    if (data.binary) {
      return `${data.path}: ${sizeWithBytes(data.bytes)}, binary (no lines counted; read_file will refuse it), modified ${data.modified_at}.`;
    }
    const parts = [
      sizeWithBytes(data.bytes),
      plural(data.lines ?? 0, "line", "lines"),
      data.encoding ?? "utf-8",
      LINE_ENDING_LABELS[data.line_ending ?? "none"],
    ];
    if (data.invalid_bytes) parts.push("some bytes are not valid in this encoding");
    return `${data.path}: ${parts.join(", ")}, modified ${data.modified_at}.`;
  }
  const toolName = options.toolName ?? FILE_STATS_TOOL_NAME;
  const atLeast = data.complete ? "" : "at least ";
  const fileCount = data.total ?? data.total_at_least ?? data.files.length;
  const lines = [
    `${data.path}: ${atLeast}${plural(fileCount, "file", "files")} in ${atLeast}${plural(data.directories, "subdirectory", "subdirectories")}, ${atLeast}${sizeWithBytes(data.bytes)} in all; modified ${data.modified_at}.`,
  ];
  if (!data.complete) {
    lines.push(
      `The walk stopped counting after the page (too many entries): the figures above are lower bounds; ${toolName} on a subdirectory gives exact ones.`,
    );
  }
  const skipped: string[] = [];
  if (data.skipped_hidden > 0) skipped.push(`${atLeast}${data.skipped_hidden} hidden`);
  if (data.skipped_ignored > 0) skipped.push(`${atLeast}${data.skipped_ignored} .gitignored`);
  const skippedCount = data.skipped_hidden + data.skipped_ignored;
  if (skipped.length > 0)
    lines.push(
      `Not counted: ${skipped.join(" and ")} ${skippedCount === 1 && atLeast === "" ? "entry" : "entries"}.`,
    );
  if (data.files.length === 0) {
    lines.push(
      skipped.length > 0
        ? "No countable files: every entry is hidden or ignored."
        : "No files: the directory is empty or holds only empty directories.",
    );
    return lines.join("\n");
  }
  const listed = data.listed;
  const binary =
    listed.binary_files > 0
      ? `; ${plural(listed.binary_files, "binary file", "binary files")} (no lines)`
      : "";
  const wholeTree = data.complete && data.offset === 1 && !data.truncated;
  lines.push(
    wholeTree
      ? `Lines: ${formatCount(listed.lines)} in all${binary}.`
      : `Files ${formatCount(data.offset)}–${formatCount(data.offset + listed.files - 1)} (by path): ${plural(listed.lines, "line", "lines")}, ${formatSize(listed.bytes)}${binary}.`,
  );
  lines.push("lines\tsize\tpath");
  for (const file of data.files) {
    lines.push(
      `${file.binary ? "binary" : formatCount(file.lines ?? 0)}\t${formatSize(file.bytes)}\t${file.path}`,
    );
  }
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: toolName,
        nextOffset: data.next_offset,
        omitted: Math.max(1, fileCount - data.next_offset + 1),
        unit: "files",
        atLeast: data.total === undefined,
        args: { path: data.path },
      }),
    );
  }
  return lines.join("\n");
}

/** Directories whose file sizes a walk reads at once while it goes on. */
const SIZING_DIRECTORIES_IN_FLIGHT = 4;

/** Page files analysed at once. */
const ANALYSES_IN_FLIGHT = 8;

/** A file kept for the page. */
interface PageFile {
  path: string;
  real: string;
  bytes: number;
}

/** The figures of a page's files. */
interface PageAnalysis {
  figures: FileFigures[];
  listed: ListedFigures;
}

/** What a directory walk counted. */
interface DirectoryWalk {
  page: PageFile[];
  /** The page's analysis, when the walk could start it early (the page full and sized). */
  analysis?: Promise<PageAnalysis>;
  files: number;
  directories: number;
  bytes: number;
  stopped: boolean;
  skippedHidden: number;
  skippedIgnored: number;
}

/** An entry of a listing: sized when the seam stat'ed it (`readDirectory`), else not yet. */
type ListingEntry = Pick<DirectoryEntry, "name" | "type"> & { size?: number };

/** Whether a listed entry may be an ignore file (any letter case: the seam may not care). */
function isIgnoreFile(entry: ListingEntry): boolean {
  return IGNORE_FILE_NAMES.includes(entry.name.toLowerCase());
}

function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

function compareNames(left: ListingEntry, right: ListingEntry): number {
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/**
 * Creates the `file_stats` tool: figures about a file (bytes, lines, binary, encoding, line
 * endings, modification time) or a paged per-file listing of a directory with the whole tree's
 * file, directory and byte counts. Files above `streamThresholdBytes` are counted by streaming
 * chunks through `fileSystem.openReader`, so a 1 GiB file never sits in memory.
 *
 * @param options - the workspace, limits, the mounted tools and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const fileStats = createFileStatsTool({ workspace });
 * await fileStats.run({ path: "logs/big.log" }); // data: { kind: "file", lines: 12000000, … }
 * await fileStats.run({ path: "src", offset: 201 }); // the next page of src's files
 */
export function createFileStatsTool(options: FileStatsToolOptions): FileStatsTool {
  const parsed = parseOptions("createFileStatsTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const streamThreshold = parsed.streamThresholdBytes ?? DEFAULT_STATS_STREAM_THRESHOLD_BYTES;
  const chunkBytes = parsed.streamChunkBytes ?? DEFAULT_STATS_STREAM_CHUNK_BYTES;
  const defaultLimit = parsed.defaultLimit ?? DEFAULT_STATS_LIMIT;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_STATS_LIMIT;
  const maxScanEntries = parsed.maxScanEntries ?? DEFAULT_MAX_SCAN_ENTRIES;
  const name = parsed.name ?? FILE_STATS_TOOL_NAME;

  async function analyze(real: string, size: number, signal: AbortSignal): Promise<Analysis> {
    if (size > streamThreshold) return streamLines(fileSystem, real, chunkBytes, signal);
    const bytes = await fileSystem.readFile(real);
    const decoded = decodeText(bytes);
    if (decoded === undefined) {
      return {
        lines: null,
        binary: true,
        encoding: null,
        lineEnding: null,
        invalidBytes: false,
        streamed: false,
      };
    }
    return {
      lines: countTextLines(decoded.text),
      binary: false,
      encoding: decoded.encoding,
      lineEnding: detectLineEnding(decoded.text),
      invalidBytes: decoded.invalidBytes,
      streamed: false,
    };
  }

  /**
   * Walks a directory depth first, names in code-point order, counting files, subdirectories and
   * bytes, and keeps the files at positions `start + 1 … end` (1-based) for the page. Once the
   * page is full and past it the scan cap reached, it stops (lower bounds from there).
   *
   * Each entry is judged once, from its directory's listing: secret (the path shown and, only when
   * the walk reached the directory through a symlink, the real one), hidden, then ignored — the
   * rules of the directory are gathered once per directory, and its own ignore files read only
   * when its listing holds one. A seam that lists names without a stat of each
   * (`readDirectoryNames` + `readEntrySizes`) sizes only the files the walk counts, with one
   * open of each directory, while the walk goes on; directories, symlinks, hidden, secret and
   * ignored entries, and everything past the cap, are never stat'ed. Once the page is full and
   * its files sized, `analyzePage` starts on it while the walk goes on counting.
   */
  async function walkDirectory(
    resolved: ResolvedPath,
    start: number,
    end: number,
    context: ToolContext,
  ): Promise<DirectoryWalk> {
    const signal = context.signal;
    const readNames = fileSystem.readDirectoryNames?.bind(fileSystem);
    const readSizes = fileSystem.readEntrySizes?.bind(fileSystem);
    const namesOnly = readNames !== undefined && readSizes !== undefined;
    const matcher = createIgnoreMatcher(fileSystem);
    // The walked directory's rules (from the workspace root down) and whether it is ignored
    // itself (then so is everything in it); each subdirectory the walk enters is not ignored.
    const [walkedRules, walkedIgnored] = await Promise.all([
      matcher.rulesFor(resolved.real),
      matcher.isIgnored(resolved.real, true),
    ]);
    const walk: DirectoryWalk = {
      page: [],
      files: 0,
      directories: 0,
      bytes: 0,
      stopped: false,
      skippedHidden: 0,
      skippedIgnored: 0,
    };
    let visited = 0;
    const sizing: Array<Promise<void>> = [];
    // The sizings of page files, and how many page files are sized or being sized.
    const pageSizing: Array<Promise<void>> = [];
    let pageFilesSized = 0;
    const startAnalysisWhenReady = (): void => {
      if (walk.analysis !== undefined || walk.page.length < end - start) return;
      if (pageFilesSized < walk.page.length) return;
      const analysis = Promise.all(pageSizing).then(() => analyzePage(walk.page, context));
      analysis.catch(() => undefined);
      walk.analysis = analysis;
    };

    /** Reads the sizes of `names` in `real` while the walk goes on (a few directories at once). */
    const sizeLater = async (
      real: string,
      names: string[],
      pageFiles: Array<PageFile | undefined>,
      pageFileCount: number,
    ): Promise<void> => {
      while (sizing.length >= SIZING_DIRECTORIES_IN_FLIGHT) await sizing.shift();
      const task = (readSizes as NonNullable<typeof readSizes>)(real, names).then((sizes) => {
        for (const [index, size] of sizes.entries()) {
          walk.bytes += size;
          const pageFile = pageFiles[index];
          if (pageFile !== undefined) pageFile.bytes = size;
        }
      });
      // Awaited below; marked handled so a failure while the walk is elsewhere is not "unhandled".
      task.catch(() => undefined);
      sizing.push(task);
      if (pageFileCount > 0) {
        pageSizing.push(task);
        pageFilesSized += pageFileCount;
        startAnalysisWhenReady();
      }
    };

    const visit = async (
      shown: string,
      real: string,
      inherited: readonly IgnoreRule[],
      ignored: boolean,
      walked: boolean,
    ): Promise<void> => {
      signal.throwIfAborted();
      const entries: ListingEntry[] = namesOnly
        ? await (readNames as NonNullable<typeof readNames>)(real)
        : await fileSystem.readDirectory(real);
      entries.sort(compareNames);
      // The walked directory's rules came from the matcher; a subdirectory adds its own ignore
      // files, read only when its listing holds one.
      const rules =
        walked || !entries.some(isIgnoreFile)
          ? inherited
          : [...inherited, ...(await loadIgnoreRules(fileSystem, real))];
      const sameReal = shown === real;
      const unsizedNames: string[] = [];
      const unsizedPageFiles: Array<PageFile | undefined> = [];
      let unsizedPageFileCount = 0;
      for (const entry of entries) {
        const shownChild = join(shown, entry.name);
        const realChild = sameReal ? shownChild : join(real, entry.name);
        if (workspace.isSecret(shownChild) || (!sameReal && workspace.isSecret(realChild))) {
          continue;
        }
        if (entry.name.startsWith(".")) {
          walk.skippedHidden += 1;
          continue;
        }
        if (visited >= maxScanEntries && walk.files > end) {
          walk.stopped = true;
          break;
        }
        const isDirectory = entry.type === "directory";
        if (ignored || matchIgnoreRules(rules, realChild, isDirectory) === true) {
          walk.skippedIgnored += 1;
          continue;
        }
        visited += 1;
        if (isDirectory) {
          walk.directories += 1;
          await visit(shownChild, realChild, rules, false, false);
          if (walk.stopped) break;
        } else if (entry.type === "file") {
          walk.files += 1;
          const onPage = walk.files > start && walk.files <= end;
          const pageFile: PageFile | undefined = onPage
            ? { path: shownChild, real: realChild, bytes: entry.size ?? 0 }
            : undefined;
          if (pageFile !== undefined) walk.page.push(pageFile);
          if (entry.size !== undefined) {
            walk.bytes += entry.size;
            if (pageFile !== undefined) {
              pageFilesSized += 1;
              startAnalysisWhenReady();
            }
          } else {
            unsizedNames.push(entry.name);
            unsizedPageFiles.push(pageFile);
            if (pageFile !== undefined) unsizedPageFileCount += 1;
          }
        }
      }
      if (unsizedNames.length > 0) {
        await sizeLater(real, unsizedNames, unsizedPageFiles, unsizedPageFileCount);
      }
    };

    // Every sizing (and an early analysis) settles before the walk returns or throws; the first
    // failure is thrown.
    try {
      await visit(resolved.path, resolved.real, walkedRules, walkedIgnored, true);
    } catch (error) {
      await Promise.allSettled([...sizing, walk.analysis]);
      throw error;
    }
    for (const outcome of await Promise.allSettled(sizing)) {
      if (outcome.status === "rejected") throw outcome.reason;
    }
    return walk;
  }

  /**
   * Analyses the page's files in order, a few at a time (never more than one file over the
   * streaming threshold's worth of bytes in memory at once).
   */
  async function analyzePage(
    page: readonly PageFile[],
    context: ToolContext,
  ): Promise<PageAnalysis> {
    const figures: FileFigures[] = [];
    const listed: ListedFigures = { files: 0, bytes: 0, lines: 0, binary_files: 0 };
    let index = 0;
    while (index < page.length) {
      context.signal.throwIfAborted();
      const group: PageFile[] = [];
      let groupBytes = 0;
      while (index < page.length && group.length < ANALYSES_IN_FLIGHT) {
        const file = page[index] as PageFile;
        const held = file.bytes > streamThreshold ? chunkBytes : file.bytes;
        if (group.length > 0 && groupBytes + held > Math.max(streamThreshold, chunkBytes)) break;
        context.progress({ message: file.path, completed: index, total: page.length });
        group.push(file);
        groupBytes += held;
        index += 1;
      }
      const analyses = await Promise.all(
        group.map((file) => analyze(file.real, file.bytes, context.signal)),
      );
      for (const [position, analysis] of analyses.entries()) {
        const file = group[position] as PageFile;
        listed.files += 1;
        listed.bytes += file.bytes;
        if (analysis.binary) listed.binary_files += 1;
        else listed.lines += analysis.lines ?? 0;
        figures.push({
          path: file.path,
          bytes: file.bytes,
          lines: analysis.lines,
          binary: analysis.binary,
        });
      }
    }
    return { figures, listed };
  }

  return defineTool({
    name,
    description: parsed.description ?? description(defaultLimit, mountedTools(parsed.mountedTools)),
    input: createInputSchema(defaultLimit, maxLimit),
    aliases: FILE_STATS_ALIASES,
    annotations: { title: "File statistics", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    timeoutMs: 120_000,
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path);
      const stat = await fileSystem.stat(resolved.real);
      if (stat === undefined) return pathNotFound(resolved.display);
      const modifiedAt = new Date(stat.modifiedMs).toISOString();
      if (stat.type !== "directory") {
        const analysis = await analyze(resolved.real, stat.size, context.signal);
        return ok<FileStatsToolData>({
          kind: "file",
          path: resolved.display,
          bytes: stat.size,
          lines: analysis.lines,
          binary: analysis.binary,
          encoding: analysis.encoding === null ? null : encodingLabel(analysis.encoding),
          line_ending: analysis.lineEnding,
          invalid_bytes: analysis.invalidBytes,
          streamed: analysis.streamed,
          modified_at: modifiedAt,
        });
      }

      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const walk = await walkDirectory(resolved, offset - 1, offset - 1 + limit, context);
      if (!walk.stopped && isOffsetPastEnd(offset, walk.files)) {
        return offsetPastEnd({ tool: name, offset, total: walk.files, unit: "files" });
      }
      const { figures, listed } = await (walk.analysis ?? analyzePage(walk.page, context));
      const { files, stopped } = walk;
      const end = offset - 1 + limit;
      const data: FileStatsDirectoryData = {
        kind: "directory",
        path: resolved.display,
        modified_at: modifiedAt,
        offset,
        files: figures,
        truncated: files > end,
        directories: walk.directories,
        bytes: walk.bytes,
        complete: !stopped,
        listed,
        skipped_hidden: walk.skippedHidden,
        skipped_ignored: walk.skippedIgnored,
      };
      if (stopped) data.total_at_least = files;
      else data.total = files;
      if (files > end) data.next_offset = end + 1;
      return ok<FileStatsToolData>(data);
    },
    render: (data) => formatFileStats(data, { toolName: name }),
  });
}
