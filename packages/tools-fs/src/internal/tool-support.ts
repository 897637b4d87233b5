import {
  fail,
  formatTruncationMarker,
  mountedToolsOption,
  type ToolFailure,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { type FileSystem, FileSystemError } from "../file-system.js";
import type { Workspace } from "../workspace.js";

/**
 * Whether a value is a workspace made by `createWorkspace` (it resolves paths and has a seam).
 *
 * @param value - anything
 * @returns whether it can serve as a workspace
 * @internal
 */
export function isWorkspace(value: unknown): value is Workspace {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Workspace).resolve === "function" &&
    typeof (value as Workspace).fileSystem === "object"
  );
}

/**
 * The `workspace` option every file tool factory takes (made by `createWorkspace`).
 *
 * @internal
 */
export const workspaceOption = z.custom<Workspace>(isWorkspace, {
  error: "expected a workspace made by createWorkspace({ fileSystem })",
});

/**
 * What every file tool factory takes: the workspace, the name/description overrides and the
 * names of the tools mounted beside it.
 *
 * @internal
 */
export interface WorkspaceToolOptions {
  /** The confined workspace (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Names of the tools mounted beside this one; the default description names only these
   * (`createFsTools` passes what it mounts). Default: none.
   */
  mountedTools?: readonly string[];
}

/**
 * The zod shape of {@link WorkspaceToolOptions}, for a factory's strict `parseOptions` schema.
 *
 * @internal
 */
export const workspaceToolOptionsShape = {
  ...toolOverridesShape,
  workspace: workspaceOption,
  mountedTools: mountedToolsOption,
};

/**
 * The `defaultLimit` / `maxLimit` factory options of every paged tool.
 *
 * @internal
 */
export const pageLimitOptionsShape = {
  defaultLimit: z.number().int().min(1).max(100_000).optional(),
  maxLimit: z.number().int().min(1).max(100_000).optional(),
};

/**
 * The refinement that keeps `defaultLimit` within `maxLimit` (each falling back to the tool's
 * default), for `schema.refine(...limitsInOrder(DEFAULT_LIMIT, DEFAULT_MAX_LIMIT))`.
 *
 * @internal
 */
export function limitsInOrder(
  defaultLimit: number,
  maxLimit: number,
): [
  (value: { defaultLimit?: number; maxLimit?: number }) => boolean,
  { message: string; path: string[] },
] {
  return [
    (value) => (value.defaultLimit ?? defaultLimit) <= (value.maxLimit ?? maxLimit),
    { message: "defaultLimit must not exceed maxLimit", path: ["defaultLimit"] },
  ];
}

/**
 * The one failure for a directory given where a file is wanted (`INVALID_PATH`, naming the tool
 * for directories), as the contract's mistake → code table says.
 *
 * @param display - the path as shown to the model
 * @param detail - what the tool wanted, e.g. `"extract_toc reads a document"`
 * @returns the failure
 * @internal
 */
export function directoryNotFile(display: string, detail?: string): ToolFailure {
  return fail(
    "INVALID_PATH",
    `${display} is a directory, not a file${detail === undefined ? "" : `; ${detail}`}.`,
    { hint: `List it with list_directory and pick a file inside it.` },
  );
}

/**
 * The one failure for a file given where a directory is wanted (`INVALID_PATH`, naming the tool
 * for files).
 *
 * @param display - the path as shown to the model
 * @param detail - what the tool wanted
 * @returns the failure
 * @internal
 */
export function fileNotDirectory(display: string, detail?: string): ToolFailure {
  return fail(
    "INVALID_PATH",
    `${display} is a file, not a directory${detail === undefined ? "" : `; ${detail}`}.`,
    { hint: "Read it with read_file, or get its size and line count with file_stats." },
  );
}

/**
 * The one failure for a path that does not exist (`FILE_NOT_FOUND`, naming how to find it).
 *
 * @param display - the path as shown to the model
 * @param what - how to name it (`"source a.txt"`); default the path
 * @returns the failure
 * @internal
 */
export function pathNotFound(display: string, what = display): ToolFailure {
  return fail("FILE_NOT_FOUND", `${what} does not exist.`, {
    hint: `Check the path with list_directory (its parent directory) or glob_search (a name pattern).`,
  });
}

/**
 * The failure of a listing or search tool for a path `stat` did not find: a seam that cannot
 * list at all (its `readDirectory` answers `UNSUPPORTED`, e.g. a host's storage opened without
 * `list`) may hold a folder there it cannot show, so it answers that; else `missing`.
 *
 * @param fileSystem - the seam
 * @param real - the real workspace path that was not found
 * @param missing - the tool's not-found failure
 * @returns the failure to answer
 * @internal
 */
export async function unlistableOr(
  fileSystem: FileSystem,
  real: string,
  missing: ToolFailure,
): Promise<ToolFailure> {
  try {
    await fileSystem.readDirectory(real);
  } catch (error) {
    if (FileSystemError.isInstance(error) && error.code === "UNSUPPORTED") return error.toFailure();
  }
  return missing;
}

const BYTE_UNITS = ["KB", "MB", "GB", "TB", "PB"] as const;

/**
 * A byte count for people and models: `512 B`, `4.2 KB`, `37 KB`, `1.3 MB` (1 KB = 1,024 bytes;
 * one decimal below 10). Data keeps the exact number; only rendered text uses this.
 *
 * @param bytes - a byte count
 * @returns the human-readable size
 * @internal
 */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes;
  let unit = 0;
  value /= 1024;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value < 10 ? Math.round(value * 10) / 10 : Math.round(value);
  // 1023.9 KB rounds to 1024 KB: show the next unit instead.
  if (rounded >= 1024 && unit < BYTE_UNITS.length - 1) return `1 ${BYTE_UNITS[unit + 1]}`;
  return `${rounded} ${BYTE_UNITS[unit]}`;
}

/** Most characters of a pattern echoed back in a result; a longer one is cut with the marker. */
export const MAX_ECHOED_PATTERN_CHARACTERS = 120;

/**
 * A search pattern as the model reads it in a result: in double quotes, as written — a
 * backslash stays one backslash (`"\bfoo\b"`, not JSON's `"\\bfoo\\b"`); only line breaks and
 * tabs are shown as `\n`, `\r`, `\t` so the result stays on one line. A pattern longer than
 * {@link MAX_ECHOED_PATTERN_CHARACTERS} keeps its start, followed by the contract's truncation
 * marker (a page marker's next call still carries the whole pattern).
 *
 * @param pattern - the pattern the tool was given
 * @returns the quoted pattern
 * @internal
 */
export function echoPattern(pattern: string): string {
  let end = Math.min(pattern.length, MAX_ECHOED_PATTERN_CHARACTERS);
  const last = pattern.charCodeAt(end - 1);
  // Never leave half a surrogate pair.
  if (end < pattern.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
  const readable = pattern
    .slice(0, end)
    .replace(/[\n\r\t]/g, (character) =>
      character === "\n" ? "\\n" : character === "\r" ? "\\r" : "\\t",
    );
  if (end === pattern.length) return `"${readable}"`;
  return `"${readable}"${formatTruncationMarker({
    omitted: pattern.length - end,
    unit: "characters",
    next: "the search used the whole pattern",
  })}`;
}
