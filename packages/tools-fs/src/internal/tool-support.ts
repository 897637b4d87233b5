import { fail, type ToolResult, toolOverridesShape } from "@agentool/contract";
import { z } from "zod";
import { FileSystemError } from "../file-system.js";
import type { Workspace } from "../workspace.js";

/**
 * Runs a tool's work and turns a {@link FileSystemError} into the matching failure envelope;
 * anything else is rethrown (the contract's `run` maps it to `INTERNAL`).
 *
 * @internal
 */
export async function guardFileSystem<T>(
  work: () => Promise<ToolResult<T>>,
): Promise<ToolResult<T>> {
  try {
    return await work();
  } catch (error) {
    if (FileSystemError.isInstance(error)) {
      return fail(error.code, error.message, error.hint === undefined ? {} : { hint: error.hint });
    }
    throw error;
  }
}

function isWorkspace(value: unknown): value is Workspace {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Workspace).resolve === "function" &&
    typeof (value as Workspace).fileSystem === "object"
  );
}

/**
 * The `workspace` option every file tool factory takes (made by `createWorkspace`).
 *
 * @internal
 */
export const workspaceOption = z.custom<Workspace>(isWorkspace, {
  error: "expected a workspace made by createWorkspace({ fileSystem })",
});

/**
 * What every file tool factory takes: the workspace and the name/description overrides.
 *
 * @internal
 */
export interface WorkspaceToolOptions {
  /** The confined workspace (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

/**
 * The zod shape of {@link WorkspaceToolOptions}, for a factory's strict `parseOptions` schema.
 *
 * @internal
 */
export const workspaceToolOptionsShape = { ...toolOverridesShape, workspace: workspaceOption };
