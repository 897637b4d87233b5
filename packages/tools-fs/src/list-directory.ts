import {
  defineTool,
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
import type { EntryType } from "./file-system.js";
import { createIgnoreMatcher, type IgnoreRule, matchIgnoreRules } from "./internal/gitignore.js";
import {
  fileNotDirectory,
  formatSize,
  limitsInOrder,
  pageLimitOptionsShape,
  pathNotFound,
  unlistableOr,
  type WorkspaceToolOptions,
  workspaceToolOptionsShape,
} from "./internal/tool-support.js";
import {
  describeSymlink,
  joinPath,
  type ReadEntry,
  sizeShownFiles,
  VisibleEntriesMemo,
} from "./list-directory-entries.js";
import {
  DEFAULT_LIST_DEPTH,
  DEFAULT_LIST_SIZE_THRESHOLD_BYTES,
  formatDirectoryListing,
  LIST_DIRECTORY_TOOL_NAME,
} from "./list-directory-format.js";

export {
  DEFAULT_LIST_DEPTH,
  DEFAULT_LIST_SIZE_THRESHOLD_BYTES,
  type DirectoryListingFormatOptions,
  formatDirectoryListing,
  LIST_DIRECTORY_TOOL_NAME,
} from "./list-directory-format.js";

/** Default deepest `depth` a model may ask for: 5. */
export const DEFAULT_MAX_LIST_DEPTH = 5;

/** Default page size (`limit` when the model gives none): 500 entries. */
export const DEFAULT_LIST_LIMIT = 500;

/** Default largest `limit` a model may ask for: 5,000 entries. */
export const DEFAULT_MAX_LIST_LIMIT = 5000;

/**
 * Default number of entries a call walks before it stops counting: 20,000. Below it `total` is
 * exact; above it the result says `total_at_least`.
 */
export const DEFAULT_MAX_LIST_SCAN_ENTRIES = 20_000;

/** Options of {@link createListDirectoryTool}. */
export interface ListDirectoryToolOptions extends WorkspaceToolOptions {
  /** Deepest `depth` allowed. Default {@link DEFAULT_MAX_LIST_DEPTH} (5). */
  maxDepth?: number;
  /** Entries on a page when the model gives no `limit`. Default {@link DEFAULT_LIST_LIMIT} (500). */
  defaultLimit?: number;
  /** Largest `limit` accepted. Default {@link DEFAULT_MAX_LIST_LIMIT} (5,000). */
  maxLimit?: number;
  /**
   * Entries a call walks at most to count them (it always walks far enough to fill the page);
   * past it `total_at_least` replaces `total`. Default {@link DEFAULT_MAX_LIST_SCAN_ENTRIES} (20,000).
   */
  maxScanEntries?: number;
  /** Whether entries ignored by `.gitignore` / `.ignore` are marked `(ignored)`. Default `true`. */
  markIgnored?: boolean;
  /**
   * Files of at least this many bytes show their size in the text (`data` has every size; `0`
   * shows every file's). Default {@link DEFAULT_LIST_SIZE_THRESHOLD_BYTES} (100 KB).
   */
  sizeThresholdBytes?: number;
}

const optionsSchema = z
  .object({
    ...workspaceToolOptionsShape,
    maxDepth: z.number().int().min(1).max(50).optional(),
    ...pageLimitOptionsShape,
    maxScanEntries: z.number().int().min(1).max(10_000_000).optional(),
    markIgnored: z.boolean().optional(),
    sizeThresholdBytes: z.number().int().min(0).optional(),
  })
  .refine(...limitsInOrder(DEFAULT_LIST_LIMIT, DEFAULT_MAX_LIST_LIMIT));

function createInputSchema(maxDepth: number, defaultLimit: number, maxLimit: number) {
  const paging = pagingInputShape({ unit: "entry", units: "entries", defaultLimit, maxLimit });
  return z.object({
    path: z.string().optional().describe("Directory to list (default the root)."),
    depth: z
      .number()
      .int()
      .min(1)
      .max(maxDepth)
      .optional()
      .describe("Levels to list: 1 = own entries (default), 2 = also their children…"),
    include_hidden: z
      .boolean()
      .optional()
      .describe("Also list entries whose names start with '.'."),
    offset: paging.offset.describe("1-based first entry (default 1)."),
    limit: paging.limit.describe(`Most entries (default ${defaultLimit}).`),
  });
}

/** The input schema of `list_directory` (with the default limits in its descriptions). */
export const listDirectoryInputSchema = createInputSchema(
  DEFAULT_MAX_LIST_DEPTH,
  DEFAULT_LIST_LIMIT,
  DEFAULT_MAX_LIST_LIMIT,
);

/** The input of `list_directory`. */
export type ListDirectoryInput = z.output<typeof listDirectoryInputSchema>;

/**
 * Names models trained on other toolsets send for `list_directory`'s fields, accepted silently
 * (each means exactly the field it maps to).
 */
export const LIST_DIRECTORY_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  dir_path: "path",
  directory: "path",
  dir: "path",
  max_depth: "depth",
  show_hidden: "include_hidden",
});

