import {
  DEFAULT_MAX_INPUT_BYTES,
  defineTool,
  fail,
  formatCount,
  joinSentences,
  type MountedTools,
  mountedTools,
  mountedToolsOption,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import {
  conflictError,
  createExpectedShaField,
  lastRecordedWrite,
  recordWrite,
  shaMatches,
} from "./internal/editable-file.js";
import {
  decodeText,
  detectLineEnding,
  encodeText,
  encodingLabel,
  type LineEnding,
  SHORT_SHA_LENGTH,
  sha256Hex,
  type TextEncodingName,
} from "./internal/text-codec.js";
import { directoryNotFile, workspaceOption } from "./internal/tool-support.js";
import type { Workspace } from "./workspace.js";

/** The default name of the write tool. */
export const WRITE_FILE_TOOL_NAME = "write_file";

/** How many leading bytes of an existing file are read to learn its encoding and line endings. */
export const WRITE_FILE_SNIFF_BYTES = 65_536;

/** Options of {@link createWriteFileTool}. */
export interface WriteFileToolOptions {
  /** The confinement layer (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). Default `"write_file"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Names of the tools mounted beside this one: the default description names only these
   * (`createFsTools` passes what it mounts). Default: none.
   */
  mountedTools?: readonly string[];
  /**
   * Cap on the JSON size of one call (so on `content`), in bytes. Default the contract's
   * `DEFAULT_MAX_INPUT_BYTES` (1 MiB).
   */
  maxInputBytes?: number;
}

const writeFileOptionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  mountedTools: mountedToolsOption,
  maxInputBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
});

function createWriteFileInputSchema(mounted: MountedTools) {
  return z.object({
    path: z.string().describe("File to create or overwrite, relative to the workspace root."),
    content: z.string().describe("The whole new content (not a diff)."),
    expected_sha: createExpectedShaField(mounted.first("read_file")),
  });
}

/** The write tool's input schema (descriptions as when read_file is mounted). */
export const writeFileInputSchema = createWriteFileInputSchema(mountedTools(["read_file"]));

/**
 * Names models trained on other toolsets send for `write_file`'s fields, accepted silently (each
 * means exactly the field it maps to).
 */
export const WRITE_FILE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
  target_file: "path",
  file_text: "content",
  contents: "content",
});

/** The write tool's input. */
export type WriteFileToolInput = z.output<typeof writeFileInputSchema>;

/** What `write_file` returns. */
export interface WriteFileToolData {
  /** The path as shown to the model. */
  path: string;
  /** `true` when the file did not exist before. */
  created: boolean;
  /** Bytes written (BOM included). */
  bytes_written: number;
  /** sha-256 of the new content, lower-case hex. */
  sha: string;
  /** The encoding written (an existing file's encoding is kept). */
  encoding: TextEncodingName;
  /** The line endings written. */
  line_ending: LineEnding;
  /** Whether LF content was written with CRLF to match the existing file. */
  converted_to_crlf: boolean;
}

/** The write tool's type. */
export type WriteFileTool = Tool<typeof writeFileInputSchema, WriteFileToolData>;

function defaultDescription(mounted: MountedTools): string {
  const editors = ["edit_file", "multi_edit"].filter((tool) => mounted.has(tool));
  return joinSentences(
    [
      "Create a file or replace its whole content, atomically; parent directories are created.",
      editors.length > 0 && `Prefer ${editors.join(" or ")} to change part of an existing file.`,
      mounted.has("read_file")
        ? "Before overwriting, pass the sha from read_file's header as expected_sha."
        : "Before overwriting, pass the file's sha as expected_sha.",
      "An existing file keeps its encoding and CRLF line endings.",
    ],
    "\n",
  );
}

/**
 * Renders a write for the model.
 *
 * @param data - the write tool's result data
 * @returns e.g. `Created notes/todo.md (42 bytes, utf-8, sha: 0123456789ab).`
 * @example
 * formatWriteFileResult({ path: "a.md", created: true, bytes_written: 3, sha, encoding: "utf-8", line_ending: "none", converted_to_crlf: false });
 */
