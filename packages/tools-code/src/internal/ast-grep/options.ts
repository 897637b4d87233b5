import { AgentoolError } from "@agentool/contract";
import type { FileLister, Workspace } from "@agentool/tools-fs";
import { createRipgrepLister } from "@agentool/tools-fs/node";
import { z } from "zod";

/** The `workspace` option of the ast-grep tools (made by `createWorkspace`). */
export const workspaceOption = z.custom<Workspace>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Workspace).resolve === "function" &&
    typeof (value as Workspace).fileSystem === "object",
  { error: "expected a workspace made by createWorkspace({ fileSystem }) from @agentool/tools-fs" },
);

/** The `lister` option (a `FileLister`, e.g. `createRipgrepLister({ root })`). */
export const listerOption = z.custom<FileLister>(
  (value) =>
    typeof value === "object" && value !== null && typeof (value as FileLister).list === "function",
  {
    error:
      "expected a FileLister ({ kind, list(request, signal) }), e.g. createRipgrepLister({ root })",
  },
);

/**
 * The file lister of a tool: the one given, or ripgrep over the workspace's root on disk.
 *
 * @param factory - the factory's name, for the message
 * @param workspace - the workspace
 * @param lister - the lister option
 * @returns the lister
 * @throws AgentoolError when none is given and the workspace is not on disk
 */
export function listerFor(
  factory: string,
  workspace: Workspace,
  lister: FileLister | undefined,
): FileLister {
  if (lister !== undefined) return lister;
  if (workspace.fileSystem.kind !== "node") {
    throw new AgentoolError(
      `${factory}: the workspace's file system is "${workspace.fileSystem.kind}", not on disk; pass a lister ({ kind, list }) that lists its files.`,
    );
  }
  return createRipgrepLister({ root: workspace.fileSystem.displayRoot });
}
