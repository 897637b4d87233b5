import { AgentoolError, type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import {
  APPLY_PATCH_TOOL_NAME,
  type ApplyPatchToolOptions,
  createApplyPatchTool,
} from "./apply-patch.js";
import { COPY_FILE_TOOL_NAME, type CopyFileToolOptions, createCopyFileTool } from "./copy-file.js";
import {
  COUNT_WORDS_TOOL_NAME,
  type CountWordsToolOptions,
  createCountWordsTool,
} from "./count-words.js";
import {
  CREATE_DIRECTORY_TOOL_NAME,
  type CreateDirectoryToolOptions,
  createCreateDirectoryTool,
} from "./create-directory.js";
import {
  createDeleteFileTool,
  DELETE_FILE_TOOL_NAME,
  type DeleteFileToolOptions,
} from "./delete-file.js";
import { createEditFileTool, EDIT_FILE_TOOL_NAME, type EditFileToolOptions } from "./edit-file.js";
import {
  createExtractTocTool,
  EXTRACT_TOC_TOOL_NAME,
  type ExtractTocToolOptions,
} from "./extract-toc.js";
import {
  createFileStatsTool,
  FILE_STATS_TOOL_NAME,
  type FileStatsToolOptions,
} from "./file-stats.js";
import type { FileSystem } from "./file-system.js";
import {
  createGlobSearchTool,
  GLOB_SEARCH_TOOL_NAME,
  type GlobSearchToolOptions,
} from "./glob-search.js";
import {
  createGrepSearchTool,
  GREP_SEARCH_TOOL_NAME,
  type GrepSearchToolOptions,
} from "./grep-search.js";
import type { FileLister, TextSearcher } from "./internal/search-types.js";
import {
  createListDirectoryTool,
  LIST_DIRECTORY_TOOL_NAME,
  type ListDirectoryToolOptions,
} from "./list-directory.js";
import { createMoveFileTool, MOVE_FILE_TOOL_NAME, type MoveFileToolOptions } from "./move-file.js";
import {
  createMultiEditTool,
  MULTI_EDIT_TOOL_NAME,
  type MultiEditToolOptions,
} from "./multi-edit.js";
import { createReadFileTool, READ_FILE_TOOL_NAME, type ReadFileToolOptions } from "./read-file.js";
import { createWorkspace, type Workspace } from "./workspace.js";
import {
  createWriteFileTool,
  WRITE_FILE_TOOL_NAME,
  type WriteFileToolOptions,
} from "./write-file.js";

/** `"read-only"` (the default) or `"read-write"`. */
export type FsToolsMode = "read-only" | "read-write";

type Tuning<Options> = Omit<Options, "workspace" | "searcher" | "lister" | "mountedTools">;

/** Per-tool options of {@link createFsTools}: names, descriptions and caps (see each factory). */
export interface FsToolsTuning {
  /** Options of `read_file` ({@link createReadFileTool}). */
  readFile?: Tuning<ReadFileToolOptions>;
  /** Options of `list_directory`. */
  listDirectory?: Tuning<ListDirectoryToolOptions>;
  /** Options of `file_stats`. */
  fileStats?: Tuning<FileStatsToolOptions>;
  /** Options of `grep_search`. */
  grepSearch?: Tuning<GrepSearchToolOptions>;
  /** Options of `glob_search`. */
  globSearch?: Tuning<GlobSearchToolOptions>;
  /** Options of `extract_toc`. */
  extractToc?: Tuning<ExtractTocToolOptions>;
  /** Options of `count_words`. */
  countWords?: Tuning<CountWordsToolOptions>;
  /** Options of `write_file` (read-write mode). */
  writeFile?: Tuning<WriteFileToolOptions>;
  /** Options of `edit_file` (read-write mode). */
  editFile?: Tuning<EditFileToolOptions>;
  /** Options of `multi_edit` (read-write mode). */
  multiEdit?: Tuning<MultiEditToolOptions>;
  /** Options of `apply_patch` (read-write mode). */
  applyPatch?: Tuning<ApplyPatchToolOptions>;
  /** Options of `create_directory` (read-write mode). */
  createDirectory?: Tuning<CreateDirectoryToolOptions>;
  /** Options of `delete_file` (read-write mode). */
  deleteFile?: Tuning<DeleteFileToolOptions>;
  /** Options of `move_file` (read-write mode). */
  moveFile?: Tuning<MoveFileToolOptions>;
  /** Options of `copy_file` (read-write mode). */
  copyFile?: Tuning<CopyFileToolOptions>;
}

/** Options of {@link createFsTools}. */
export interface FsToolsOptions extends FsToolsTuning {
  /** The seam: `createMemoryFileSystem(…)`, or use `createNodeFsTools({ root })` from `./node`. Required unless `workspace` is given. */
  fileSystem?: FileSystem;
  /**
   * A workspace from {@link createWorkspace}, shared with other tools (tools-code, tools-office):
   * one confinement, one secret list and one set of write locks, so two tools editing the same
   * file wait for each other. Instead of `fileSystem`, `secretPaths` and `secretExceptions`.
   */
  workspace?: Workspace;
  /** `"read-only"` (default): read, list, stats, search, toc, count. `"read-write"` adds write, edit, multi_edit, apply_patch, create, delete, move, copy. */
  mode?: FsToolsMode;
  /** Globs no tool touches. Default `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths`. Default `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** The engine of `grep_search`. Default: the JS engine over the seam (the Node entry passes ripgrep). */
  searcher?: TextSearcher;
  /** The engine of `glob_search`. Default: the JS engine over the seam (the Node entry passes ripgrep). */
  lister?: FileLister;
  /**
   * Names of tools the host mounts beside these (`run_command`, `git_diff`, …), so the
   * descriptions may point to them. The tools of the chosen mode are always known; a tool that
   * is neither mounted nor listed here is never named in a description.
   */
  alsoMounted?: readonly string[];
}

const tuning = z.record(z.string(), z.unknown()).optional();

const optionsSchema = z.object({
  fileSystem: z
    .custom<FileSystem>(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as FileSystem).realPath === "function",
      {
        error:
          "expected a FileSystem (createMemoryFileSystem(…) or createNodeFileSystem({ root }))",
      },
    )
    .optional(),
  workspace: z
    .custom<Workspace>(
      (value) =>
        typeof value === "object" &&
        value !== null &&
        typeof (value as Workspace).resolve === "function",
      { error: "expected a Workspace (createWorkspace of @agentool/tools-fs)" },
    )
    .optional(),
  mode: z.enum(["read-only", "read-write"]).optional(),
  secretPaths: z.array(z.string().min(1)).readonly().optional(),
  secretExceptions: z.array(z.string().min(1)).readonly().optional(),
  searcher: z
    .custom<TextSearcher>((value) => typeof value === "object" && value !== null)
    .optional(),
  lister: z.custom<FileLister>((value) => typeof value === "object" && value !== null).optional(),
  alsoMounted: z.array(z.string().min(1)).readonly().optional(),
  readFile: tuning,
  listDirectory: tuning,
  fileStats: tuning,
  grepSearch: tuning,
  globSearch: tuning,
  extractToc: tuning,
  countWords: tuning,
  writeFile: tuning,
  editFile: tuning,
  multiEdit: tuning,
  applyPatch: tuning,
  createDirectory: tuning,
  deleteFile: tuning,
  moveFile: tuning,
  copyFile: tuning,
});

