import {
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  type ToolContext,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import type { FileStat } from "./file-system.js";
import {
  buildLineIndex,
  DEFAULT_INDEX_CHUNK_BYTES,
  LruCache,
  locateLine,
  numberLine,
  readLines,
  type SparseLineIndex,
} from "./internal/line-index.js";
import {
  BINARY_SNIFF_BYTES,
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
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
import { countNewlines } from "./internal/unified-diff.js";
import type { ResolvedPath, Workspace } from "./workspace.js";

/** The default name of the read tool. */
export const READ_FILE_TOOL_NAME = "read_file";

/** Default page length in lines, when the model sends no `limit`. */
export const DEFAULT_READ_LIMIT = 400;

/** Largest `limit` a model may ask for. */
export const DEFAULT_MAX_READ_LIMIT = 2_000;

/** Default cap on the characters of one page (numbered lines); the page ends early past it. */
export const DEFAULT_MAX_PAGE_CHARACTERS = 100_000;

/** Default cap on the characters shown of one line; the rest is cut with a marker. */
export const DEFAULT_MAX_LINE_CHARACTERS = 2_000;

/** Files larger than this (bytes) are paged by streaming through a sparse line index: 8 MiB. */
export const DEFAULT_STREAM_THRESHOLD_BYTES = 8 * 1_048_576;

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
  /** Page length when the model sends no `limit`. Default {@link DEFAULT_READ_LIMIT} (400). */
  defaultLimit?: number;
  /** Largest `limit` accepted. Default {@link DEFAULT_MAX_READ_LIMIT} (2,000). */
  maxLimit?: number;
  /** Most characters in one page. Default {@link DEFAULT_MAX_PAGE_CHARACTERS} (100,000). */
  maxPageCharacters?: number;
  /** Most characters shown of one line. Default {@link DEFAULT_MAX_LINE_CHARACTERS} (2,000). */
  maxLineCharacters?: number;
  /** Size above which a file is streamed, never read whole. Default {@link DEFAULT_STREAM_THRESHOLD_BYTES} (8 MiB). */
  streamThresholdBytes?: number;
  /** Line indexes of huge files kept (LRU). `0` disables the cache. Default {@link DEFAULT_INDEX_CACHE_ENTRIES} (16). */
  indexCacheEntries?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_READ_FILE_TIMEOUT_MS} (120 s). */
  timeoutMs?: number;
}

const readFileOptionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  defaultLimit: z.number().int().min(1).max(100_000).optional(),
  maxLimit: z.number().int().min(1).max(100_000).optional(),
  maxPageCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  maxLineCharacters: z.number().int().min(20).max(1_000_000).optional(),
  streamThresholdBytes: z.number().int().min(0).max(1_073_741_824).optional(),
  indexCacheEntries: z.number().int().min(0).max(1_000).optional(),
  timeoutMs: z.number().int().min(0).max(3_600_000).optional(),
});

function createReadFileInputSchema(defaultLimit: number, maxLimit: number) {
  return z.object({
    path: z
      .string()
      .describe("The file to read, relative to the workspace root (e.g. 'src/index.ts')."),
    offset: z
      .number()
      .int()
      .min(1)
      .max(2_147_483_647)
      .optional()
      .describe(
        "Optional: the 1-based line to start at (default 1). Use the offset the previous page names to continue.",
      ),
    limit: z
      .number()
      .int()
      .min(1)
      .max(maxLimit)
      .optional()
      .describe(
        `Optional: how many lines to return (default ${defaultLimit}, at most ${maxLimit}).`,
      ),
  });
}

/** The read tool's input schema (with the default limits in its descriptions). */
export const readFileInputSchema = createReadFileInputSchema(
  DEFAULT_READ_LIMIT,
  DEFAULT_MAX_READ_LIMIT,
);

/** The read tool's input. */
export type ReadFileToolInput = z.output<typeof readFileInputSchema>;

/** One page of a file, as `read_file` returns it. */
export interface ReadFileToolData {
  /** The path as shown to the model. */
  path: string;
  /** The page: numbered lines (`cat -n` style), long lines cut with a marker. Empty for an empty file. */
  content: string;
  /** First line shown (1-based; 0 for an empty file). */
  startLine: number;
  /** Last line shown (0 for an empty file). */
  endLine: number;
  /** Lines in the file. */
  totalLines: number;
  /** The `offset` of the next page, when lines remain after this one. */
  nextOffset?: number;
  /** The file's encoding. */
  encoding: TextEncodingName;
  /** The file's line endings (for a streamed file: of its first chunk). */
  lineEnding: LineEnding;
  /** sha-256 of the whole file, lower-case hex (pass a 12+ character prefix as `expected_sha`). */
  sha: string;
  /** The file's size in bytes. */
  bytes: number;
  /** Whether some bytes (on this page, for a streamed file) were invalid and shown as U+FFFD. */
  invalidBytes: boolean;
  /** How many lines of the page were cut for length. */
  cutLines: number;
  /** Whether the file was paged by streaming (larger than the stream threshold). */
  streamed: boolean;
}

