import {
  AgentoolError,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  ToolFailureError,
  toolOptionsShape,
} from "@agentool/contract";
import {
  createWorkspace,
  type FileStat,
  type ResolvedPath,
  type Workspace,
} from "@agentool/tools-fs";
import { createNodeFileSystem } from "@agentool/tools-fs/node";
import { z } from "zod";

/**
 * What the reading tools share: their options (a root or a ready workspace), the workspace they
 * build, and reading one file through it (confined, secrets and `.git` refused by the
 * workspace; missing, directory and oversized files refused here).
 *
 * @internal
 */

/** Default largest file the reading tools open: 100 MB. */
export const DEFAULT_MAX_READ_BYTES = 100_000_000;

/** Default time limit of one read: 60 seconds. */
export const DEFAULT_READ_TIMEOUT_MS = 60_000;

const workspaceOption = z.custom<Workspace>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Workspace).resolve === "function" &&
    typeof (value as Workspace).fileSystem === "object",
  { error: "expected a workspace made by createWorkspace({ fileSystem }) from @agentool/tools-fs" },
);

/** The zod shape of the options every reading tool factory takes. */
export const officeReadOptionsShape = {
  ...toolOptionsShape,
  root: z.string().min(1).optional().describe("The directory every path is confined to."),
  workspace: workspaceOption.optional().describe("A ready tools-fs workspace (instead of root)."),
  secretPaths: z.array(z.string().min(1)).readonly().optional(),
  secretExceptions: z.array(z.string().min(1)).readonly().optional(),
  maxFileBytes: z.number().int().min(1_000).max(2_000_000_000).optional(),
};

/** Options every reading tool factory takes. */
export interface OfficeReadToolOptions {
  /** The directory every path is confined to (on its real path). Give this or `workspace`. */
  root?: string;
  /** A workspace from `@agentool/tools-fs`'s `createWorkspace` (shared with the file tools), instead of `root`. */
  workspace?: Workspace;
  /** Secret-path globs (with `root`): never read. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (with `root`). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Largest file opened, in bytes. Default {@link DEFAULT_MAX_READ_BYTES} (100 MB). */
  maxFileBytes?: number;
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Names of the tools mounted beside this one; descriptions and hints name only these. */
  mountedTools?: readonly string[];
  /** Milliseconds before a call is stopped with `TIMEOUT` (`0`: none). Default 60,000. */
  timeoutMs?: number;
}

/**
 * The workspace of a factory's options: the one given, or a Node workspace over `root`.
 *
 * @param factory - the factory's name, for the error
 * @param options - parsed options
 * @returns the workspace
 * @throws AgentoolError when neither `root` nor `workspace` is given
 */
export function readWorkspaceOf(
  factory: string,
  options: Pick<OfficeReadToolOptions, "root" | "workspace" | "secretPaths" | "secretExceptions">,
): Workspace {
  if (options.workspace !== undefined) return options.workspace;
  if (options.root === undefined) {
    throw new AgentoolError(
      `${factory}: give root (the directory to confine the tools to) or workspace (from createWorkspace of @agentool/tools-fs).`,
    );
  }
  return createWorkspace({
    fileSystem: createNodeFileSystem({ root: options.root }),
    secretPaths: options.secretPaths ?? DEFAULT_SECRET_PATHS,
    secretExceptions: options.secretExceptions ?? DEFAULT_SECRET_EXCEPTIONS,
  });
}

/** One file, read whole. */
export interface ReadFileBytes {
  /** The path, resolved and checked. */
  resolved: ResolvedPath;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its stat (size, modification time, identity: a cache key). */
  stat: FileStat;
}

/**
 * Reads one file a model named: confined by the workspace (escapes `INVALID_PATH`, secrets and
 * `.git` `BLOCKED`), missing `FILE_NOT_FOUND`, a directory `INVALID_INPUT`, past `maxFileBytes`
 * `TOO_LARGE`. Failures are thrown as `ToolFailureError`s (`run` maps them).
 *
 * @param workspace - the workspace
 * @param path - the model's path
 * @param options - the size cap and the hints
 * @returns the file's bytes
 */
export async function readWorkspaceFile(
  workspace: Workspace,
  path: string,
  options: { maxFileBytes: number; missingHint: string },
): Promise<ReadFileBytes> {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument: "path" });
  const stat = await workspace.fileSystem.stat(resolved.real);
  if (stat === undefined) {
    throw new ToolFailureError("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
      hint: options.missingHint,
    });
  }
  if (stat.type === "directory") {
    throw new ToolFailureError("INVALID_INPUT", `${resolved.display} is a directory, not a file.`, {
      hint: "Name one document file.",
    });
  }
  if (stat.size > options.maxFileBytes) {
    throw new ToolFailureError(
      "TOO_LARGE",
      `${resolved.display} has ${stat.size} bytes, more than the ${options.maxFileBytes} this tool opens.`,
      { hint: "Ask the user for a smaller file, or to split it." },
    );
  }
  return { resolved, bytes: await workspace.fileSystem.readFile(resolved.real), stat };
}

/** The lower-case extension of a path, without the dot (`""` when none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}
