import { type AnyTool, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { type CopyFileToolOptions, createCopyFileTool } from "./copy-file.js";
import { type CountWordsToolOptions, createCountWordsTool } from "./count-words.js";
import { type CreateDirectoryToolOptions, createCreateDirectoryTool } from "./create-directory.js";
import { createDeleteFileTool, type DeleteFileToolOptions } from "./delete-file.js";
import { createEditFileTool, type EditFileToolOptions } from "./edit-file.js";
import { createExtractTocTool, type ExtractTocToolOptions } from "./extract-toc.js";
import { createFileStatsTool, type FileStatsToolOptions } from "./file-stats.js";
import type { FileSystem } from "./file-system.js";
import { createGlobSearchTool, type GlobSearchToolOptions } from "./glob-search.js";
import { createGrepSearchTool, type GrepSearchToolOptions } from "./grep-search.js";
import type { FileLister, TextSearcher } from "./internal/search-types.js";
import { createListDirectoryTool, type ListDirectoryToolOptions } from "./list-directory.js";
import { createMoveFileTool, type MoveFileToolOptions } from "./move-file.js";
import { createMultiEditTool, type MultiEditToolOptions } from "./multi-edit.js";
import { createReadFileTool, type ReadFileToolOptions } from "./read-file.js";
import { createWorkspace } from "./workspace.js";
import { createWriteFileTool, type WriteFileToolOptions } from "./write-file.js";

/** `"read-only"` (the default) or `"read-write"`. */
export type FsToolsMode = "read-only" | "read-write";

type Tuning<Options> = Omit<Options, "workspace" | "searcher" | "lister">;

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
  /** The seam: `createMemoryFileSystem(…)`, or use `createNodeFsTools({ root })` from `./node`. */
  fileSystem: FileSystem;
  /** `"read-only"` (default): read, list, stats, search, toc, count. `"read-write"` adds write, edit, multi_edit, create, delete, move, copy. */
  mode?: FsToolsMode;
  /** Globs no tool touches. Default `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths`. Default `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** The engine of `grep_search`. Default: the JS engine over the seam (the Node entry passes ripgrep). */
  searcher?: TextSearcher;
  /** The engine of `glob_search`. Default: the JS engine over the seam (the Node entry passes ripgrep). */
  lister?: FileLister;
}

const tuning = z.record(z.string(), z.unknown()).optional();

const optionsSchema = z.object({
  fileSystem: z.custom<FileSystem>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as FileSystem).realPath === "function",
    {
      error: "expected a FileSystem (createMemoryFileSystem(…) or createNodeFileSystem({ root }))",
    },
  ),
  mode: z.enum(["read-only", "read-write"]).optional(),
  secretPaths: z.array(z.string().min(1)).readonly().optional(),
  secretExceptions: z.array(z.string().min(1)).readonly().optional(),
  searcher: z
    .custom<TextSearcher>((value) => typeof value === "object" && value !== null)
    .optional(),
  lister: z.custom<FileLister>((value) => typeof value === "object" && value !== null).optional(),
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
  createDirectory: tuning,
  deleteFile: tuning,
  moveFile: tuning,
  copyFile: tuning,
});

/**
 * Creates the file tools over a seam, confined to its root with secret paths refused.
 * Read-only by default (`read_file`, `list_directory`, `file_stats`, `grep_search`,
 * `glob_search`, `extract_toc`, `count_words`); `mode: "read-write"` adds `write_file`,
 * `edit_file`, `multi_edit`, `create_directory`, `delete_file`, `move_file`, `copy_file`.
 * `run_command` is never included: create it with `createRunCommandTool` from `./node` and an
 * allowlist. Each tool's caps are options under its camelCase name (`readFile: { … }`).
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
  const workspace = createWorkspace({
    fileSystem: parsed.fileSystem,
    ...(parsed.secretPaths === undefined ? {} : { secretPaths: parsed.secretPaths }),
    ...(parsed.secretExceptions === undefined ? {} : { secretExceptions: parsed.secretExceptions }),
  });
  const engines = {
    ...(parsed.searcher === undefined ? {} : { searcher: parsed.searcher }),
  };
  const listers = {
    ...(parsed.lister === undefined ? {} : { lister: parsed.lister }),
  };
  const tools: AnyTool[] = [
    createReadFileTool({ ...typed.readFile, workspace }),
    createListDirectoryTool({ ...typed.listDirectory, workspace }),
    createFileStatsTool({ ...typed.fileStats, workspace }),
    createGrepSearchTool({ ...typed.grepSearch, workspace, ...engines }),
    createGlobSearchTool({ ...typed.globSearch, workspace, ...listers }),
    createExtractTocTool({ ...typed.extractToc, workspace }),
    createCountWordsTool({ ...typed.countWords, workspace }),
  ];
  if ((parsed.mode ?? "read-only") === "read-write") {
    tools.push(
      createWriteFileTool({ ...typed.writeFile, workspace }),
      createEditFileTool({ ...typed.editFile, workspace }),
      createMultiEditTool({ ...typed.multiEdit, workspace }),
      createCreateDirectoryTool({ ...typed.createDirectory, workspace }),
      createDeleteFileTool({ ...typed.deleteFile, workspace }),
      createMoveFileTool({ ...typed.moveFile, workspace }),
      createCopyFileTool({ ...typed.copyFile, workspace }),
    );
  }
  return tools;
}