/** The read tools, in the order `createFsTools` returns them, with their default names. */
const READ_TOOLS = [
  ["readFile", READ_FILE_TOOL_NAME],
  ["listDirectory", LIST_DIRECTORY_TOOL_NAME],
  ["fileStats", FILE_STATS_TOOL_NAME],
  ["grepSearch", GREP_SEARCH_TOOL_NAME],
  ["globSearch", GLOB_SEARCH_TOOL_NAME],
  ["extractToc", EXTRACT_TOC_TOOL_NAME],
  ["countWords", COUNT_WORDS_TOOL_NAME],
] as const;

/** The tools `mode: "read-write"` adds, in order, with their default names. */
const WRITE_TOOLS = [
  ["writeFile", WRITE_FILE_TOOL_NAME],
  ["editFile", EDIT_FILE_TOOL_NAME],
  ["multiEdit", MULTI_EDIT_TOOL_NAME],
  ["applyPatch", APPLY_PATCH_TOOL_NAME],
  ["createDirectory", CREATE_DIRECTORY_TOOL_NAME],
  ["deleteFile", DELETE_FILE_TOOL_NAME],
  ["moveFile", MOVE_FILE_TOOL_NAME],
  ["copyFile", COPY_FILE_TOOL_NAME],
] as const;

/**
 * The names of the tools {@link createFsTools} mounts for a mode (after `name` overrides), the
 * list every default description is built from.
 *
 * @param options - the mode and the per-tool options (only their `name` is read)
 * @returns the tool names, in the order the tools are returned
 * @example
 * fsToolNames({ mode: "read-only" }); // ["read_file", "list_directory", …, "count_words"]
 */