/** The read tool's type. */
export type ReadFileTool = Tool<typeof readFileInputSchema, ReadFileToolData>;

function defaultDescription(
  defaultLimit: number,
  maxPageCharacters: number,
  maxLineCharacters: number,
): string {
  const number = new Intl.NumberFormat("en-US");
  return [
    "Read a text file as numbered lines (cat -n style), one page at a time.",
    "The header reads `path — lines A–B of TOTAL (encoding, sha: …)`; when lines remain, the page ends with the exact offset for the next call.",
    `Use offset (1-based line) and limit to page or jump: after grep_search finds line 900, read with offset=880, limit=60. A page holds up to ${defaultLimit} lines or ${number.format(maxPageCharacters)} characters; lines over ${number.format(maxLineCharacters)} characters are cut.`,
    "Read a file before editing it, and pass the header's sha as expected_sha to edit_file, multi_edit or write_file so a concurrent change is caught.",
    "The line-number prefix is not part of the file: never copy it into old_text.",
    "Binary files are refused (use file_stats); directories are refused (use list_directory). Very large files work: pages come without loading the whole file.",
  ].join("\n");
}

/** A huge file's cached facts. */
interface IndexedFile {
  index: SparseLineIndex;
  sha: string;
}

type PageLine = { text: string; cutBytes: number };

function formatHeader(data: ReadFileToolData): string {
  const details = [encodingLabel(data.encoding)];
  if (data.lineEnding === "crlf") details.push("CRLF line endings");
  if (data.lineEnding === "mixed") details.push("mixed line endings");
  if (data.invalidBytes) details.push("invalid bytes shown as \uFFFD");
  details.push(`sha: ${data.sha.slice(0, SHORT_SHA_LENGTH)}`);
  const range =
    data.totalLines === 0
      ? "empty file, 0 lines"
      : `lines ${data.startLine}–${data.endLine} of ${data.totalLines}`;
  return `${data.path} — ${range} (${details.join(", ")})`;
}

/**
 * Renders a page for the model: the header, the numbered lines and, when lines remain, the
 * standard truncation marker with the next `offset`.
 *
 * @param data - the read tool's result data
 * @returns model-facing text
 * @example
 * formatReadFilePage(data);
 * // "src/a.ts — lines 1–400 of 1234 (utf-8, sha: 0123456789ab)\n     1\timport …\n…[truncated: 834 more lines — call again with offset=401]"
 */