export function formatWriteFileResult(data: WriteFileToolData): string {
  const details = [
    `${formatCount(data.bytes_written)} ${data.bytes_written === 1 ? "byte" : "bytes"}`,
    encodingLabel(data.encoding),
  ];
  if (data.converted_to_crlf) details.push("LF line endings written as CRLF to match the file");
  else if (data.line_ending === "crlf") details.push("CRLF line endings");
  details.push(`sha: ${data.sha.slice(0, SHORT_SHA_LENGTH)}`);
  return `${data.created ? "Created" : "Overwrote"} ${data.path} (${details.join(", ")}).`;
}

/**
 * Creates the `write_file` tool: writes a whole file atomically through the seam (temporary file
 * in the same directory, flush, rename; parents created; an existing file's mode kept). With
 * `expected_sha` the write fails with `CONFLICT` when the file changed (or was deleted) since it
 * was read. An existing file keeps its encoding and BOM, and a CRLF file stays CRLF when the
 * model sends LF text. Writes to one real path are serialised (`workspace.withLock`).
 *
 * @param options - the workspace, name/description overrides and the input cap
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const writeFile = createWriteFileTool({ workspace });
 * await writeFile.run({ path: "notes/todo.md", content: "- ship it\n" });
 * // data: { path: "notes/todo.md", created: true, bytes_written: 10, sha: "…", … }
 */
export function createWriteFileTool(options: WriteFileToolOptions): WriteFileTool {
  const parsed = parseOptions("createWriteFileTool", writeFileOptionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const name = parsed.name ?? WRITE_FILE_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: createWriteFileInputSchema(mounted),
    aliases: WRITE_FILE_ALIASES,
    annotations: { title: "Write file", destructive: true },
    tags: ["fs:write"],
    maxInputBytes: parsed.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path, { allowRoot: false });
      return workspace.withLock(resolved.real, async () => {
        const stat = await fileSystem.stat(resolved.real);
        if (stat?.type === "directory") {
          return directoryNotFile(resolved.display, `${name} writes files`);
        }
        if (stat !== undefined && stat.type !== "file") {
          return fail(
            "UNSUPPORTED",
            `${resolved.display} is not a regular file (a device, socket or pipe); ${name} writes files.`,
            { hint: "Choose another file path." },
          );
        }
        if (request.expected_sha !== undefined) {
          if (stat === undefined) throw conflictError(resolved.display, undefined);
          const current = await fileSystem.digest(resolved.real);
          if (!shaMatches(request.expected_sha, current))
            throw conflictError(
              resolved.display,
              current,
              lastRecordedWrite(fileSystem, resolved.real),
            );
        }
        let encoding: TextEncodingName = "utf-8";
        let existingEnding: LineEnding = "none";
        if (stat !== undefined && stat.size > 0) {
          const reader = await fileSystem.openReader(resolved.real);
          let head: Uint8Array;
          try {
            head = await reader.read(0, Math.min(reader.size, WRITE_FILE_SNIFF_BYTES));
          } finally {
            await reader.close();
          }
          const decoded = decodeText(head);
          if (decoded !== undefined) {
            encoding = decoded.encoding;
            existingEnding = decoded.lineEnding;
          }
        }
        let text = request.content;
        if (encoding !== "utf-8" && text.startsWith("\uFEFF")) text = text.slice(1);
        const convertedToCrlf =
          existingEnding === "crlf" && text.includes("\n") && !text.includes("\r\n");
        if (convertedToCrlf) text = text.replace(/\n/g, "\r\n");
        const bytes = encodeText(text, encoding);
        if (context.signal.aborted) {
          return fail("ABORTED", `${name} was cancelled before writing ${resolved.display}.`, {
            retryable: true,
          });
        }
        await fileSystem.writeFile(resolved.real, bytes);
        const sha = await sha256Hex(bytes);
        recordWrite(fileSystem, resolved.real, { sha, tool: name });
        return ok({
          path: resolved.display,
          created: stat === undefined,
          bytes_written: bytes.length,
          sha,
          encoding,
          line_ending: detectLineEnding(text),
          converted_to_crlf: convertedToCrlf,
        });
      });
    },
    render: formatWriteFileResult,
  });
}