/** One listed entry. */
export interface ListedEntry {
  /** The workspace path of the entry. */
  path: string;
  /** The entry's name. */
  name: string;
  /** What it is; a symlink is reported as `"symlink"` (never followed). */
  type: EntryType;
  /**
   * Size in bytes, exact (0 for directories and symlinks); the rendered text shows it
   * human-readable for files from the size threshold up (default 100 KB).
   */
  size: number;
  /** 1 for the listed directory's own entries, 2 for their children, … */
  depth: number;
  /** Ignored by a `.gitignore` / `.ignore` rule (listed, but not expanded when a directory). */
  ignored: boolean;
  /** For a symlink whose real target is inside the workspace: the target's workspace path. */
  target?: string;
  /** For a symlink: what its target is (`"missing"` for a dangling link, `"outside"` when it leaves the workspace). */
  target_type?: EntryType | "missing" | "outside";
  /** For a directory inside the depth that was not opened: why (`"ignored"`, `"git"`). */
  not_expanded?: "ignored" | "git";
}

/** What `list_directory` returns. */
export interface ListDirectoryToolData {
  /** The listed directory, as a workspace path (`.` for the root). */
  path: string;
  /** The depth listed. */
  depth: number;
  /** Whether hidden entries were listed. */
  include_hidden: boolean;
  /** The 1-based position of the first entry of this page. */
  offset: number;
  /** The page size that applied (the `limit` asked for, or the default). */
  limit: number;
  /**
   * This page's entries, in tree order: each directory's entries follow it, directories first,
   * then by name (case-insensitive, then exact). The same call always gives the same order.
   */
  entries: ListedEntry[];
  /** Entries in the whole listing (exact); absent when the walk stopped counting. */
  total?: number;
  /** A lower bound on the entries in the listing, when the walk stopped at `maxScanEntries`. */
  total_at_least?: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether entries after this page were left out. */
  truncated: boolean;
  /** Hidden entries skipped (in the directories read) because `include_hidden` was not set. */
  skipped_hidden: number;
}

/** The `list_directory` tool's type. */
export type ListDirectoryTool = Tool<typeof listDirectoryInputSchema, ListDirectoryToolData>;

function description(
  maxDepth: number,
  sizeThreshold: number,
  mounted: ReturnType<typeof mountedTools>,
): string {
  const finders = [
    mounted.when("glob_search", "glob_search to find files by name pattern"),
    mounted.when("file_stats", "file_stats for every size and line count"),
  ].filter((part) => part.length > 0);
  return joinSentences(
    [
      `List a directory: each entry's name and type (${sizeThreshold === 0 ? "a file's size" : `a file's size from ${formatSize(sizeThreshold)} up`}), directories first, then by name.`,
      `Start at the root with depth 1; depth 2–${maxDepth} gives a tree of a small directory.`,
      "Entries ignored by .gitignore are marked (ignored) and not expanded; symlinks are never followed.",
      "A cut result ends with the exact call for the next page.",
      finders.length > 0 ? `Use ${finders.join(" and ")}.` : undefined,
    ],
    "\n",
  );
}

/**
 * Creates the `list_directory` tool: a sorted, paged, optionally recursive listing confined to
 * the workspace. Secret paths are never shown (not even their names), hidden entries only on
 * request, `.gitignore`d entries are marked, and symlinks are reported (target only when inside).
 *
 * Entries come in tree order (each directory's entries right after it, directories first, then
 * by name), the same on every call, so `offset` pages through a listing of any size; `total` is
 * exact up to `maxScanEntries` entries and a lower bound (`total_at_least`) past it.
 *
 * @param options - the workspace, limits, the mounted tools and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const listDirectory = createListDirectoryTool({ workspace });
 * await listDirectory.run({ path: "src", depth: 2 });
 * await listDirectory.run({ path: "src", depth: 2, offset: 501 }); // the next page
 */