export function formatReadFilePage(data: ReadFileToolData): string {
  const header = formatHeader(data);
  if (data.totalLines === 0) return `${header}\n(The file is empty: it has no lines.)`;
  const marker =
    data.nextOffset === undefined
      ? ""
      : `\n${formatTruncationMarker({
          omitted: data.totalLines - data.endLine,
          unit: "lines",
          next: `call again with offset=${data.nextOffset}`,
        })}`;
  return `${header}\n${data.content}${marker}`;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Creates the `read_file` tool: a line-numbered page of a text file with a header naming the
 * range, total lines, encoding and sha-256 prefix, and the exact `offset` of the next page.
 * UTF-8, UTF-8 with BOM and UTF-16 (with BOM) are decoded; invalid bytes show as U+FFFD and are
 * noted in the header; binary files and directories are refused.
 *
 * Files above `streamThresholdBytes` are never read whole: one streamed pass builds a sparse line
 * index (cached per real path, size, modification time and identity, with the sha from
 * `FileSystem.digest`), and each page is read with ranged reads from the nearest checkpoint —
 * memory stays bounded for a 1 GiB file and later pages skip the scan. Huge UTF-16 files are
 * refused with `TOO_LARGE` (UTF-8 is the streamed encoding).
 *
 * @param options - the workspace, name/description overrides and the caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const readFile = createReadFileTool({ workspace });
 * await readFile.run({ path: "src/index.ts", offset: 401 });
 * // data.content: "   401\texport …", data.nextOffset: 801 when more remain
 */
export function createReadFileTool(options: ReadFileToolOptions): ReadFileTool {
  const parsed = parseOptions("createReadFileTool", readFileOptionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_READ_LIMIT;
  const defaultLimit = Math.min(parsed.defaultLimit ?? DEFAULT_READ_LIMIT, maxLimit);
  const maxPageCharacters = parsed.maxPageCharacters ?? DEFAULT_MAX_PAGE_CHARACTERS;
  const maxLineCharacters = parsed.maxLineCharacters ?? DEFAULT_MAX_LINE_CHARACTERS;
  // Lines up to 64 KiB are read whole (cut by characters); longer ones are read only this far.
  const maxLineBytes = Math.max(maxLineCharacters * 4 + 8, 65_536);
  const streamThreshold = parsed.streamThresholdBytes ?? DEFAULT_STREAM_THRESHOLD_BYTES;
  const cache = new LruCache<Promise<IndexedFile>>(
    parsed.indexCacheEntries ?? DEFAULT_INDEX_CACHE_ENTRIES,
  );
  const name = parsed.name ?? READ_FILE_TOOL_NAME;
  const input = createReadFileInputSchema(defaultLimit, maxLimit);

  /** Collects a page from decoded lines, honouring the line, page and line-length caps. */
  function collectPage(first: number, limit: number) {
    const lines: string[] = [];
    let characters = 0;
    let cutLines = 0;
    return {
      lines,
      get cutLines() {
        return cutLines;
      },
      /** Adds a line; `false` when the page is full (the line was not added). */
      add(line: PageLine): boolean {
        if (lines.length >= limit) return false;
        const number = first + lines.length;
        let text = line.text;
        let omitted = 0;
        let unit = "characters";
        if (text.length > maxLineCharacters) {
          let end = maxLineCharacters;
          const code = text.charCodeAt(end - 1);
          if (code >= 0xd800 && code <= 0xdbff) end -= 1;
          omitted = text.length - end;
          text = text.slice(0, end);
        }
        if (line.cutBytes > 0) {
          // Only the first bytes of a giant line were read: count the rest in bytes.
          omitted = line.cutBytes + (omitted > 0 ? utf8Length(line.text.slice(text.length)) : 0);
          unit = "bytes";
        }
        if (omitted > 0) {
          cutLines += 1;
          text += ` ${formatTruncationMarker({
            omitted,
            unit,
            next: `line ${number} is too long to show whole; grep_search finds text inside it`,
          })}`;
        }
        const formatted = numberLine(number, text);
        if (lines.length > 0 && characters + formatted.length + 1 > maxPageCharacters) return false;
        lines.push(formatted);
        characters += formatted.length + 1;
        return true;
      },
    };
  }

  function pastEnd(resolved: ResolvedPath, offset: number, totalLines: number) {
    return fail(
      "INVALID_INPUT",
      totalLines === 0
        ? `offset=${offset} is past the end: ${resolved.display} is empty (0 lines).`
        : `offset=${offset} is past the end: ${resolved.display} has ${totalLines} line${totalLines === 1 ? "" : "s"}.`,
      {
        hint:
          totalLines === 0
            ? `Call ${name} without offset; there is nothing to page through.`
            : `Call again with offset between 1 and ${totalLines}, e.g. offset=${Math.max(1, totalLines - defaultLimit + 1)} for the last page.`,
      },
    );
  }

  function finish(
    resolved: ResolvedPath,
    page: ReturnType<typeof collectPage>,
    offset: number,
    facts: Omit<
      ReadFileToolData,
      "path" | "content" | "startLine" | "endLine" | "nextOffset" | "cutLines"
    >,
  ) {
    const shown = page.lines.length;
    const endLine = shown === 0 ? 0 : offset + shown - 1;
    const data: ReadFileToolData = {
      path: resolved.display,
      content: page.lines.join("\n"),
      startLine: shown === 0 ? 0 : offset,
      endLine,
      totalLines: facts.totalLines,
      encoding: facts.encoding,
      lineEnding: facts.lineEnding,
      sha: facts.sha,
      bytes: facts.bytes,
      invalidBytes: facts.invalidBytes,
      cutLines: page.cutLines,
      streamed: facts.streamed,
    };
    if (endLine < facts.totalLines && shown > 0) data.nextOffset = endLine + 1;
    return ok(data);
  }

  async function readWhole(resolved: ResolvedPath, offset: number, limit: number) {
    const bytes = await fileSystem.readFile(resolved.real);
    if (isBinary(bytes)) return binaryRefusal(resolved);
    // Web Crypto hashes off the main thread: decode meanwhile.
    const hashing = sha256Hex(bytes);
    const decoded = decodeText(bytes);
    if (decoded === undefined) return binaryRefusal(resolved);
    const sha = await hashing;
    const text = decoded.text;
    const totalLines = text.length === 0 ? 0 : countNewlines(text) + (text.endsWith("\n") ? 0 : 1);
    if (offset > Math.max(1, totalLines)) return pastEnd(resolved, offset, totalLines);
    const page = collectPage(offset, limit);
    let start = 0;
    for (let line = 1; line < offset; line += 1) start = text.indexOf("\n", start) + 1;
    while (totalLines > 0 && start <= text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline;
      if (newline === -1 && start === text.length) break;
      const line = text.slice(start, end).replace(/\r$/, "");
      if (!page.add({ text: line, cutBytes: 0 })) break;
      if (newline === -1) break;
      start = newline + 1;
    }
    return finish(resolved, page, offset, {
      totalLines,
      encoding: decoded.encoding,
      lineEnding: decoded.lineEnding,
      sha,
      bytes: bytes.length,
      invalidBytes: decoded.invalidBytes,
      streamed: false,
    });
  }

  function binaryRefusal(resolved: ResolvedPath) {
    return fail(
      "UNSUPPORTED",
      `${resolved.display} looks like a binary file; ${name} shows text files only.`,
      {
        hint: `Call file_stats on ${resolved.display} for its size and type.`,
      },
    );
  }

  function indexFile(resolved: ResolvedPath, stat: FileStat, start: number, context: ToolContext) {
    const key = `${resolved.real}\0${stat.size}\0${stat.modifiedMs}\0${stat.identity ?? ""}`;
    const cached = cache.get(key);
    if (cached !== undefined) return { key, entry: cached };
    const entry = (async (): Promise<IndexedFile> => {
      const reader = await fileSystem.openReader(resolved.real);
      try {
        const [index, sha] = await Promise.all([
          buildLineIndex(reader, {
            start,
            chunkBytes: DEFAULT_INDEX_CHUNK_BYTES,
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
    offset: number,
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
            hint: `Use grep_search to find what you need in ${resolved.display}, or ask the user for a UTF-8 copy.`,
          },
        );
      }
      const start = bom === "utf-8-bom" ? 3 : 0;
      const { key, entry } = indexFile(resolved, stat, start, context);
      const { index, sha } = await entry;
      if (index.size !== reader.size) {
        cache.delete(key);
        return fail("CONFLICT", `${resolved.display} changed while it was being read.`, {
          hint: "Call read_file again.",
          retryable: true,
        });
      }
      if (offset > Math.max(1, index.totalLines))
        return pastEnd(resolved, offset, index.totalLines);
      const page = collectPage(offset, limit);
      let invalidBytes = false;
      if (index.totalLines > 0) {
        const { position, skip } = locateLine(index, offset);
        let skipped = 0;
        for await (const raw of readLines(reader, position, index.size, maxLineBytes)) {
          if (skipped < skip) {
            skipped += 1;
            continue;
          }
          if (context.signal.aborted) break;
          const cutShort = raw.bytes.length < raw.byteLength;
          const decoded = decodeUtf8Lenient(raw.bytes, cutShort);
          if (decoded.invalidBytes) invalidBytes = true;
          const text = cutShort ? decoded.text : decoded.text.replace(/\r$/, "");
          const cutBytes = cutShort ? raw.byteLength - utf8Length(decoded.text) : 0;
          if (!page.add({ text, cutBytes })) break;
        }
      }
      const sample = decodeUtf8Lenient(head.subarray(start), true).text;
      return finish(resolved, page, offset, {
        totalLines: index.totalLines,
        encoding: bom ?? "utf-8",
        lineEnding: detectLineEnding(sample),
        sha,
        bytes: index.size,
        invalidBytes,
        streamed: true,
      });
    } finally {
      await reader.close();
    }
  }

  return defineTool({
    name,
    description:
      parsed.description ?? defaultDescription(defaultLimit, maxPageCharacters, maxLineCharacters),
    input,
    annotations: { title: "Read file", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_READ_FILE_TIMEOUT_MS,
    execute: (request, context) =>
      guardFileSystem(async () => {
        const resolved = await workspace.resolve(request.path);
        const stat = await fileSystem.stat(resolved.real);
        if (stat === undefined) {
          return fail("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
            hint: "Check the path with list_directory or glob_search.",
          });
        }
        if (stat.type === "directory") {
          return fail("UNSUPPORTED", `${resolved.display} is a directory; ${name} reads files.`, {
            hint: `Call list_directory with path "${resolved.display}" to see what it holds.`,
          });
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
        if (stat.size > streamThreshold)
          return readStreamed(resolved, stat, offset, limit, context);
        return readWhole(resolved, offset, limit);
      }),
    render: formatReadFilePage,
  });
}
