import { type AnyTool, parseOptions } from "@agentool/contract";
import { workspaceFromOptions } from "@agentool/tools-fs/node";
import { z } from "zod";
import { createEditDocumentTool } from "./edit-document.js";
import { createEditNotebookTool } from "./edit-notebook.js";
import { createEditSheetTool } from "./edit-sheet.js";
import { officeReadOptionsShape } from "./internal/read-support.js";
import { createReadDocumentTool } from "./read-document.js";
import { createReadImageTool } from "./read-image.js";
import { createWriteDocumentTool } from "./write-document.js";

/** What the office tools may do: only read, or also write and edit documents. */
export type OfficeToolsMode = "read-only" | "read-write";

/** Options of {@link createOfficeTools}. */
export interface OfficeToolsOptions {
  /** The directory every path is confined to (required unless `workspace` is given). */
  root?: string;
  /** A workspace from `@agentool/tools-fs`'s `createWorkspace`, shared with the file tools. */
  workspace?: import("@agentool/tools-fs").Workspace;
  /** `"read-only"` (default): `read_document`, `read_image`. `"read-write"` adds the writing and editing tools. */
  mode?: OfficeToolsMode;
  /** Secret-path globs (with `root`). Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (with `root`). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Largest file opened, in bytes. Default 100 MB. */
  maxFileBytes?: number;
  /** Per-call time limit in milliseconds (`0`: none). Default 60,000. */
  timeoutMs?: number;
  /** Tools of other families mounted beside these (e.g. `["read_file", "glob_search"]`); descriptions may name them. */
  mountedTools?: readonly string[];
}

/** The tools every mode mounts. */
export const OFFICE_READ_TOOL_NAMES: readonly string[] = ["read_document", "read_image"];

/** The tools only `mode: "read-write"` adds. */
export const OFFICE_WRITE_TOOL_NAMES: readonly string[] = [
  "write_document",
  "edit_document",
  "edit_sheet",
  "edit_notebook",
];

const { name: _name, description: _description, ...sharedShape } = officeReadOptionsShape;

const officeToolsOptionsSchema = z
  .object({ ...sharedShape, mode: z.enum(["read-only", "read-write"]).optional() })
  .strict();

/**
 * Creates the office tools for one workspace: `read_document` and `read_image` always, the
 * writing and editing tools in `mode: "read-write"`. One workspace (confinement, secrets, `.git`
 * refusal, write locks) is shared by all of them — pass the file tools' own `workspace` to share
 * it with them too.
 *
 * @param options - the root (or workspace), the mode and caps
 * @returns the tools, ready for an adapter
 * @throws AgentoolError when the options are invalid
 * @example
 * import { toLangChainTools } from "@agentool/adapters/langchain";
 * const tools = toLangChainTools(createOfficeTools({ root: "/work/docs" }));
 */
export function createOfficeTools(options: OfficeToolsOptions): AnyTool[] {
  const parsed = parseOptions("createOfficeTools", officeToolsOptionsSchema, options);
  const {
    mode,
    root: _root,
    secretPaths: _secrets,
    secretExceptions: _exceptions,
    ...rest
  } = parsed;
  const readWrite = mode === "read-write";
  const workspace = workspaceFromOptions("createOfficeTools", parsed);
  const names = [...OFFICE_READ_TOOL_NAMES, ...(readWrite ? OFFICE_WRITE_TOOL_NAMES : [])];
  // Every tool shares the one workspace (and its write locks).
  const common = { ...rest, workspace, mountedTools: [...(rest.mountedTools ?? []), ...names] };
  const tools: AnyTool[] = [createReadDocumentTool(common), createReadImageTool(common)];
  if (readWrite) {
    tools.push(
      createWriteDocumentTool(common),
      createEditDocumentTool(common),
      createEditSheetTool(common),
      createEditNotebookTool(common),
    );
  }
  return tools;
}
