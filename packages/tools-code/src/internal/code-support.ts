import { ToolFailureError } from "@agentool/contract";
import type { ResolvedPath, Workspace } from "@agentool/tools-fs";
import {
  readWorkspaceFile,
  type WorkspaceOptionsInput,
  workspaceOptionsShape,
} from "@agentool/tools-fs/node";
import { type CodeLanguage, languageForPath } from "./tree-sitter/languages.js";

/**
 * What every code tool shares: its options (a root or a ready workspace: tools-fs's
 * `workspaceOptionsShape`), the workspace it builds (`workspaceFromOptions`), and reading one
 * source file through it (confined and secrets refused by the workspace, missing, directory and
 * oversized files by tools-fs's `readWorkspaceFile`, binary files here).
 *
 * @internal
 */

/** Default largest file a code tool reads: 8 MB (files over the 2 MB parse cap get a heuristic outline). */
export const DEFAULT_MAX_FILE_BYTES = 8_000_000;

/** Default time limit of one code tool call: 30 seconds. */
export const DEFAULT_CODE_TIMEOUT_MS = 30_000;

/** The zod shape of the options every code tool factory takes. */
export const codeToolOptionsShape = workspaceOptionsShape;

/** Options every code tool factory takes. */
export interface CodeToolOptions extends WorkspaceOptionsInput {
  /** Largest file read, in bytes. Default {@link DEFAULT_MAX_FILE_BYTES} (8 MB). */
  maxFileBytes?: number;
  /** Milliseconds before a call is stopped with `TIMEOUT` (`0`: none). Default 30,000 ({@link DEFAULT_CODE_TIMEOUT_MS}). */
  timeoutMs?: number;
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
  const { resolved, bytes } = await readWorkspaceFile(workspace, path, {
    maxFileBytes: options.maxFileBytes,
    missingHint: options.missingHint,
    directory: { code: "INVALID_INPUT", hint: "Name one source file." },
    tooLarge: {
      reader: "a code tool reads",
      hint: "Search it with a text search instead, or read it in pages.",
    },
  });
  const text = decodeSource(bytes);
  if (text === undefined) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${resolved.display} is a binary file, not source code.`,
    );
  }
  const firstLine = text.slice(0, Math.min(text.length, 200)).split("\n", 1)[0];
  return { resolved, text, language: languageForPath(resolved.path, firstLine) };
}
