import {
  defineTool,
  joinSentences,
  mountedTools,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import { z } from "zod";
import { type WorkspaceToolOptions, workspaceToolOptionsShape } from "./internal/tool-support.js";
import { formatTransfer, TRANSFER_ALIASES, type TransferData, transferEntry } from "./move-file.js";

/** The default name of the copying tool. */
export const COPY_FILE_TOOL_NAME = "copy_file";

/** Options of {@link createCopyFileTool}. */
export type CopyFileToolOptions = WorkspaceToolOptions;

const optionsSchema = z.object(workspaceToolOptionsShape);

/** The input schema of `copy_file`. */
export const copyFileInputSchema = z.object({
  source: z.string().describe("File or directory to copy, relative to the workspace root."),
  destination: z.string().describe("Full path of the copy, name included (e.g. 'backup/a.yaml')."),
  overwrite: z
    .boolean()
    .optional()
    .describe("Replace an existing file (never a directory) at destination."),
});

/** The input of `copy_file`. */
export type CopyFileInput = z.output<typeof copyFileInputSchema>;

/** What `copy_file` returns. */
export type CopyFileToolData = TransferData;

/** The `copy_file` tool's type. */
export type CopyFileTool = Tool<typeof copyFileInputSchema, CopyFileToolData>;

function description(mounted: ReturnType<typeof mountedTools>): string {
  return joinSentences(
    [
      "Copy a file or a whole directory; missing parents are created.",
      "An existing destination fails FILE_ALREADY_EXISTS unless overwrite is true. Directories holding secret files are refused.",
      mounted.when("move_file", "To rename or move instead, use move_file."),
    ],
    "\n",
  );
}

/**
 * Creates the `copy_file` tool: copy a file or a directory tree, confined to the workspace on
 * both ends (a symlinked source is copied from its real target, which must be inside).
 * `FILE_ALREADY_EXISTS` unless `overwrite`; parents created; never into itself.
 *
 * @param options - the workspace and name/description overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const copyFile = createCopyFileTool({ workspace });
 * await copyFile.run({ source: "templates/page.md", destination: "docs/new-page.md" });
 */
export function createCopyFileTool(options: CopyFileToolOptions): CopyFileTool {
  const parsed = parseOptions("createCopyFileTool", optionsSchema, options);
  const workspace = parsed.workspace;
  return defineTool({
    name: parsed.name ?? COPY_FILE_TOOL_NAME,
    description: parsed.description ?? description(mountedTools(parsed.mountedTools)),
    input: copyFileInputSchema,
    aliases: TRANSFER_ALIASES,
    // Destructive only with overwrite, but annotations are static: hosts may ask before a copy.
    annotations: { title: "Copy file", destructive: true, idempotent: false },
    tags: ["fs:write"],
    execute: (request, context) =>
      transferEntry(workspace, {
        operation: "copy",
        source: request.source,
        destination: request.destination,
        overwrite: request.overwrite === true,
        signal: context.signal,
      }),
    render: (data) => formatTransfer(data, "Copied"),
  });
}
