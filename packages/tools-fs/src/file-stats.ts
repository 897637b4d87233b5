import {
  defineTool,
  formatCount,
  formatCountOf,
  formatPageMarker,
  isOffsetPastEnd,
  joinSentences,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import { z } from "zod";
import {
  DirectoryStatsWalk,
  FileAnalyzer,
  type FileFigures,
  type ListedFigures,
} from "./internal/stats-walk.js";
import { encodingLabel, type LineEnding } from "./internal/text-codec.js";
import {
  formatSize,
  limitsInOrder,
  pageLimitOptionsShape,
  pathNotFound,
  type WorkspaceToolOptions,
  workspaceToolOptionsShape,
} from "./internal/tool-support.js";

export type { FileFigures, ListedFigures } from "./internal/stats-walk.js";

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
      .describe("File or directory (default the root: the whole workspace)."),
    offset: paging.offset.describe("Directory: 1-based first file, by path (default 1)."),
    limit: paging.limit.describe(`Directory: most files (default ${defaultLimit}).`),
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
  /** The page size that applied (the `limit` asked for, or the default). */
  limit: number;
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

function description(mounted: ReturnType<typeof mountedTools>): string {
  return joinSentences(
    [
      `Figures without reading content. A file: size, line count, binary or not, encoding, line endings, modification time.${mounted.when("read_file", " Use it before read_file on a file that may be huge or binary.")}`,
      "A directory: files, subdirectories and bytes of the whole tree, and each file's lines and size (hidden and .gitignored entries not counted); a cut result ends with the exact call for the next page.",
    ],
    "\n",
  );
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
      formatCountOf(data.lines ?? 0, "line", "lines"),
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
    `${data.path}: ${atLeast}${formatCountOf(fileCount, "file", "files")} in ${atLeast}${formatCountOf(data.directories, "subdirectory", "subdirectories")}, ${atLeast}${sizeWithBytes(data.bytes)} in all; modified ${data.modified_at}.`,
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
      ? `; ${formatCountOf(listed.binary_files, "binary file", "binary files")} (no lines)`
      : "";
  const wholeTree = data.complete && data.offset === 1 && !data.truncated;
  lines.push(
    wholeTree
      ? `Lines: ${formatCount(listed.lines)} in all${binary}.`
      : `Files ${formatCount(data.offset)}–${formatCount(data.offset + listed.files - 1)} (by path): ${formatCountOf(listed.lines, "line", "lines")}, ${formatSize(listed.bytes)}${binary}.`,
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
        args: { path: data.path, limit: data.limit },
      }),
    );
  }
  return lines.join("\n");
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

  const analyzer = new FileAnalyzer(fileSystem, streamThreshold, chunkBytes, workspace.lineTotals);

  return defineTool({
    name,
    description: parsed.description ?? description(mountedTools(parsed.mountedTools)),
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
        const analysis = await analyzer.analyze(resolved.real, stat.size, context.signal);
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
      const walk = await new DirectoryStatsWalk({
        workspace,
        analyzer,
        maxScanEntries,
        start: offset - 1,
        end: offset - 1 + limit,
        context,
      }).run(resolved);
      if (!walk.stopped && isOffsetPastEnd(offset, walk.files)) {
        return offsetPastEnd({ tool: name, offset, total: walk.files, unit: "files" });
      }
      const { figures, listed } = await (walk.analysis ?? analyzer.analyzePage(walk.page, context));
      const { files, stopped } = walk;
      const end = offset - 1 + limit;
      const data: FileStatsDirectoryData = {
        kind: "directory",
        path: resolved.display,
        modified_at: modifiedAt,
        offset,
        limit,
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