export function fsToolNames(
  options: Pick<FsToolsOptions, "mode"> &
    Partial<Record<keyof FsToolsTuning, { name?: string }>> = {},
): string[] {
  const entries =
    (options.mode ?? "read-only") === "read-write" ? [...READ_TOOLS, ...WRITE_TOOLS] : READ_TOOLS;
  return entries.map(([key, name]) => options[key]?.name ?? name);
}

/** The given workspace, or one made over the seam; exactly one of the two. */
function workspaceOf(parsed: z.infer<typeof optionsSchema>): Workspace {
  if (parsed.workspace !== undefined) {
    const conflicting = (["fileSystem", "secretPaths", "secretExceptions"] as const).filter(
      (key) => parsed[key] !== undefined,
    );
    if (conflicting.length > 0) {
      throw new AgentoolError(
        `createFsTools: give either workspace or ${conflicting.join(" and ")} — a workspace already holds its seam and secret lists.`,
      );
    }
    return parsed.workspace;
  }
  if (parsed.fileSystem === undefined) {
    throw new AgentoolError(
      "createFsTools: give fileSystem (createMemoryFileSystem(…), or createNodeFsTools({ root }) from ./node) or workspace (createWorkspace).",
    );
  }
  return createWorkspace({
    fileSystem: parsed.fileSystem,
    ...(parsed.secretPaths === undefined ? {} : { secretPaths: parsed.secretPaths }),
    ...(parsed.secretExceptions === undefined ? {} : { secretExceptions: parsed.secretExceptions }),
  });
}

/**
 * Creates the file tools over a seam, confined to its root with secret paths refused.
 * Read-only by default (`read_file`, `list_directory`, `file_stats`, `grep_search`,
 * `glob_search`, `extract_toc`, `count_words`); `mode: "read-write"` adds `write_file`,
 * `edit_file`, `multi_edit`, `apply_patch`, `create_directory`, `delete_file`, `move_file`, `copy_file`.
 * `run_command` is never included: create it with `createRunCommandTool` from `./node` and an
 * allowlist (and list it in `alsoMounted`). Each tool's caps are options under its camelCase
 * name (`readFile: { … }`).
 *
 * Every default description names only the tools this call mounts (plus `alsoMounted`): a
 * read-only set never mentions `edit_file`, and a renamed tool is not named by its old name.
 *
 * @param options - the seam, the mode, secret lists, search engines and per-tool options
 * @returns the tools, read tools first
 * @throws AgentoolError for unknown or invalid options
 * @example
 * const tools = createFsTools({ fileSystem: createMemoryFileSystem({ "a.md": "# A" }), mode: "read-write" });
 */
export function createFsTools(options: FsToolsOptions): AnyTool[] {
  const parsed = parseOptions("createFsTools", optionsSchema, options);
  const typed = options;
  const workspace = workspaceOf(parsed);
  const engines = {
    ...(parsed.searcher === undefined ? {} : { searcher: parsed.searcher }),
  };
  const listers = {
    ...(parsed.lister === undefined ? {} : { lister: parsed.lister }),
  };
  const readWrite = (parsed.mode ?? "read-only") === "read-write";
  const mountedTools = [
    ...new Set([...fsToolNames({ ...typed, mode: parsed.mode }), ...(parsed.alsoMounted ?? [])]),
  ];
  // Every tool hears what is mounted beside it, so its description names nothing else.
  const shared = { workspace, mountedTools };
  const tools: AnyTool[] = [
    createReadFileTool({ ...typed.readFile, ...shared }),
    createListDirectoryTool({ ...typed.listDirectory, ...shared }),
    createFileStatsTool({ ...typed.fileStats, ...shared }),
    createGrepSearchTool({ ...typed.grepSearch, ...shared, ...engines }),
    createGlobSearchTool({ ...typed.globSearch, ...shared, ...listers }),
    createExtractTocTool({ ...typed.extractToc, ...shared }),
    createCountWordsTool({ ...typed.countWords, ...shared }),
  ];
  if (readWrite) {
    tools.push(
      createWriteFileTool({ ...typed.writeFile, ...shared }),
      createEditFileTool({ ...typed.editFile, ...shared }),
      createMultiEditTool({ ...typed.multiEdit, ...shared }),
      createApplyPatchTool({ ...typed.applyPatch, ...shared }),
      createCreateDirectoryTool({ ...typed.createDirectory, ...shared }),
      createDeleteFileTool({ ...typed.deleteFile, ...shared }),
      createMoveFileTool({ ...typed.moveFile, ...shared }),
      createCopyFileTool({ ...typed.copyFile, ...shared }),
    );
  }
  return tools;
}
