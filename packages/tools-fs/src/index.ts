export {
  type DirectoryEntry,
  type EntryType,
  type FileReader,
  type FileStat,
  type FileSystem,
  FileSystemError,
  type WriteFileOptions,
} from "./file-system.js";
export { createMemoryFileSystem, type MemoryFileSystemOptions } from "./memory-file-system.js";
export {
  createWorkspace,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  normalizeWorkspacePath,
  type ResolvedPath,
  type ResolveOptions,
  type Workspace,
  type WorkspaceOptions,
} from "./workspace.js";
