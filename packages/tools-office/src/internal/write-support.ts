import { createHash } from "node:crypto";
import {
  AgentoolError,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  ToolFailureError,
  toolOptionsShape,
} from "@agentool/contract";
import { createWorkspace, type ResolvedPath, type Workspace } from "@agentool/tools-fs";
import { createNodeFileSystem } from "@agentool/tools-fs/node";
import { z } from "zod";

/**
 * What the writing office tools share: their options (a root or a ready workspace), the workspace
 * they build, and reading and writing one binary document through it — confined, secrets and
 * `.git` refused by the workspace, the sha checked before and again under the file's lock, the
 * bytes written atomically by the workspace's file system (temporary file, flush, rename).
 *
 * tools-fs's `planChangeSet` carries text files only (it refuses binary ones), so the binary
 * documents go through the same workspace and seam here; `.ipynb` (text) goes through the change
 * set itself.
 *
 * @internal
 */

/** Default largest document a writing tool loads: 64 MB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 64_000_000;

/** Default time limit of one writing call: 60 seconds. */
export const DEFAULT_WRITE_TIMEOUT_MS = 60_000;

const workspaceOption = z.custom<Workspace>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Workspace).resolve === "function" &&
    typeof (value as Workspace).fileSystem === "object",
  { error: "expected a workspace made by createWorkspace({ fileSystem }) from @agentool/tools-fs" },
);

/** The zod shape of the options every writing office tool factory takes. */
export const officeWriteOptionsShape = {
  ...toolOptionsShape,
  root: z.string().min(1).optional().describe("The directory every path is confined to."),
  workspace: workspaceOption.optional().describe("A ready tools-fs workspace (instead of root)."),
  secretPaths: z.array(z.string().min(1)).readonly().optional(),
  secretExceptions: z.array(z.string().min(1)).readonly().optional(),
  maxFileBytes: z.number().int().min(1_000).max(1_000_000_000).optional(),
};

/** Options every writing office tool factory takes. */
export interface OfficeWriteToolOptions {
  /** The directory every path is confined to (on its real path). Give this or `workspace`. */
  root?: string;
  /** A workspace from `@agentool/tools-fs`'s `createWorkspace` (shared with the file tools), instead of `root`. */
  workspace?: Workspace;
  /** Secret-path globs (with `root`): never read or written. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (with `root`). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Largest document loaded (and image embedded), in bytes. Default {@link DEFAULT_MAX_DOCUMENT_BYTES}. */
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
export function writeWorkspaceOf(
  factory: string,
  options: Pick<OfficeWriteToolOptions, "root" | "workspace" | "secretPaths" | "secretExceptions">,
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

/** The `expected_sha` input field of the office edit tools. */
export const expectedShaField = z
  .string()
  .regex(/^[0-9a-fA-F]{12,64}$/, "expected 12 to 64 hex characters (the sha a tool returned)")
  .optional()
  .describe("The file's sha (or a 12+ hex prefix) as you last saw it; refused if it changed.");

/**
 * sha-256 of bytes as lower-case hex.
 *
 * @param bytes - the bytes
 * @returns the digest
 */
export function sha256Of(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** One document loaded for editing. */
export interface LoadedDocument {
  /** The path, resolved and checked. */
  resolved: ResolvedPath;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its sha-256. */
  sha: string;
}

function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}

/**
 * The lower-case extension of a path (`""` when it has none).
 *
 * @param path - a path
 * @returns `docx`, `xlsx`, …
 */
export function documentExtension(path: string): string {
  return extensionOf(path);
}

function conflict(display: string, sha: string): ToolFailureError {
  return new ToolFailureError(
    "CONFLICT",
    `${display} changed since you read it (its sha is now ${sha.slice(0, 12)}…); nothing was written.`,
    { hint: "Read it again and redo the edit on what it holds now (or leave out expected_sha)." },
  );
}

/**
 * Loads a document to edit: confined (`INVALID_PATH`), secrets and `.git` refused (`BLOCKED`),
 * missing `FILE_NOT_FOUND`, a directory `INVALID_PATH`, over the cap `TOO_LARGE`, a stale
 * `expected_sha` `CONFLICT`. Failures are thrown as `ToolFailureError`s (`run` maps them).
 *
 * @param workspace - the workspace
 * @param path - the model's path
 * @param options - the size cap, the expected sha and the hint for a missing file
 * @returns the document's bytes and sha
 */
export async function loadDocument(
  workspace: Workspace,
  path: string,
  options: { maxFileBytes: number; expectedSha: string | undefined; missingHint: string },
): Promise<LoadedDocument> {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument: "path" });
  refuseGitPath(resolved);
  const stat = await workspace.fileSystem.stat(resolved.real);
  if (stat === undefined) {
    throw new ToolFailureError("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
      hint: options.missingHint,
    });
  }
  if (stat.type === "directory") {
    throw new ToolFailureError("INVALID_PATH", `${resolved.display} is a directory, not a file.`, {
      hint: "Name one document.",
    });
  }
  if (stat.size > options.maxFileBytes) {
    throw new ToolFailureError(
      "TOO_LARGE",
      `${resolved.display} has ${stat.size} bytes, more than the ${options.maxFileBytes} the office tools load.`,
      { hint: "Ask the user to split it, or edit it with an office application." },
    );
  }
  const bytes = await workspace.fileSystem.readFile(resolved.real);
  const sha = sha256Of(bytes);
  if (options.expectedSha !== undefined && !sha.startsWith(options.expectedSha.toLowerCase())) {
    throw conflict(resolved.display, sha);
  }
  return { resolved, bytes, sha };
}

