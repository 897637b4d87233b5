import {
  defineTool,
  fail,
  joinSentences,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import { type EntryType, type FileSystem, parentNotDirectoryError } from "./file-system.js";
import { listedEntry } from "./internal/listed-entry.js";
import {
  pathNotFound,
  type WorkspaceToolOptions,
  workspaceToolOptionsShape,
} from "./internal/tool-support.js";
import { gitPrivateError, isGitPrivatePath, type Workspace } from "./workspace.js";

/** The default name of the moving tool. */
export const MOVE_FILE_TOOL_NAME = "move_file";

/** Options of {@link createMoveFileTool}. */
export type MoveFileToolOptions = WorkspaceToolOptions;

const optionsSchema = z.object(workspaceToolOptionsShape);

/** The input schema of `move_file`. */
export const moveFileInputSchema = z.object({
  source: z
    .string()
    .describe("File, symlink or directory to move, relative to the workspace root."),
  destination: z
    .string()
    .describe("Full new path, name included (e.g. 'archive/notes.md', not 'archive')."),
  overwrite: z
    .boolean()
    .optional()
    .describe("Replace an existing file (never a directory) at destination."),
});

/** The input of `move_file`. */
export type MoveFileInput = z.output<typeof moveFileInputSchema>;

/** What `move_file` and `copy_file` return. */
export interface TransferData {
  /** The source, as a workspace path. */
  source: string;
  /** The destination, as a workspace path. */
  destination: string;
  /** What was moved or copied (for `copy_file`, a symlink's target type). */
  type: EntryType;
  /** Whether a file at the destination was replaced. */
  overwritten: boolean;
  /** For a directory: how many entries (at any depth) it held. */
  entries: number;
}

/** What `move_file` returns. */
export type MoveFileToolData = TransferData;

/** The `move_file` tool's type. */
export type MoveFileTool = Tool<typeof moveFileInputSchema, MoveFileToolData>;

/**
 * Names from other toolsets accepted silently for `move_file` and `copy_file` (each means exactly
 * the field it maps to).
 */
export const TRANSFER_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  source_path: "source",
  from: "source",
  old_path: "source",
  destination_path: "destination",
  to: "destination",
  new_path: "destination",
  src: "source",
  dest: "destination",
  dst: "destination",
});