export function createListDirectoryTool(options: ListDirectoryToolOptions): ListDirectoryTool {
  const parsed = parseOptions("createListDirectoryTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const maxDepth = parsed.maxDepth ?? DEFAULT_MAX_LIST_DEPTH;
  const defaultLimit = parsed.defaultLimit ?? DEFAULT_LIST_LIMIT;
  const maxLimit = parsed.maxLimit ?? DEFAULT_MAX_LIST_LIMIT;
  const maxScanEntries = parsed.maxScanEntries ?? DEFAULT_MAX_LIST_SCAN_ENTRIES;
  const markIgnored = parsed.markIgnored ?? true;
  const name = parsed.name ?? LIST_DIRECTORY_TOOL_NAME;
  const sizeThresholdBytes = parsed.sizeThresholdBytes ?? DEFAULT_LIST_SIZE_THRESHOLD_BYTES;
  const input = createInputSchema(maxDepth, defaultLimit, maxLimit);
  const memo = new VisibleEntriesMemo(workspace);

  return defineTool({
    name,
    description:
      parsed.description ??
      description(maxDepth, sizeThresholdBytes, mountedTools(parsed.mountedTools)),
    input,
    aliases: LIST_DIRECTORY_ALIASES,
    annotations: { title: "List directory", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path);
      const stat = await fileSystem.stat(resolved.real);
      if (stat === undefined) {
        return unlistableOr(fileSystem, resolved.real, pathNotFound(resolved.display));
      }
      if (stat.type !== "directory") {
        return fileNotDirectory(resolved.display, `${name} lists directories`);
      }
      const depth = request.depth ?? DEFAULT_LIST_DEPTH;
      const includeHidden = request.include_hidden ?? false;
      const offset = request.offset ?? 1;
      const limit = request.limit ?? defaultLimit;
      const start = offset - 1;
      const end = start + limit;
      // Walk at least one entry past the page (to know whether more remain), and up to the scan
      // cap (to count them).
      const wanted = Math.max(end + 1, maxScanEntries);
      const matcher = markIgnored ? createIgnoreMatcher(fileSystem) : undefined;
      const entries: ListedEntry[] = [];
      const unsized: Array<[ListedEntry, string]> = [];
      let seen = 0;
      let stopped = false;
      let skippedHidden = 0;

      const visit = async (path: string, real: string, level: number): Promise<void> => {
        context.signal.throwIfAborted();
        // Names first when the seam can (no stat per entry): the shown files are sized after the
        // walk. A seam that cannot size named entries in one open reads a folder whose entries
        // may all be shown again with sizes (one stat each beats a confined stat per shown file).
        let read: ReadEntry[] =
          fileSystem.readDirectoryNames !== undefined
            ? await fileSystem.readDirectoryNames(real)
            : await fileSystem.readDirectory(real);
        if (
          read.length <= limit &&
          fileSystem.readDirectoryNames !== undefined &&
          fileSystem.readEntrySizes === undefined
        ) {
          read = await fileSystem.readDirectory(real);
        }
        const visible = memo.visible(read, path, real, includeHidden);
        skippedHidden += visible.skippedHidden;
        // The folder's ignore rules, and whether it is ignored itself, read once when an entry
        // needs them (as the matcher decides each entry: parent ignored, else its rules).
        let folderRules: readonly IgnoreRule[] | undefined;
        let folderIgnored = false;
        for (const { entry, directory: isDirectory } of visible.entries) {
          if (seen >= wanted) {
            stopped = true;
            return;
          }
          seen += 1;
          const onPage = seen > start && seen <= end;
          const expandable = isDirectory && level < depth;
          // Past the page and not to be opened: only counted.
          if (!onPage && !expandable) continue;
          const childPath = joinPath(path, entry.name);
          const childReal = joinPath(real, entry.name);
          if (matcher !== undefined && folderRules === undefined) {
            folderIgnored = real.length > 0 && (await matcher.isIgnored(real, true));
            // The folder was just listed: an ignore file not in the listing is not looked for.
            folderRules = await matcher.rulesFor(real, (name) =>
              read.some((entry) => entry.name === name),
            );
          }
          const ignored =
            folderRules !== undefined &&
            (folderIgnored || matchIgnoreRules(folderRules, childReal, isDirectory) === true);
          let listed: ListedEntry | undefined;
          if (onPage) {
            listed = {
              path: childPath,
              name: entry.name,
              type: entry.type,
              size: entry.type === "file" ? (entry.size ?? 0) : 0,
              depth: level,
              ignored,
            };
            if (entry.type === "symlink")
              Object.assign(listed, await describeSymlink(workspace, childReal));
            if (entry.type === "file" && entry.size === undefined)
              unsized.push([listed, childReal]);
            entries.push(listed);
          }
          if (!expandable) continue;
          if (ignored) {
            if (listed !== undefined) listed.not_expanded = "ignored";
          } else if (entry.name === ".git") {
            if (listed !== undefined) listed.not_expanded = "git";
          } else {
            await visit(childPath, childReal, level + 1);
            if (stopped) return;
          }
        }
      };
      await visit(resolved.path, resolved.real, 1);
      if (unsized.length > 0) await sizeShownFiles(fileSystem, unsized, context.signal);

      if (!stopped && isOffsetPastEnd(offset, seen)) {
        return offsetPastEnd({ tool: name, offset, total: seen, unit: "entries" });
      }
      const data: ListDirectoryToolData = {
        path: resolved.display,
        depth,
        include_hidden: includeHidden,
        offset,
        limit,
        entries,
        truncated: seen > end,
        skipped_hidden: skippedHidden,
      };
      if (stopped) data.total_at_least = seen + 1;
      else data.total = seen;
      if (seen > end) data.next_offset = end + 1;
      return ok(data);
    },
    render: (data) => formatDirectoryListing(data, { toolName: name, sizeThresholdBytes }),
  });
}
