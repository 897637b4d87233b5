import {
  defineTool,
  fail,
  joinSentences,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import { z } from "zod";
import {
  type EntryType,
  type FileSystem,
  FileSystemError,
  parentNotDirectoryError,
} from "./file-system.js";
import { listedEntry } from "./internal/listed-entry.js";
import {
  pathNotFound,
  type WorkspaceToolOptions,
  workspaceToolOptionsShape,
} from "./internal/tool-support.js";
import {
  gitPrivateError,
  isGitPrivatePath,
  normalizeWorkspacePath,
  type Workspace,
} from "./workspace.js";

/** The default name of the deleting tool. */
export const DELETE_FILE_TOOL_NAME = "delete_file";

/** Options of {@link createDeleteFileTool}. */
export type DeleteFileToolOptions = WorkspaceToolOptions;

const optionsSchema = z.object(workspaceToolOptionsShape);

/** The input schema of `delete_file`. */
export const deleteFileInputSchema = z.object({
  path: z
    .string()
    .describe("File, symlink or directory to delete, relative to the workspace root."),
  recursive: z
    .boolean()
    .optional()
    .describe("Delete a non-empty directory with everything inside."),
});

/** The input of `delete_file`. */
export type DeleteFileInput = z.output<typeof deleteFileInputSchema>;

/** What `delete_file` returns. */
export interface DeleteFileToolData {
  /** The deleted path, as a workspace path. */
  path: string;
  /** What was deleted. A symlink is deleted itself; its target is never touched. */
  type: EntryType;
  /** For a directory: how many entries (files, directories, symlinks, at any depth) were inside it. */
  removed_entries: number;
}

/** The `delete_file` tool's type. */
export type DeleteFileTool = Tool<typeof deleteFileInputSchema, DeleteFileToolData>;

/** Names from other toolsets accepted silently for `delete_file`'s `path`. */
export const DELETE_FILE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
});

function description(mounted: ReturnType<typeof mountedTools>): string {
  return joinSentences(
    [
      "Delete a file, a symlink (not its target) or an empty directory; this cannot be undone.",
      `A non-empty directory fails DIRECTORY_NOT_EMPTY unless recursive is true${mounted.when("list_directory", "; check its contents with list_directory first")}. Directories holding secret files are refused.`,
    ],
    "\n",
  );
}

function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index === -1 ? "" : path.slice(0, index);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function join(parent: string, name: string): string {
  return parent.length === 0 ? name : `${parent}/${name}`;
}

/** Counts the entries of a tree (symlinks not followed) and the secret paths among them. */
async function surveyTree(
  fileSystem: FileSystem,
  workspace: Workspace,
  shownRoot: string,
  realRoot: string,
  signal: AbortSignal,
): Promise<{ entries: number; secrets: number; git?: string }> {
  let entries = 0;
  let secrets = 0;
  let git: string | undefined;
  const pending: Array<[string, string]> = [[shownRoot, realRoot]];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const [shown, real] = pending.pop() as [string, string];
    for (const entry of await fileSystem.readDirectory(real)) {
      entries += 1;
      const shownChild = join(shown, entry.name);
      const realChild = join(real, entry.name);
      if (workspace.isSecret(shownChild) || workspace.isSecret(realChild)) secrets += 1;
      else if (entry.name.toLowerCase() === ".git") git ??= shownChild;
      else if (entry.type === "directory") pending.push([shownChild, realChild]);
    }
  }
  return git === undefined ? { entries, secrets } : { entries, secrets, git };
}

/**
 * Creates the `delete_file` tool: deletes a file, a symlink (not its target) or a directory
 * (non-empty only with `recursive: true`), confined to the workspace, never the root, never a
 * secret path or a directory holding one. Serialised per path with `workspace.withLock`.
 *
 * @param options - the workspace and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const deleteFile = createDeleteFileTool({ workspace });
 * await deleteFile.run({ path: "build", recursive: true }); // data: { type: "directory", removed_entries: 42, … }
 */