function description(mounted: ReturnType<typeof mountedTools>): string {
  const others = [
    mounted.when("copy_file", "to copy instead, use copy_file"),
    mounted.when("delete_file", "to delete, delete_file"),
  ].filter((part) => part.length > 0);
  const tail = others.join("; ");
  return joinSentences(
    [
      "Move or rename a file, symlink or directory; missing parents are created.",
      "An existing destination fails FILE_ALREADY_EXISTS unless overwrite is true. Directories holding secret files are refused.",
      tail.length > 0 ? `${tail.charAt(0).toUpperCase()}${tail.slice(1)}.` : undefined,
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

async function countSecrets(
  fileSystem: FileSystem,
  workspace: Workspace,
  real: string,
  signal: AbortSignal,
): Promise<{ entries: number; secrets: number; git?: string }> {
  let entries = 0;
  let secrets = 0;
  let git: string | undefined;
  const pending = [real];
  while (pending.length > 0) {
    signal.throwIfAborted();
    const directory = pending.pop() as string;
    for (const entry of await fileSystem.readDirectory(directory)) {
      entries += 1;
      const child = join(directory, entry.name);
      if (workspace.isSecret(child)) secrets += 1;
      else if (entry.name.toLowerCase() === ".git") git ??= child;
      else if (entry.type === "directory") pending.push(child);
    }
  }
  return git === undefined ? { entries, secrets } : { entries, secrets, git };
}

/** What {@link transferEntry} needs. */
export interface TransferRequest {
  /** `"move"` renames the entry itself (a symlink stays a symlink); `"copy"` copies what a symlink points to. */
  operation: "move" | "copy";
  /** The model's source path. */
  source: string;
  /** The model's destination path. */
  destination: string;
  /** Whether to replace a file at the destination. */
  overwrite: boolean;
  /** Stops long surveys. */
  signal: AbortSignal;
}

/**
 * The shared body of `move_file` and `copy_file`: both paths confined (the destination included,
 * on its real parent), secret paths and directories holding them refused, an existing
 * destination refused without `overwrite` (and a directory always), a directory never moved or
 * copied into itself, parents created, both paths locked (in a fixed order, so two opposite
 * moves cannot deadlock).
 *
 * @internal
 */
export function transferEntry(
  workspace: Workspace,
  request: TransferRequest,
): Promise<ToolResult<TransferData>> {
  // A move runs alone, its checks included (so no other call's checks and uses straddle it); a
  // copy holds the shared lock on both locations and re-checks the parents it resolved.
  if (request.operation === "move")
    return workspace.withExclusiveLock(() =>
      transferChecked(workspace, request, (_locations, work) => work()),
    );
  return transferChecked(workspace, request, (locations, work) =>
    workspace.withLocks(locations, work),
  );
}

async function transferChecked(
  workspace: Workspace,
  request: TransferRequest,
  lock: (
    locations: string[],
    work: () => Promise<ToolResult<TransferData>>,
  ) => Promise<ToolResult<TransferData>>,
): Promise<ToolResult<TransferData>> {
  const fileSystem = workspace.fileSystem;
  const verb = request.operation === "move" ? "move" : "copy";
  const source = await workspace.resolve(request.source, { allowRoot: false, argument: "source" });
  const destination = await workspace.resolve(request.destination, {
    allowRoot: false,
    argument: "destination",
  });
  const sourceParent = await fileSystem.realPath(parentOf(source.path));
  const sourceLocation =
    request.operation === "move" ? join(sourceParent, nameOf(source.path)) : source.real;
  const destinationParent = await fileSystem.realPath(parentOf(destination.path));
  const destinationLocation = join(destinationParent, nameOf(destination.path));
  for (const location of [sourceLocation, destinationLocation]) {
    if (workspace.isSecret(location)) {
      return fail(
        "BLOCKED",
        `${workspace.display(location)} is a secret path; no tool touches it.`,
        {
          hint: "Choose other paths, or ask the user to do this.",
        },
      );
    }
  }
  const sourceParentStat = await fileSystem.stat(sourceParent);
  if (sourceParentStat !== undefined && sourceParentStat.type !== "directory") {
    throw parentNotDirectoryError(`source ${source.display}`, workspace.display(sourceParent));
  }
  let type: EntryType;
  if (request.operation === "move") {
    const entry = await listedEntry(fileSystem, sourceParent, nameOf(source.path));
    if (entry === undefined) return pathNotFound(source.display, `source ${source.display}`);
    type = entry.type;
  } else {
    const stat = await fileSystem.stat(source.real);
    if (stat === undefined) return pathNotFound(source.display, `source ${source.display}`);
    type = stat.type;
  }
  if (destinationLocation === sourceLocation) {
    return fail("INVALID_INPUT", `source and destination are the same path (${source.display}).`, {
      hint: `Give destination the new path you want, e.g. '${parentOf(source.path) ? `${parentOf(source.path)}/` : ""}new-name'.`,
    });
  }
  if (type === "directory" && destinationLocation.startsWith(`${sourceLocation}/`)) {
    return fail(
      "INVALID_PATH",
      `Cannot ${verb} the directory ${source.display} into itself (${destination.display}).`,
      { hint: "Choose a destination outside the source directory." },
    );
  }

  if (request.operation === "move" && isGitPrivatePath(sourceLocation))
    throw gitPrivateError(source.display);
  if (isGitPrivatePath(destinationLocation)) throw gitPrivateError(destination.display);

  return lock(
    [sourceLocation, destinationLocation],
    async (): Promise<ToolResult<TransferData>> => {
      if (
        (await fileSystem.realPath(parentOf(source.path))) !== sourceParent ||
        (await fileSystem.realPath(parentOf(destination.path))) !== destinationParent
      ) {
        return fail(
          "INVALID_PATH",
          `A parent of ${source.display} or ${destination.display} changed while the ${verb} waited (moved or replaced); nothing was done.`,
          { hint: "Check the paths with list_directory and try again." },
        );
      }
      let entries = 0;
      if (type === "directory") {
        const survey = await countSecrets(fileSystem, workspace, sourceLocation, request.signal);
        if (survey.git !== undefined) {
          return fail(
            "BLOCKED",
            `${source.display} contains a .git directory (${workspace.display(survey.git)}); git's private files are off limits to the file tools, so it is not ${verb === "move" ? "moved" : "copied"}.`,
            { hint: "Ask the user to move or copy a repository." },
          );
        }
        if (survey.secrets > 0) {
          return fail(
            "BLOCKED",
            `${source.display} contains ${survey.secrets} secret ${survey.secrets === 1 ? "file" : "files"} (keys, credentials or environment files); no tool ${verb === "move" ? "moves" : "copies"} them.`,
            {
              hint: `${verb === "move" ? "Move" : "Copy"} the other entries one by one, or ask the user.`,
            },
          );
        }
        entries = survey.entries;
      }
      const existing = await listedEntry(fileSystem, destinationParent, nameOf(destination.path));
      let overwritten = false;
      if (existing !== undefined) {
        if (existing.type === "directory") {
          return fail(
            "FILE_ALREADY_EXISTS",
            `destination ${destination.display} is an existing directory; ${verb}_file never replaces a directory.`,
            {
              hint: `To put ${nameOf(source.path)} inside it, use destination '${destination.display}/${nameOf(source.path)}'; or choose another destination.`,
            },
          );
        }
        if (!request.overwrite) {
          return fail("FILE_ALREADY_EXISTS", `destination ${destination.display} already exists.`, {
            hint: "Pass overwrite: true to replace it, or choose another destination.",
          });
        }
        overwritten = true;
        // A file replaced by a file is swapped atomically by the seam; anything else goes first.
        if (type === "directory" || existing.type !== "file" || type !== "file") {
          await fileSystem.remove(destination.path, { recursive: false });
        }
      }
      const parentStat = await fileSystem.stat(destinationParent);
      if (parentStat !== undefined && parentStat.type !== "directory") {
        return fail(
          "INVALID_PATH",
          `${workspace.display(destinationParent)} is a file, not a directory, so destination ${destination.display} cannot be inside it.`,
          { hint: "Choose a destination whose parents are directories." },
        );
      }
      await fileSystem.createDirectory(destinationParent);
      if (request.operation === "move") await fileSystem.rename(source.path, destination.path);
      else await fileSystem.copy(source.path, destination.path);
      return ok({
        source: source.display,
        destination: destination.display,
        type,
        overwritten,
        entries,
      });
    },
  );
}

/**
 * Renders a move or copy for the model.
 *
 * @internal
 */
export function formatTransfer(data: TransferData, verb: "Moved" | "Copied"): string {
  const what =
    data.type === "directory"
      ? `the directory ${data.source} (${data.entries} ${data.entries === 1 ? "entry" : "entries"} inside)`
      : data.type === "symlink"
        ? `the symlink ${data.source}`
        : data.source;
  return `${verb} ${what} to ${data.destination}${data.overwritten ? ", replacing the file that was there" : ""}.`;
}

/**
 * Creates the `move_file` tool: move or rename a file, symlink (the link itself) or directory,
 * confined to the workspace on both ends. `FILE_ALREADY_EXISTS` unless `overwrite`; parents
 * created; a directory is never moved into itself nor replaced.
 *
 * @param options - the workspace and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const moveFile = createMoveFileTool({ workspace });
 * await moveFile.run({ source: "notes.md", destination: "archive/2024/notes.md" });
 */
export function createMoveFileTool(options: MoveFileToolOptions): MoveFileTool {
  const parsed = parseOptions("createMoveFileTool", optionsSchema, options);
  const workspace = parsed.workspace;
  return defineTool({
    name: parsed.name ?? MOVE_FILE_TOOL_NAME,
    description: parsed.description ?? description(mountedTools(parsed.mountedTools)),
    input: moveFileInputSchema,
    aliases: TRANSFER_ALIASES,
    annotations: { title: "Move file", destructive: true, idempotent: false },
    tags: ["fs:write"],
    execute: (request, context) =>
      transferEntry(workspace, {
        operation: "move",
        source: request.source,
        destination: request.destination,
        overwrite: request.overwrite === true,
        signal: context.signal,
      }),
    render: (data) => formatTransfer(data, "Moved"),
  });
}
