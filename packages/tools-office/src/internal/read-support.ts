import type { Workspace } from "@agentool/tools-fs";
import {
  checkWorkspaceFile,
  readWorkspaceFile,
  type WorkspaceFile,
  type WorkspaceOptionsInput,
  workspaceOptionsShape,
} from "@agentool/tools-fs/node";
import { z } from "zod";

/**
 * What the reading tools share: their options (tools-fs's `workspaceOptionsShape`, with a larger
 * cap) and reading one file through the workspace (tools-fs's `readWorkspaceFile`: confined,
 * secrets and `.git` refused by the workspace; missing, directory and oversized files refused
 * in the reading tools' words).
 *
 * @internal
 */

/** Default largest file the reading tools open: 100 MB. */
export const DEFAULT_MAX_READ_BYTES = 100_000_000;

/** Default ceiling on the memory reading one PDF may grow the process by: 512 MB. */
export const DEFAULT_MAX_PDF_MEMORY_BYTES = 512_000_000;

/** The zod shape of the options every reading tool factory takes. */
export const officeReadOptionsShape = {
  ...workspaceOptionsShape,
  maxFileBytes: z.number().int().min(1_000).max(2_000_000_000).optional(),
};

/** Options every reading tool factory takes. */
export interface OfficeReadToolOptions extends WorkspaceOptionsInput {
  /** Secret-path globs (with `root`): never read. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Largest file opened, in bytes. Default {@link DEFAULT_MAX_READ_BYTES} (100 MB). */
  maxFileBytes?: number;
  /** Milliseconds before a call is stopped with `TIMEOUT` (`0`: none). Default 60,000. */
  timeoutMs?: number;
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
export function readDocumentFile(
  workspace: Workspace,
  path: string,
  options: { maxFileBytes: number; missingHint: string },
): Promise<WorkspaceFile> {
  return readWorkspaceFile(workspace, path, documentFileRefusals(options));
}

/**
 * {@link readDocumentFile}'s checks without reading the bytes (a cached conversion needs none).
 *
 * @param workspace - the workspace
 * @param path - the model's path
 * @param options - the size cap and the hints
 * @returns the file's resolved path and stat
 */
export function checkDocumentFile(
  workspace: Workspace,
  path: string,
  options: { maxFileBytes: number; missingHint: string },
): Promise<Omit<WorkspaceFile, "bytes">> {
  return checkWorkspaceFile(workspace, path, documentFileRefusals(options));
}

function documentFileRefusals(options: { maxFileBytes: number; missingHint: string }) {
  return {
    ...options,
    directory: { code: "INVALID_INPUT" as const, hint: "Name one document file." },
    tooLarge: {
      reader: "this tool opens",
      hint: "Ask the user for a smaller file, or to split it.",
    },
  };
}

/** The lower-case extension of a path, without the dot (`""` when none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase();
}