export function createDeleteFileTool(options: DeleteFileToolOptions): DeleteFileTool {
  const parsed = parseOptions("createDeleteFileTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const name = parsed.name ?? DELETE_FILE_TOOL_NAME;

  /**
   * Resolves the path; a symlink whose target lies outside the workspace is still deletable (the
   * link itself is inside), so an `INVALID_PATH` from following it is retried on the parent.
   */
  async function resolveEntry(path: string): Promise<{ path: string; display: string }> {
    try {
      return await workspace.resolve(path, { allowRoot: false });
    } catch (error) {
      if (!FileSystemError.isInstance(error) || error.code !== "INVALID_PATH") throw error;
      const normalized = normalizeWorkspacePath(path, fileSystem.displayRoot);
      if (normalized.length === 0) throw error;
      const parent = await workspace.resolve(parentOf(normalized));
      const entry = (await fileSystem.readDirectory(parent.real)).find(
        (candidate) => candidate.name === nameOf(normalized),
      );
      if (entry?.type !== "symlink") throw error;
      return { path: normalized, display: workspace.display(normalized) };
    }
  }

  return defineTool({
    name,
    description: parsed.description ?? description(mountedTools(parsed.mountedTools)),
    input: deleteFileInputSchema,
    aliases: DELETE_FILE_ALIASES,
    annotations: { title: "Delete file", destructive: true, idempotent: false },
    tags: ["fs:write"],
    execute: async (request, context) => {
      const resolved = await resolveEntry(request.path);
      // The entry itself (a symlink is not followed): its parent's real path plus its name.
      const parentReal = await fileSystem.realPath(parentOf(resolved.path));
      const location = join(parentReal, nameOf(resolved.path));
      const parentStat = await fileSystem.stat(parentReal);
      if (parentStat !== undefined && parentStat.type !== "directory") {
        throw parentNotDirectoryError(resolved.display, workspace.display(parentReal));
      }
      if (isGitPrivatePath(resolved.path) || isGitPrivatePath(location))
        throw gitPrivateError(resolved.display);
      if (workspace.isSecret(location)) {
        return fail("BLOCKED", `${resolved.display} is a secret path; no tool deletes it.`, {
          hint: "Leave it alone, or ask the user to delete it.",
        });
      }
      return workspace.withLock(location, async () => {
        const entry = await listedEntry(fileSystem, parentReal, nameOf(resolved.path));
        if (entry === undefined) return pathNotFound(resolved.display);
        let removedEntries = 0;
        if (entry.type === "directory") {
          const inside = await fileSystem.readDirectory(location);
          if (inside.length > 0 && request.recursive !== true) {
            return fail(
              "DIRECTORY_NOT_EMPTY",
              `${resolved.display} is a directory with ${inside.length} ${inside.length === 1 ? "entry" : "entries"} directly inside it.`,
              {
                hint: `Check its contents with list_directory, then call ${name} again with recursive: true to delete it and everything inside.`,
              },
            );
          }
          const survey = await surveyTree(
            fileSystem,
            workspace,
            resolved.path,
            location,
            context.signal,
          );
          if (survey.git !== undefined) {
            return fail(
              "BLOCKED",
              `${resolved.display} contains a .git directory (${survey.git}); git's private files are off limits to the file tools, so it is not deleted.`,
              { hint: "Ask the user to delete a repository." },
            );
          }
          if (survey.secrets > 0) {
            return fail(
              "BLOCKED",
              `${resolved.display} contains ${survey.secrets} secret ${survey.secrets === 1 ? "file" : "files"} (keys, credentials or environment files) that no tool deletes.`,
              {
                hint: "Delete the other entries one by one, or ask the user to delete the directory.",
              },
            );
          }
          removedEntries = survey.entries;
        }
        await fileSystem.remove(resolved.path, { recursive: request.recursive === true });
        return ok<DeleteFileToolData>({
          path: resolved.display,
          type: entry.type,
          removed_entries: removedEntries,
        });
      });
    },
    render: (data) => {
      if (data.type === "directory") {
        return data.removed_entries === 0
          ? `Deleted the empty directory ${data.path}.`
          : `Deleted the directory ${data.path} and the ${data.removed_entries} ${data.removed_entries === 1 ? "entry" : "entries"} inside it.`;
      }
      if (data.type === "symlink")
        return `Deleted the symlink ${data.path} (its target was not touched).`;
      return `Deleted ${data.path}.`;
    },
  });
}