function refuseGitPath(resolved: ResolvedPath): void {
  for (const path of [resolved.path, resolved.real]) {
    if (path.split("/").some((segment) => segment.toLowerCase() === ".git")) {
      throw new ToolFailureError(
        "BLOCKED",
        `${resolved.display} is inside git's private directory (.git); the office tools never write there.`,
        { hint: "Choose a path outside .git." },
      );
    }
  }
}

/**
 * Writes a document's new bytes over the one loaded, under the file's lock: the file must still
 * have the sha it was loaded with (else `CONFLICT`, nothing written); the write is atomic.
 *
 * @param workspace - the workspace
 * @param loaded - what {@link loadDocument} returned
 * @param bytes - the new bytes
 * @returns the new sha
 */
export async function replaceDocument(
  workspace: Workspace,
  loaded: LoadedDocument,
  bytes: Uint8Array,
): Promise<string> {
  const real = loaded.resolved.real;
  return workspace.withLock(real, async () => {
    const now = await workspace.fileSystem.stat(real);
    const current = now === undefined ? "" : await workspace.fileSystem.digest(real);
    if (current !== loaded.sha) throw conflict(loaded.resolved.display, current || "(deleted)");
    await workspace.fileSystem.writeFile(real, bytes);
    return sha256Of(bytes);
  });
}

/**
 * Creates (or, with `overwrite`, replaces) a document: confined, secrets and `.git` refused,
 * an existing file refused without `overwrite` (`FILE_ALREADY_EXISTS`), written atomically
 * under the file's lock.
 *
 * @param workspace - the workspace
 * @param path - the model's path
 * @param build - makes the bytes (called after the checks, so refusals cost nothing)
 * @param options - whether an existing file may be replaced
 * @returns the resolved path, the new sha, the old sha when one was replaced, and the size
 */
export async function createDocument(
  workspace: Workspace,
  path: string,
  build: () => Promise<Uint8Array>,
  options: { overwrite: boolean },
): Promise<{
  resolved: ResolvedPath;
  sha: string;
  previousSha: string | undefined;
  bytes: number;
}> {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument: "path" });
  refuseGitPath(resolved);
  const existing = await workspace.fileSystem.stat(resolved.real);
  if (existing?.type === "directory") {
    throw new ToolFailureError("INVALID_PATH", `${resolved.display} is a directory.`, {
      hint: "Name a file path ending in .docx, .pptx or .xlsx.",
    });
  }
  if (existing !== undefined && !options.overwrite) {
    throw new ToolFailureError("FILE_ALREADY_EXISTS", `${resolved.display} already exists.`, {
      hint: "Pass overwrite: true to replace it, or choose another path (to change part of it, edit it instead).",
    });
  }
  const bytes = await build();
  return workspace.withLock(resolved.real, async () => {
    const now = await workspace.fileSystem.stat(resolved.real);
    if (now !== undefined && !options.overwrite) {
      throw new ToolFailureError("FILE_ALREADY_EXISTS", `${resolved.display} already exists.`, {
        hint: "Pass overwrite: true to replace it, or choose another path.",
      });
    }
    const previousSha =
      now === undefined ? undefined : await workspace.fileSystem.digest(resolved.real);
    await workspace.fileSystem.writeFile(resolved.real, bytes);
    return { resolved, sha: sha256Of(bytes), previousSha, bytes: bytes.byteLength };
  });
}
