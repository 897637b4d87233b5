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
import { type DirectoryEntry, type EntryType, FileSystemError } from "./file-system.js";
import { createIgnoreMatcher } from "./internal/gitignore.js";
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the directory-listing tool. */
export const LIST_DIRECTORY_TOOL_NAME = "list_directory";

/** Default levels listed when the model gives no `depth`: 1 (the directory's own entries). */
export const DEFAULT_LIST_DEPTH = 1;

/** Default deepest `depth` a model may ask for: 5. */
export const DEFAULT_MAX_LIST_DEPTH = 5;

/** Default cap on the entries one call shows: 500. */
export const DEFAULT_MAX_LIST_ENTRIES = 500;

/** Options of {@link createListDirectoryTool}. */
export interface ListDirectoryToolOptions {
  /** The confined workspace (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). Default `"list_directory"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Deepest `depth` allowed. Default {@link DEFAULT_MAX_LIST_DEPTH} (5). */
  maxDepth?: number;
  /** Most entries one call shows; the rest are counted in a truncation marker. Default {@link DEFAULT_MAX_LIST_ENTRIES} (500). */
  maxEntries?: number;
  /** Whether entries ignored by `.gitignore` / `.ignore` are marked `(ignored)`. Default `true`. */
  markIgnored?: boolean;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  maxDepth: z.number().int().min(1).max(50).optional(),
  maxEntries: z.number().int().min(1).max(100_000).optional(),
  markIgnored: z.boolean().optional(),
});

function createInputSchema(maxDepth: number) {
  return z.object({
    path: z
      .string()
      .optional()
      .describe("The directory to list, relative to the workspace root. Default: the root ('.')."),
    depth: z
      .number()
      .int()
      .min(1)
      .max(maxDepth)
      .optional()
      .describe(
        `How many levels to list: 1 = the directory's own entries (default), 2 = also their children, … up to ${maxDepth}.`,
      ),
    include_hidden: z
      .boolean()
      .optional()
      .describe("Also list hidden entries (names starting with '.'). Default false."),
  });
}

/** The input schema of `list_directory` (with the default limits in its descriptions). */
export const listDirectoryInputSchema = createInputSchema(DEFAULT_MAX_LIST_DEPTH);

/** The input of `list_directory`. */
export type ListDirectoryInput = z.output<typeof listDirectoryInputSchema>;

/** One listed entry. */
export interface ListedEntry {
  /** The workspace path of the entry. */
  path: string;
  /** The entry's name. */
  name: string;
  /** What it is; a symlink is reported as `"symlink"` (never followed). */
  type: EntryType;
  /** Size in bytes (0 for directories and symlinks). */
  size: number;
  /** 1 for the listed directory's own entries, 2 for their children, … */
  depth: number;
  /** Ignored by a `.gitignore` / `.ignore` rule (listed, but not expanded when a directory). */
  ignored: boolean;
  /** For a symlink whose real target is inside the workspace: the target's workspace path. */
  target?: string;
  /** For a symlink: what its target is (`"missing"` for a dangling link, `"outside"` when it leaves the workspace). */
  targetType?: EntryType | "missing" | "outside";
  /** For a directory inside the depth that was not opened: why (`"ignored"`, `"git"`). */
  notExpanded?: "ignored" | "git";
}

/** What `list_directory` returns. */
export interface ListDirectoryToolData {
  /** The listed directory, as a workspace path (`.` for the root). */
  path: string;
  /** The depth listed. */
  depth: number;
  /** The entries, in tree order: each directory's entries follow it, directories first, then by name. */
  entries: ListedEntry[];
  /** Entries seen but not shown because of the cap (0 when complete). */
  omitted: number;
  /**
   * Whether the entries of some directories inside the depth were not even counted (directories
   * that were themselves cut by the cap), so there are more than `omitted`.
   */
  incomplete: boolean;
  /** Hidden entries skipped because `include_hidden` was not set. */
  hiddenSkipped: number;
  /** The cap that applied. */
  maxEntries: number;
}

/** The `list_directory` tool's type. */
export type ListDirectoryTool = Tool<typeof listDirectoryInputSchema, ListDirectoryToolData>;

function description(maxDepth: number, maxEntries: number): string {
  return [
    "List a directory of the workspace: each entry's name, type and size in bytes, directories first, then by name.",
    `Start with the root (no path) and depth 1; use depth 2–${maxDepth} for a tree view of a small directory, and list a subdirectory to go deeper in a big one.`,
    "Hidden entries (names starting with '.') are left out unless include_hidden is true.",
    "Entries ignored by .gitignore are listed but marked (ignored) and not expanded; symlinks are shown as symlinks (with their target when it is inside the workspace) and never followed.",
    `At most ${maxEntries} entries are shown; a marker says how many more there are and how to narrow the listing.`,
    "Use glob_search to find files by name pattern and file_stats for sizes and line counts.",
  ].join("\n");
}

