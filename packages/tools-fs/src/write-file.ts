import {
  DEFAULT_MAX_INPUT_BYTES,
  defineTool,
  fail,
  ok,
  parseOptions,
  type Tool,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { conflictError, expectedShaField, shaMatches } from "./internal/edit-engine.js";
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
import { guardFileSystem, workspaceOption } from "./internal/tool-support.js";
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
   * Cap on the JSON size of one call (so on `content`), in bytes. Default the contract's
   * `DEFAULT_MAX_INPUT_BYTES` (1 MiB).
   */
  maxInputBytes?: number;
}

const writeFileOptionsSchema = z.object({
  ...toolOverridesShape,
  workspace: workspaceOption,
  maxInputBytes: z.number().int().min(1_024).max(1_073_741_824).optional(),
});

/** The write tool's input schema. */
export const writeFileInputSchema = z.object({
  path: z
    .string()
    .describe(
      "The file to create or overwrite, relative to the workspace root. Missing parent directories are created.",
    ),
  content: z.string().describe("The complete new content of the file (not a diff)."),
  expected_sha: expectedShaField,
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
  bytesWritten: number;
  /** sha-256 of the new content, lower-case hex. */
  sha: string;
  /** The encoding written (an existing file's encoding is kept). */
  encoding: TextEncodingName;
  /** The line endings written. */
  lineEnding: LineEnding;
  /** Whether LF content was written with CRLF to match the existing file. */
  convertedToCrlf: boolean;
}

/** The write tool's type. */
export type WriteFileTool = Tool<typeof writeFileInputSchema, WriteFileToolData>;

const DEFAULT_DESCRIPTION = [
  "Create a file, or replace an existing file's whole content. Parent directories are created; the write is atomic (a reader never sees half a file) and keeps an existing file's permissions.",
  "Prefer edit_file or multi_edit to change part of an existing file: they send less and cannot drop unrelated lines.",
  "Before overwriting, read the file and pass the sha from read_file's header as expected_sha: the write then fails with CONFLICT if someone changed the file meanwhile.",
  "An existing file keeps its encoding (UTF-8 BOM, UTF-16) and, when it used CRLF and your content uses LF, CRLF line endings.",
].join("\n");

/**
 * Renders a write for the model.
 *
 * @param data - the write tool's result data
 * @returns e.g. `Created notes/todo.md (42 bytes, utf-8, sha: 0123456789ab).`
 * @example
 * formatWriteFileResult({ path: "a.md", created: true, bytesWritten: 3, sha, encoding: "utf-8", lineEnding: "none", convertedToCrlf: false });
 */
export function formatWriteFileResult(data: WriteFileToolData): string {
  const details = [`${data.bytesWritten} bytes`, encodingLabel(data.encoding)];
  if (data.convertedToCrlf) details.push("LF line endings written as CRLF to match the file");
  else if (data.lineEnding === "crlf") details.push("CRLF line endings");
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
 * // data: { path: "notes/todo.md", created: true, bytesWritten: 10, sha: "…", … }
 */
export function createWriteFileTool(options: WriteFileToolOptions): WriteFileTool {
  const parsed = parseOptions("createWriteFileTool", writeFileOptionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const name = parsed.name ?? WRITE_FILE_TOOL_NAME;

  return defineTool({
    name,
    description: parsed.description ?? DEFAULT_DESCRIPTION,
    input: writeFileInputSchema,
    annotations: { title: "Write file", destructive: true },
    tags: ["fs:write"],
    maxInputBytes: parsed.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
    execute: (request, context) =>
      guardFileSystem(async () => {
        const resolved = await workspace.resolve(request.path, { allowRoot: false });
        return workspace.withLock(resolved.real, async () => {
          const stat = await fileSystem.stat(resolved.real);
          if (stat !== undefined && stat.type !== "file") {
            return fail(
              "UNSUPPORTED",
              `${resolved.display} is ${stat.type === "directory" ? "a directory" : "not a regular file"}; ${name} writes files.`,
              { hint: "Choose a file path, e.g. one inside that directory." },
            );
          }
          if (request.expected_sha !== undefined) {
            if (stat === undefined) throw conflictError(resolved.display, undefined);
            const current = await fileSystem.digest(resolved.real);
            if (!shaMatches(request.expected_sha, current))
              throw conflictError(resolved.display, current);
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
          return ok({
            path: resolved.display,
            created: stat === undefined,
            bytesWritten: bytes.length,
            sha: await sha256Hex(bytes),
            encoding,
            lineEnding: detectLineEnding(text),
            convertedToCrlf,
          });
        });
      }),
    render: formatWriteFileResult,
  });
}
