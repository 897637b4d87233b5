import { createHash } from "node:crypto";
import { ToolFailureError } from "@agentool/contract";
import type { ResolvedPath, Workspace } from "@agentool/tools-fs";
import {
  readWorkspaceFile,
  type WorkspaceOptionsInput,
  workspaceOptionsShape,
} from "@agentool/tools-fs/node";
import { z } from "zod";

/**
 * What the writing office tools share: their options (tools-fs's `workspaceOptionsShape`), and
 * reading and writing one binary document through the workspace — confined, secrets and `.git`
 * refused by the workspace, the sha checked before and again under the file's lock, the bytes
 * written atomically by the workspace's file system (temporary file, flush, rename).
 *
 * tools-fs's `planChangeSet` carries text files only (it refuses binary ones), so the binary
 * documents go through the same workspace and seam here; `.ipynb` (text) goes through the change
 * set itself.
 *
 * @internal
 */

/** Default largest document a writing tool loads: 64 MB. */
export const DEFAULT_MAX_DOCUMENT_BYTES = 64_000_000;

/** The strict zod schema of the options every writing office tool factory takes. */
export const officeWriteOptionsSchema = z.object(workspaceOptionsShape).strict();

/** Options every writing office tool factory takes. */
export interface OfficeWriteToolOptions extends WorkspaceOptionsInput {
  /** Largest document loaded (and image embedded), in bytes. Default {@link DEFAULT_MAX_DOCUMENT_BYTES}. */
  maxFileBytes?: number;
  /** Milliseconds before a call is stopped with `TIMEOUT` (`0`: none). Default 60,000. */
  timeoutMs?: number;
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
  const { resolved, bytes } = await readWorkspaceFile(workspace, path, {
    maxFileBytes: options.maxFileBytes,
    missingHint: options.missingHint,
    checkResolved: refuseGitPath,
    directory: { code: "INVALID_PATH", hint: "Name one document." },
    tooLarge: {
      reader: "the office tools load",
      hint: "Ask the user to split it, or edit it with an office application.",
    },
  });
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
