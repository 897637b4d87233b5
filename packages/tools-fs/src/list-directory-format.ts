import { formatCount, formatPageMarker, nextCallArguments } from "@agentool/contract";
import { formatSize } from "./internal/tool-support.js";
import type { ListDirectoryToolData, ListedEntry } from "./list-directory.js";

/** The default name of the directory-listing tool. */
export const LIST_DIRECTORY_TOOL_NAME = "list_directory";

/** Default levels listed when the model gives no `depth`: 1 (the directory's own entries). */
export const DEFAULT_LIST_DEPTH = 1;

/**
 * Default size from which a file's size is shown in the listing: 100 KB (102,400 bytes). Smaller
 * files are read in a page or two, so their sizes cost tokens and teach nothing; `data` keeps
 * every size.
 */
export const DEFAULT_LIST_SIZE_THRESHOLD_BYTES = 100 * 1024;

/** One entry as a line of the tree: indent, name (`/` for a folder, `@` for a link) and notes. */
function formatEntry(entry: ListedEntry, sizeThreshold: number): string {
  const indent = "  ".repeat(entry.depth - 1);
  const notes: string[] = [];
  let label: string;
  if (entry.type === "directory") label = `${entry.name}/`;
  else if (entry.type === "symlink") {
    const target =
      entry.target_type === "outside"
        ? " -> (outside the workspace)"
        : entry.target_type === "missing"
          ? " -> (missing target)"
          : entry.target !== undefined
            ? ` -> ${entry.target}${entry.target_type === "directory" ? "/" : ""}`
            : "";
    label = `${entry.name}@${target}`;
    notes.push("symlink");
  } else label = entry.name;
  if (entry.type === "file" && entry.size >= sizeThreshold) notes.push(formatSize(entry.size));
  if (entry.type === "other") notes.push("special file");
  if (entry.ignored) notes.push("ignored");
  if (entry.not_expanded === "git") notes.push("not expanded");
  return `${indent}${label}${notes.length > 0 ? `  (${notes.join(", ")})` : ""}`;
}

/** Options of {@link formatDirectoryListing}. */
export interface DirectoryListingFormatOptions {
  /** The tool's name, for the next-page call. Default `"list_directory"`. */
  toolName?: string;
  /**
   * Files of at least this many bytes show their size. Default
   * {@link DEFAULT_LIST_SIZE_THRESHOLD_BYTES} (100 KB); `0` shows every file's.
   */
  sizeThresholdBytes?: number;
}

/**
 * Renders a listing as an indented tree (two spaces a level), the sizes of large files
 * human-readable, and the contract's page marker naming the exact next call when more entries
 * remain.
 *
 * @param data - the listing
 * @param options - the tool's name (for the next call)
 * @returns model-facing text
 */
export function formatDirectoryListing(
  data: ListDirectoryToolData,
  options: DirectoryListingFormatOptions = {},
): string {
  const toolName = options.toolName ?? LIST_DIRECTORY_TOOL_NAME;
  const shown = data.entries.length;
  const whole = data.offset === 1 && !data.truncated;
  const first = data.offset;
  const last = data.offset + shown - 1;
  const count =
    data.total !== undefined
      ? formatCount(data.total)
      : `at least ${formatCount(data.total_at_least ?? last)}`;
  const range = whole
    ? `${formatCount(shown)} ${shown === 1 ? "entry" : "entries"}`
    : `entries ${formatCount(first)}–${formatCount(last)} of ${count}`;
  const lines = [`${data.path} (depth ${data.depth}; ${range}; directories first):`];
  const hidden =
    data.skipped_hidden === 0
      ? ""
      : `${data.total === undefined ? "at least " : ""}${formatCount(data.skipped_hidden)} hidden`;
  if (shown === 0) {
    lines.push(
      data.skipped_hidden > 0
        ? `No visible entries: ${hidden} ${data.skipped_hidden === 1 ? "entry is" : "entries are"} not shown — call again with include_hidden=true to see ${data.skipped_hidden === 1 ? "it" : "them"}.`
        : "The directory is empty.",
    );
    return lines.join("\n");
  }
  const sizeThreshold = options.sizeThresholdBytes ?? DEFAULT_LIST_SIZE_THRESHOLD_BYTES;
  for (const entry of data.entries) lines.push(formatEntry(entry, sizeThreshold));
  if (data.next_offset !== undefined) {
    const args = nextCallArguments(
      {
        path: data.path,
        depth: data.depth,
        include_hidden: data.include_hidden,
        limit: data.limit,
      },
      {
        depth: DEFAULT_LIST_DEPTH,
        include_hidden: false,
      },
    );
    const atLeast = data.total === undefined;
    const all = data.total ?? data.total_at_least ?? data.next_offset;
    lines.push(
      formatPageMarker({
        tool: toolName,
        nextOffset: data.next_offset,
        omitted: Math.max(1, all - data.next_offset + 1),
        unit: "entries",
        atLeast,
        args,
      }),
    );
  }
  if (data.skipped_hidden > 0) {
    lines.push(
      `(${hidden} ${data.skipped_hidden === 1 ? "entry" : "entries"} not shown; include_hidden=true shows them.)`,
    );
  }
  return lines.join("\n");
}
