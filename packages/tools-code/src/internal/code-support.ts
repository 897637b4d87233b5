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
import { type CodeLanguage, languageForPath } from "./tree-sitter/languages.js";

/**
 * What every code tool shares: its options (a root or a ready workspace), the workspace it
 * builds, and reading one source file through it (confined and secrets refused by the workspace,
 * binary and oversized files refused here).
 *
 * @internal
 */

/** Default largest file a code tool reads: 8 MB (files over the 2 MB parse cap get a heuristic outline). */
export const DEFAULT_MAX_FILE_BYTES = 8_000_000;

/** Default time limit of one code tool call: 30 seconds. */
export const DEFAULT_CODE_TIMEOUT_MS = 30_000;

const workspaceOption = z.custom<Workspace>(
  (value) =>
    typeof value === "object" &&
    value !== null &&
    typeof (value as Workspace).resolve === "function" &&
    typeof (value as Workspace).fileSystem === "object",
  { error: "expected a workspace made by createWorkspace({ fileSystem }) from @agentool/tools-fs" },
);

/** The zod shape of the options every code tool factory takes. */
export const codeToolOptionsShape = {
  ...toolOptionsShape,
  root: z.string().min(1).optional().describe("The directory every path is confined to."),
  workspace: workspaceOption.optional().describe("A ready tools-fs workspace (instead of root)."),
  secretPaths: z.array(z.string().min(1)).readonly().optional(),
  secretExceptions: z.array(z.string().min(1)).readonly().optional(),
  maxFileBytes: z.number().int().min(1_000).max(1_000_000_000).optional(),
};

/** Options every code tool factory takes. */
export interface CodeToolOptions {
  /** The directory every path is confined to (on its real path). Give this or `workspace`. */
  root?: string;
  /** A workspace from `@agentool/tools-fs`'s `createWorkspace` (shared with the file tools), instead of `root`. */
  workspace?: Workspace;
  /** Secret-path globs (with `root`): never read. Default: the contract's `DEFAULT_SECRET_PATHS`. */
  secretPaths?: readonly string[];
  /** Globs excepted from `secretPaths` (with `root`). Default: `DEFAULT_SECRET_EXCEPTIONS`. */
  secretExceptions?: readonly string[];
  /** Largest file read, in bytes. Default {@link DEFAULT_MAX_FILE_BYTES} (8 MB). */
  maxFileBytes?: number;
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /** Names of the tools mounted beside this one; descriptions and hints name only these. */
  mountedTools?: readonly string[];
  /** Milliseconds before a call is stopped with `TIMEOUT` (`0`: none). Default 30,000 ({@link DEFAULT_CODE_TIMEOUT_MS}). */
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
export function workspaceOf(
  factory: string,
  options: Pick<CodeToolOptions, "root" | "workspace" | "secretPaths" | "secretExceptions">,
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

/** One source file, read. */
export interface SourceFile {
  /** The path, resolved and checked. */
  resolved: ResolvedPath;
  /** Its text (UTF-8 decoded, BOM removed). */
  text: string;
  /** Its language, when the name or shebang tells. */
  language: CodeLanguage | undefined;
}

const decoder = new TextDecoder("utf-8");

/**
 * Decodes a file's bytes as source text, or tells that they are binary.
 *
 * @param bytes - the file's bytes
 * @returns the text (BOM removed), or `undefined` for binary content (a NUL in the first 8 KB)
 */
export function decodeSource(bytes: Uint8Array): string | undefined {
  if (bytes.subarray(0, 8_000).includes(0)) return undefined;
  const text = decoder.decode(bytes);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads one file a model named: confined by the workspace (escapes `INVALID_PATH`, secrets
 * `BLOCKED`; `.git` is read like any folder, as read_file does — writes there are refused by
 * the change set), missing `FILE_NOT_FOUND`, a directory `INVALID_INPUT`, binary `UNSUPPORTED`,
 * past `maxFileBytes` `TOO_LARGE`. Failures are thrown as `ToolFailureError`s (`run` maps them).
 *
 * @param workspace - the workspace
 * @param path - the model's path
 * @param options - the size cap and the hint for a missing file
 * @returns the file
 */
export async function readSourceFile(
  workspace: Workspace,
  path: string,
  options: { maxFileBytes: number; missingHint: string },
): Promise<SourceFile> {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument: "path" });
  const stat = await workspace.fileSystem.stat(resolved.real);
  if (stat === undefined) {
    throw new ToolFailureError("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
      hint: options.missingHint,
    });
  }
  if (stat.type === "directory") {
    throw new ToolFailureError("INVALID_INPUT", `${resolved.display} is a directory, not a file.`, {
      hint: "Name one source file.",
    });
  }
  if (stat.size > options.maxFileBytes) {
    throw new ToolFailureError(
      "TOO_LARGE",
      `${resolved.display} has ${stat.size} bytes, more than the ${options.maxFileBytes} a code tool reads.`,
      { hint: "Search it with a text search instead, or read it in pages." },
    );
  }
  const text = decodeSource(await workspace.fileSystem.readFile(resolved.real));
  if (text === undefined) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${resolved.display} is a binary file, not source code.`,
    );
  }
  const firstLine = text.slice(0, Math.min(text.length, 200)).split("\n", 1)[0];
  return { resolved, text, language: languageForPath(resolved.path, firstLine) };
}
