import {
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import type { FileSystem } from "./file-system.js";
import { createIgnoreMatcher } from "./internal/gitignore.js";
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
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the statistics tool. */
export const FILE_STATS_TOOL_NAME = "file_stats";

/** Default size above which lines are counted by streaming the file in chunks: 8 MiB. */
export const DEFAULT_STATS_STREAM_THRESHOLD_BYTES = 8 * 1024 * 1024;

/** Default chunk size when streaming: 1 MiB. */
export const DEFAULT_STATS_STREAM_CHUNK_BYTES = 1024 * 1024;

/** Default cap on the files listed (and line-counted) for a directory: 200. */
export const DEFAULT_MAX_STATS_FILES = 200;

/** Default cap on the entries a directory walk visits: 10,000. */
export const DEFAULT_MAX_SCAN_ENTRIES = 10_000;

/** Options of {@link createFileStatsTool}. */
export interface FileStatsToolOptions {
  /** The confined workspace (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). Default `"file_stats"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Files above this size are streamed in chunks instead of read whole. Default {@link DEFAULT_STATS_STREAM_THRESHOLD_BYTES} (8 MiB). */
  streamThresholdBytes?: number;
  /** Chunk size when streaming. Default {@link DEFAULT_STATS_STREAM_CHUNK_BYTES} (1 MiB). */
  streamChunkBytes?: number;
  /** Most files listed for a directory. Default {@link DEFAULT_MAX_STATS_FILES} (200). */
  maxFiles?: number;
  /** Most entries a directory walk visits (totals cover only these). Default {@link DEFAULT_MAX_SCAN_ENTRIES} (10,000). */
  maxScanEntries?: number;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  streamThresholdBytes: z.number().int().min(0).optional(),
  streamChunkBytes: z
    .number()
    .int()
    .min(4096)
    .max(64 * 1024 * 1024)
    .optional(),
  maxFiles: z.number().int().min(1).max(100_000).optional(),
  maxScanEntries: z.number().int().min(1).max(10_000_000).optional(),
});

/** The input schema of `file_stats`. */
export const fileStatsInputSchema = z.object({
  path: z
    .string()
    .optional()
    .describe(
      "A file or directory, relative to the workspace root. Default: the root ('.'), which gives per-file figures for the whole workspace.",
    ),
});

/** The input of `file_stats`. */
export type FileStatsInput = z.output<typeof fileStatsInputSchema>;

/** Figures of one file. */
export interface FileFigures {
  /** The file, as a workspace path. */
  path: string;
  /** Size in bytes. */
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
  lineEnding: LineEnding | null;
  /** Whether some bytes are not valid in the encoding (only checked for files read whole). */
  invalidBytes: boolean;
  /** Whether the file was streamed in chunks (large files) instead of read whole. */
  streamed: boolean;
  /** Last modification, ISO 8601. */
  modified: string;
}

/** What `file_stats` returns for a directory. */
export interface FileStatsDirectoryData {
  /** Discriminates the result. */
  kind: "directory";
  /** The directory, as a workspace path. */
  path: string;
  /** Last modification of the directory itself, ISO 8601. */
  modified: string;
  /** Per-file figures, sorted by path, at most `maxFiles`. */
  files: FileFigures[];
  /** Files found but not listed (and not line-counted) because of the cap. */
  omittedFiles: number;
  /** Totals over every file found. `lines` covers the listed text files only. */
  totals: {
    files: number;
    directories: number;
    bytes: number;
    lines: number;
    binaryFiles: number;
  };
  /** Whether the walk stopped at `maxScanEntries` (totals then cover only part of the tree). */
  scanLimited: boolean;
  /** Hidden entries (names starting with '.') not counted. */
  skippedHidden: number;
  /** Entries ignored by `.gitignore` / `.ignore` not counted. */
  skippedIgnored: number;
}

/** What `file_stats` returns. */
export type FileStatsToolData = FileStatsFileData | FileStatsDirectoryData;

/** The `file_stats` tool's type. */
export type FileStatsTool = Tool<typeof fileStatsInputSchema, FileStatsToolData>;

