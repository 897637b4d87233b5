import { ToolFailureError } from "@agentool/contract";
import type { FileStat } from "../file-system.js";
import type { ResolvedPath, Workspace } from "../workspace.js";

/** One workspace file, read whole by {@link readWorkspaceFile}. */
export interface WorkspaceFile {
  /** The path, resolved and checked. */
  resolved: ResolvedPath;
  /** Its bytes. */
  bytes: Uint8Array;
  /** Its stat (size, modification time, identity: a cache key). */
  stat: FileStat;
}

/** Options of {@link readWorkspaceFile}: the cap and how each refusal reads. */
export interface ReadWorkspaceFileOptions {
  /** Largest file read, in bytes; a larger one is refused `TOO_LARGE` before it is read. */
  maxFileBytes: number;
  /** The hint of the `FILE_NOT_FOUND` refusal. Default: check the path. */
  missingHint?: string;
  /** The code and hint of the refusal of a directory. Default `INVALID_PATH`, "Name one file.". */
  directory?: { code: "INVALID_INPUT" | "INVALID_PATH"; hint: string };
  /**
   * How the `TOO_LARGE` refusal ends — `… more than the 8000000 ${reader}.` — and its hint.
   * Default `this tool reads`, "Ask the user for a smaller file.".
   */
  tooLarge?: { reader: string; hint: string };
  /** Checks the resolved path before anything is read (throw a `ToolFailureError` to refuse it). */
  checkResolved?: (resolved: ResolvedPath) => void;
}

/**
 * Reads one file a model named, whole: confined by the workspace (escapes `INVALID_PATH`,
 * secrets `BLOCKED`), missing `FILE_NOT_FOUND`, a directory refused (`INVALID_PATH` or
 * `INVALID_INPUT`), past `maxFileBytes` `TOO_LARGE` (before a byte is read); FIFOs, devices and
 * sockets are refused by the seam (the Node seam opens them without blocking and refuses them).
 * Failures are thrown as `ToolFailureError`s, which a tool's `run` maps to its result. Decoding
 * (text, binary detection) is the caller's: this hands back bytes.
 *
 * @param workspace - the workspace
 * @param path - the model's path (the `path` argument; the root itself is refused)
 * @param options - the size cap and the refusals' wording
 * @returns the file's resolved path, bytes and stat
 * @throws ToolFailureError for each refusal above
 * @example
 * const workspace = workspaceFromOptions("createMyTool", { root: "/work/repo" });
 * const file = await readWorkspaceFile(workspace, "src/index.ts", {
 *   maxFileBytes: 8_000_000,
 *   missingHint: "Find it with glob_search.",
 * });
 * file.bytes.byteLength; // the size, at most 8 MB
 */
export async function readWorkspaceFile(
  workspace: Workspace,
  path: string,
  options: ReadWorkspaceFileOptions,
): Promise<WorkspaceFile> {
  const { resolved, stat } = await checkWorkspaceFile(workspace, path, options);
  return { resolved, bytes: await workspace.fileSystem.readFile(resolved.real), stat };
}

/**
 * Everything {@link readWorkspaceFile} checks, without reading the bytes: for a caller that may
 * not need them (a conversion cached under the file's stat).
 *
 * @param workspace - the workspace
 * @param path - the model's path (the root itself is refused)
 * @param options - the size cap and the refusals' wording
 * @returns the file's resolved path and stat
 * @throws ToolFailureError for each refusal of {@link readWorkspaceFile}
 * @example
 * const { resolved, stat } = await checkWorkspaceFile(workspace, "report.docx", { maxFileBytes: 1e8 });
 * const bytes = cached ?? (await workspace.fileSystem.readFile(resolved.real));
 */
export async function checkWorkspaceFile(
  workspace: Workspace,
  path: string,
  options: ReadWorkspaceFileOptions,
): Promise<Omit<WorkspaceFile, "bytes">> {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument: "path" });
  options.checkResolved?.(resolved);
  const stat = await workspace.fileSystem.stat(resolved.real);
  if (stat === undefined) {
    throw new ToolFailureError("FILE_NOT_FOUND", `${resolved.display} does not exist.`, {
      hint: options.missingHint ?? "Check the path.",
    });
  }
  if (stat.type === "directory") {
    const directory = options.directory ?? { code: "INVALID_PATH", hint: "Name one file." };
    throw new ToolFailureError(directory.code, `${resolved.display} is a directory, not a file.`, {
      hint: directory.hint,
    });
  }
  if (stat.size > options.maxFileBytes) {
    const tooLarge = options.tooLarge ?? {
      reader: "this tool reads",
      hint: "Ask the user for a smaller file.",
    };
    throw new ToolFailureError(
      "TOO_LARGE",
      `${resolved.display} has ${stat.size} bytes, more than the ${options.maxFileBytes} ${tooLarge.reader}.`,
      { hint: tooLarge.hint },
    );
  }
  return { resolved, stat };
}