function compareEntries(left: DirectoryEntry, right: DirectoryEntry): number {
  const leftDirectory = left.type === "directory" ? 0 : 1;
  const rightDirectory = right.type === "directory" ? 0 : 1;
  if (leftDirectory !== rightDirectory) return leftDirectory - rightDirectory;
  const leftLower = left.name.toLowerCase();
  const rightLower = right.name.toLowerCase();
  if (leftLower !== rightLower) return leftLower < rightLower ? -1 : 1;
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

const numberFormat = new Intl.NumberFormat("en-US");

function formatEntry(entry: ListedEntry): string {
  const indent = "  ".repeat(entry.depth - 1);
  const notes: string[] = [];
  let label: string;
  if (entry.type === "directory") label = `${entry.name}/`;
  else if (entry.type === "symlink") {
    const target =
      entry.targetType === "outside"
        ? " -> (outside the workspace)"
        : entry.targetType === "missing"
          ? " -> (missing target)"
          : entry.target !== undefined
            ? ` -> ${entry.target}${entry.targetType === "directory" ? "/" : ""}`
            : "";
    label = `${entry.name}@${target}`;
    notes.push("symlink");
  } else label = entry.name;
  if (entry.type === "file") notes.push(`${numberFormat.format(entry.size)} bytes`);
  if (entry.type === "other") notes.push("special file");
  if (entry.ignored) notes.push("ignored");
  if (entry.notExpanded === "git") notes.push("not expanded");
  return `${indent}${label}${notes.length > 0 ? `  (${notes.join(", ")})` : ""}`;
}

/**
 * Renders a listing as an indented tree (two spaces a level), with the marker when capped.
 *
 * @param data - the listing
 * @returns model-facing text
 */
export function formatDirectoryListing(data: ListDirectoryToolData): string {
  const lines = [
    `${data.path} (depth ${data.depth}; ${numberFormat.format(data.entries.length)} ${data.entries.length === 1 ? "entry" : "entries"} shown; directories first):`,
  ];
  if (data.entries.length === 0) {
    lines.push(
      data.hiddenSkipped > 0
        ? `No visible entries: ${data.hiddenSkipped} hidden ${data.hiddenSkipped === 1 ? "entry is" : "entries are"} not shown — call again with include_hidden=true to see ${data.hiddenSkipped === 1 ? "it" : "them"}.`
        : "The directory is empty.",
    );
    return lines.join("\n");
  }
  for (const entry of data.entries) lines.push(formatEntry(entry));
  if (data.omitted > 0 || data.incomplete) {
    const firstDirectory = data.entries.find(
      (entry) => entry.type === "directory" && !entry.ignored,
    );
    const narrower = [
      firstDirectory === undefined
        ? undefined
        : `list a subdirectory (e.g. path="${firstDirectory.path}")`,
      data.depth > 1 ? `call again with depth=${data.depth - 1}` : undefined,
      "use glob_search with a name pattern",
    ].filter((part): part is string => part !== undefined);
    lines.push(
      formatTruncationMarker({
        omitted: data.omitted,
        unit: data.omitted === 1 ? "entry" : "entries",
        next: `${data.incomplete ? "more inside directories that were not opened; " : ""}${narrower.join(", or ")}`,
      }),
    );
  }
  if (data.hiddenSkipped > 0) {
    lines.push(
      `(${data.hiddenSkipped} hidden ${data.hiddenSkipped === 1 ? "entry" : "entries"} not shown; include_hidden=true shows them.)`,
    );
  }
  return lines.join("\n");
}

interface PendingDirectory {
  /** Workspace path as shown (under the asked path). */
  path: string;
  /** Real workspace path to read. */
  real: string;
  /** Depth of its entries. */
  depth: number;
  /** Where its entries go. */
  children: ListedEntry[];
}

/**
 * Creates the `list_directory` tool: a sorted, bounded, optionally recursive listing confined to
 * the workspace. Secret paths are never shown (not even their names), hidden entries only on
 * request, `.gitignore`d entries are marked, and symlinks are reported (target only when inside).
 *
 * Directories are read breadth-first, so a capped listing always shows the shallow levels whole.
 *
 * @param options - the workspace, caps and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const listDirectory = createListDirectoryTool({ workspace });
 * await listDirectory.run({ path: "src", depth: 2 });
 */
export function createListDirectoryTool(options: ListDirectoryToolOptions): ListDirectoryTool {
  const parsed = parseOptions("createListDirectoryTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const maxDepth = parsed.maxDepth ?? DEFAULT_MAX_LIST_DEPTH;
  const maxEntries = parsed.maxEntries ?? DEFAULT_MAX_LIST_ENTRIES;
  const markIgnored = parsed.markIgnored ?? true;
  const input = createInputSchema(maxDepth);

  async function describeSymlink(
    real: string,
  ): Promise<Pick<ListedEntry, "target" | "targetType">> {
    let target: string;
    try {
      target = await fileSystem.realPath(real);
    } catch (error) {
      if (FileSystemError.isInstance(error)) return { targetType: "outside" };
      throw error;
    }
    if (workspace.isSecret(target)) return {};
    const targetStat = await fileSystem.stat(target).catch(() => undefined);
    return { target: workspace.display(target), targetType: targetStat?.type ?? "missing" };
  }

  return defineTool({
    name: parsed.name ?? LIST_DIRECTORY_TOOL_NAME,
    description: parsed.description ?? description(maxDepth, maxEntries),
    input,
    annotations: { title: "List directory", readOnly: true, idempotent: true },
    tags: ["fs:read"],
    execute: (request, context) =>
      guardFileSystem(async () => {
        const resolved = await workspace.resolve(request.path);
        const stat = await fileSystem.stat(resolved.real);
        if (stat === undefined) {
          return fail("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
            hint: "List its parent directory to see what exists.",
          });
        }
        if (stat.type !== "directory") {
          return fail("INVALID_PATH", `${resolved.display} is a file, not a directory.`, {
            hint: "Use read_file to read it or file_stats for its size and line count.",
          });
        }
        const depth = request.depth ?? DEFAULT_LIST_DEPTH;
        const includeHidden = request.include_hidden ?? false;
        const matcher = markIgnored ? createIgnoreMatcher(fileSystem) : undefined;
        const top: ListedEntry[] = [];
        const childrenOf = new Map<ListedEntry, ListedEntry[]>();
        const queue: PendingDirectory[] = [
          { path: resolved.path, real: resolved.real, depth: 1, children: top },
        ];
        let shown = 0;
        let omitted = 0;
        let hiddenSkipped = 0;
        let incomplete = false;
        for (let index = 0; index < queue.length; index += 1) {
          context.signal.throwIfAborted();
          const directory = queue[index] as PendingDirectory;
          const raw = await fileSystem.readDirectory(directory.real);
          const visible: DirectoryEntry[] = [];
          for (const entry of raw) {
            const path = join(directory.path, entry.name);
            const real = join(directory.real, entry.name);
            if (workspace.isSecret(path) || workspace.isSecret(real)) continue;
            if (!includeHidden && entry.name.startsWith(".")) {
              hiddenSkipped += 1;
              continue;
            }
            visible.push(entry);
          }
          visible.sort(compareEntries);
          for (const entry of visible) {
            if (shown >= maxEntries) {
              omitted += 1;
              if (entry.type === "directory" && directory.depth < depth) incomplete = true;
              continue;
            }
            const path = join(directory.path, entry.name);
            const real = join(directory.real, entry.name);
            const ignored =
              matcher === undefined
                ? false
                : await matcher.isIgnored(real, entry.type === "directory");
            const listed: ListedEntry = {
              path,
              name: entry.name,
              type: entry.type,
              size: entry.type === "file" ? entry.size : 0,
              depth: directory.depth,
              ignored,
            };
            if (entry.type === "symlink") Object.assign(listed, await describeSymlink(real));
            directory.children.push(listed);
            shown += 1;
            if (entry.type === "directory" && directory.depth < depth) {
              if (ignored) listed.notExpanded = "ignored";
              else if (entry.name === ".git") listed.notExpanded = "git";
              else {
                const children: ListedEntry[] = [];
                childrenOf.set(listed, children);
                queue.push({ path, real, depth: directory.depth + 1, children });
              }
            }
          }
        }
        const entries: ListedEntry[] = [];
        const visit = (list: readonly ListedEntry[]) => {
          for (const entry of list) {
            entries.push(entry);
            const children = childrenOf.get(entry);
            if (children !== undefined) visit(children);
          }
        };
        visit(top);
        return ok({
          path: resolved.display,
          depth,
          entries,
          omitted,
          incomplete,
          hiddenSkipped,
          maxEntries,
        });
      }),
    render: formatDirectoryListing,
  });
}