function description(maxFiles: number): string {
  return [
    "Get figures about a file or a directory without reading its content into the conversation.",
    "For a file: size in bytes, line count, whether it is binary, text encoding, line endings (LF/CRLF) and last modification time. Use it before read_file on a file that may be huge or binary, to plan which pages to read.",
    `For a directory: each file's lines and bytes (sorted by path, at most ${maxFiles}) and totals; hidden and .gitignored files are not counted. Call it on a subdirectory to see the files past the cap.`,
  ].join("\n");
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

const numberFormat = new Intl.NumberFormat("en-US");
const LINE_ENDING_LABELS: Record<LineEnding, string> = {
  lf: "LF line endings",
  crlf: "CRLF line endings",
  mixed: "mixed LF/CRLF line endings",
  none: "no line endings",
};

/**
 * Renders `file_stats` data for the model.
 *
 * @param data - the figures
 * @returns model-facing text
 */
export function formatFileStats(data: FileStatsToolData): string {
  if (data.kind === "file") {
    if (data.binary) {
      return `${data.path}: ${numberFormat.format(data.bytes)} bytes, binary (no lines counted; read_file will refuse it), modified ${data.modified}.`;
    }
    const parts = [
      `${numberFormat.format(data.bytes)} bytes`,
      `${numberFormat.format(data.lines ?? 0)} ${data.lines === 1 ? "line" : "lines"}`,
      data.encoding ?? "utf-8",
      LINE_ENDING_LABELS[data.lineEnding ?? "none"],
    ];
    if (data.invalidBytes) parts.push("some bytes are not valid in this encoding");
    return `${data.path}: ${parts.join(", ")}, modified ${data.modified}.`;
  }
  const totals = data.totals;
  const lines = [
    `${data.path}: ${numberFormat.format(totals.files)} files in ${numberFormat.format(totals.directories)} subdirectories, ${numberFormat.format(totals.bytes)} bytes, ${numberFormat.format(totals.lines)} lines${data.omittedFiles > 0 ? " in the files listed" : ""}${totals.binaryFiles > 0 ? `, ${totals.binaryFiles} binary` : ""}; modified ${data.modified}.`,
  ];
  const skipped: string[] = [];
  if (data.skippedHidden > 0) skipped.push(`${data.skippedHidden} hidden`);
  if (data.skippedIgnored > 0) skipped.push(`${data.skippedIgnored} .gitignored`);
  if (skipped.length > 0) lines.push(`Not counted: ${skipped.join(" and ")} entries.`);
  if (data.scanLimited) {
    lines.push(
      "The walk stopped early (too many entries): totals cover part of the tree; call file_stats on a subdirectory.",
    );
  }
  if (data.files.length === 0) {
    lines.push(
      skipped.length > 0
        ? "No countable files: every entry is hidden or ignored."
        : "No files: the directory is empty or holds only empty directories.",
    );
    return lines.join("\n");
  }
  lines.push("lines\tbytes\tpath");
  for (const file of data.files) {
    lines.push(
      `${file.binary ? "binary" : numberFormat.format(file.lines ?? 0)}\t${numberFormat.format(file.bytes)}\t${file.path}`,
    );
  }
  if (data.omittedFiles > 0) {
    lines.push(
      formatTruncationMarker({
        omitted: data.omittedFiles,
        unit: data.omittedFiles === 1 ? "file" : "files",
        next: "call file_stats on a subdirectory to see their figures",
      }),
    );
  }
  return lines.join("\n");
}

function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

/**
 * Creates the `file_stats` tool: figures about a file (bytes, lines, binary, encoding, line
 * endings, modification time) or a bounded per-file listing of a directory with totals. Files
 * above `streamThresholdBytes` are counted by streaming chunks through `fileSystem.openReader`,
 * so a 1 GiB file never sits in memory.
 *
 * @param options - the workspace, caps and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const fileStats = createFileStatsTool({ workspace });
 * await fileStats.run({ path: "logs/big.log" }); // data: { kind: "file", lines: 12000000, … }
 */
export function createFileStatsTool(options: FileStatsToolOptions): FileStatsTool {
  const parsed = parseOptions("createFileStatsTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const streamThreshold = parsed.streamThresholdBytes ?? DEFAULT_STATS_STREAM_THRESHOLD_BYTES;
  const chunkBytes = parsed.streamChunkBytes ?? DEFAULT_STATS_STREAM_CHUNK_BYTES;
  const maxFiles = parsed.maxFiles ?? DEFAULT_MAX_STATS_FILES;
  const maxScanEntries = parsed.maxScanEntries ?? DEFAULT_MAX_SCAN_ENTRIES;

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

  return defineTool({
    name: parsed.name ?? FILE_STATS_TOOL_NAME,
    description: parsed.description ?? description(maxFiles),
    input: fileStatsInputSchema,
    annotations: { title: "File statistics", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    timeoutMs: 120_000,
    execute: (request, context) =>
      guardFileSystem(async () => {
        const resolved = await workspace.resolve(request.path);
        const stat = await fileSystem.stat(resolved.real);
        if (stat === undefined) {
          return fail("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
            hint: "Check the path with list_directory or glob_search.",
          });
        }
        const modified = new Date(stat.modifiedMs).toISOString();
        if (stat.type !== "directory") {
          const analysis = await analyze(resolved.real, stat.size, context.signal);
          return ok<FileStatsToolData>({
            kind: "file",
            path: resolved.display,
            bytes: stat.size,
            lines: analysis.lines,
            binary: analysis.binary,
            encoding: analysis.encoding === null ? null : encodingLabel(analysis.encoding),
            lineEnding: analysis.lineEnding,
            invalidBytes: analysis.invalidBytes,
            streamed: analysis.streamed,
            modified,
          });
        }

        const matcher = createIgnoreMatcher(fileSystem);
        const found: Array<{ path: string; real: string; bytes: number }> = [];
        let directories = 0;
        let visited = 0;
        let scanLimited = false;
        let skippedHidden = 0;
        let skippedIgnored = 0;
        const pending: Array<[string, string]> = [[resolved.path, resolved.real]];
        walk: while (pending.length > 0) {
          context.signal.throwIfAborted();
          const [shown, real] = pending.shift() as [string, string];
          for (const entry of await fileSystem.readDirectory(real)) {
            const shownChild = join(shown, entry.name);
            const realChild = join(real, entry.name);
            if (workspace.isSecret(shownChild) || workspace.isSecret(realChild)) continue;
            if (entry.name.startsWith(".")) {
              skippedHidden += 1;
              continue;
            }
            if (await matcher.isIgnored(realChild, entry.type === "directory")) {
              skippedIgnored += 1;
              continue;
            }
            visited += 1;
            if (visited > maxScanEntries) {
              scanLimited = true;
              break walk;
            }
            if (entry.type === "directory") {
              directories += 1;
              pending.push([shownChild, realChild]);
            } else if (entry.type === "file") {
              found.push({ path: shownChild, real: realChild, bytes: entry.size });
            }
          }
        }
        found.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
        const files: FileFigures[] = [];
        let lines = 0;
        let binaryFiles = 0;
        let bytes = 0;
        for (const [index, file] of found.entries()) {
          bytes += file.bytes;
          if (index >= maxFiles) continue;
          context.signal.throwIfAborted();
          context.progress({
            message: file.path,
            completed: index,
            total: Math.min(found.length, maxFiles),
          });
          const analysis = await analyze(file.real, file.bytes, context.signal);
          if (analysis.binary) binaryFiles += 1;
          else lines += analysis.lines ?? 0;
          files.push({
            path: file.path,
            bytes: file.bytes,
            lines: analysis.lines,
            binary: analysis.binary,
          });
        }
        return ok<FileStatsToolData>({
          kind: "directory",
          path: resolved.display,
          modified,
          files,
          omittedFiles: Math.max(0, found.length - maxFiles),
          totals: { files: found.length, directories, bytes, lines, binaryFiles },
          scanLimited,
          skippedHidden,
          skippedIgnored,
        });
      }),
    render: formatFileStats,
  });
}
