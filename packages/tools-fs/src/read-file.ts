import {
  defineTool,
  fail,
  formatCount,
  joinSentences,
  type MountedTools,
  mountedTools,
  offsetPastEnd,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  toolOptionsShape,
} from "@agentool/contract";
import { z } from "zod";
import type { FileStat } from "./file-system.js";
import type { PageOutcome } from "./internal/read-page.js";
import { StreamedPageReader } from "./internal/streamed-page.js";
import { directoryNotFile, pathNotFound, workspaceOption } from "./internal/tool-support.js";
import { WholePageReader } from "./internal/whole-page.js";
import {
  DEFAULT_READ_LIMIT,
  formatReadFilePage,
  READ_FILE_TOOL_NAME,
  type ReadFileFormatOptions,
  type ReadFileToolData,
  readFilePageData,
} from "./read-file-page.js";
import type { ResolvedPath, Workspace } from "./workspace.js";

export {
  DEFAULT_READ_LIMIT,
  formatReadFilePage,
  READ_FILE_TOOL_NAME,
  type ReadFileCutLine,
  type ReadFileFormatOptions,
  type ReadFileToolData,
} from "./read-file-page.js";

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
    path: z.string().describe("File to read, relative to the workspace root."),
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
        "1-based first line (default 1); negative counts from the end (-100: the last 100 lines).",
      ),
    limit: paging.limit.describe(`Most lines (default ${defaultLimit}).`),
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
      `Read a text file as numbered lines under a header \`path — lines A–B of TOTAL (encoding, sha)\`; a cut page ends with the exact next call to ${name}.`,
      `A page holds up to ${defaultLimit} lines or ${formatCount(maxPageCharacters)} characters; lines over ${formatCount(maxLineCharacters)} characters are cut.${mounted.when("grep_search", " To jump: after grep_search finds line 900, read with offset=880, limit=60.")}`,
      editors.length > 0 &&
        `Read before editing; pass the header's sha as expected_sha to ${editorList} to catch concurrent changes.`,
      "The line-number prefix is not part of the file: never copy it back.",
      `Binary files are refused${mounted.when("file_stats", " (use file_stats)")}; so are directories${mounted.when("list_directory", " (use list_directory)")}.`,
    ],
    "\n",
  );
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
  const streamThreshold = parsed.streamThresholdBytes ?? DEFAULT_STREAM_THRESHOLD_BYTES;
  const name = parsed.name ?? READ_FILE_TOOL_NAME;
  const input = createReadFileInputSchema(defaultLimit, maxLimit);
  const grepSearch = mounted.has("grep_search");
  const formatOptions: ReadFileFormatOptions = { tool: name, grepSearch };
  const limits = { maxPageCharacters, maxLineCharacters, grepSearch };
  const indexCacheEntries = parsed.indexCacheEntries ?? DEFAULT_INDEX_CACHE_ENTRIES;
  const whole = new WholePageReader({ fileSystem, cache: indexCacheEntries !== 0, limits });
  const streamed = new StreamedPageReader({
    fileSystem,
    // Lines up to 64 KiB are read whole (cut by characters); longer ones are read only this far.
    maxLineBytes: Math.max(maxLineCharacters * 4 + 8, 65_536),
    fullPassMaxBytes: parsed.fullPassMaxBytes ?? DEFAULT_FULL_PASS_MAX_BYTES,
    indexCacheEntries,
    limits,
    lineTotals: workspace.lineTotals,
  });

  /** The page's data, or the failure an outcome without a page stands for. */
  function answer(
    resolved: ResolvedPath,
    stat: FileStat,
    outcome: PageOutcome,
    request: { offset: number; limit: number },
  ) {
    switch (outcome.kind) {
      case "page": {
        const data = readFilePageData(
          resolved.display,
          outcome.page,
          outcome.offset,
          request.limit,
          outcome.facts,
        );
        // A tail longer than the file is the whole file: said so, as an offset past the end is.
        if (request.offset < 0 && data.total !== undefined && -request.offset > data.total)
          data.requested_offset = request.offset;
        return ok(data);
      }
      case "past-end":
        return offsetPastEnd({
          tool: name,
          offset: outcome.offset,
          total: outcome.total,
          unit: "lines",
        });
      case "binary":
        return fail(
          "UNSUPPORTED",
          `${resolved.display} looks like a binary file; ${name} shows text files only.`,
          {
            hint: mounted.has("file_stats")
              ? `Call file_stats on ${resolved.display} for its size and type.`
              : `${name} reads text files only; ask the user what this file holds.`,
          },
        );
      case "utf-16":
        return fail(
          "TOO_LARGE",
          `${resolved.display} is a ${stat.size}-byte UTF-16 file; ${name} streams only UTF-8 files larger than ${streamThreshold} bytes.`,
          {
            hint: `${mounted.has("grep_search") ? `Use grep_search to find what you need in ${resolved.display}, or ask` : "Ask"} the user for a UTF-8 copy.`,
          },
        );
      case "changed":
        return fail("CONFLICT", `${resolved.display} changed while it was being read.`, {
          hint: `Call ${name} again.`,
          retryable: true,
        });
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
      const outcome =
        stat.size > streamThreshold
          ? await streamed.read(resolved, stat, offset, limit, context)
          : await whole.read(resolved, stat, offset, limit);
      return answer(resolved, stat, outcome, { offset, limit });
    },
    render: (data) => formatReadFilePage(data, formatOptions),
  });
}
