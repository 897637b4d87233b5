import {
  defineTool,
  fail,
  formatTruncationMarker,
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
  applyTextEdit,
  distinctLineCount,
  listLines,
  type MatchKind,
} from "./internal/edit-match.js";
import {
  createExpectedShaField,
  encodeEditedText,
  loadEditableFile,
  recordWrite,
  spliceAsciiBytes,
  toWorkingForm,
  writeAndHash,
} from "./internal/editable-file.js";
import {
  encodingLabel,
  type LineEnding,
  SHORT_SHA_LENGTH,
  type TextEncodingName,
} from "./internal/text-codec.js";
import { workspaceOption } from "./internal/tool-support.js";
import {
  createSpliceDiff,
  createUnifiedDiff,
  DEFAULT_DIFF_CONTEXT_LINES,
  DEFAULT_MAX_DIFF_CHARACTERS,
  DEFAULT_MAX_DIFF_LINES,
} from "./internal/unified-diff.js";
import type { Workspace } from "./workspace.js";

/** The default name of the edit tool. */
export const EDIT_FILE_TOOL_NAME = "edit_file";

/** Default cap on the size of a file the edit tools load: 32 MiB. */
export const DEFAULT_MAX_EDIT_FILE_BYTES = 32 * 1_048_576;

/** Options shared by {@link createEditFileTool} and `createMultiEditTool`. */
export interface EditToolOptions {
  /** The confinement layer (from `createWorkspace`). */
  workspace: Workspace;
  /** Replaces the tool's name (snake_case). */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Names of the tools mounted beside this one: the default description and field descriptions
   * name only these (`createFsTools` passes what it mounts). Default: none.
   */
  mountedTools?: readonly string[];
  /** Largest file edited, in bytes; larger ones get `TOO_LARGE`. Default {@link DEFAULT_MAX_EDIT_FILE_BYTES} (32 MiB). */
  maxFileBytes?: number;
  /** Context lines around each change in the diff. Default 3. */
  diffContextLines?: number;
  /** Most lines of diff kept. Default 200. */
  maxDiffLines?: number;
  /** Most characters of diff kept. Default 20,000. */
  maxDiffCharacters?: number;
}

/** Options of {@link createEditFileTool}. */
export type EditFileToolOptions = EditToolOptions;

/** @internal */
export const editToolOptionsShape = {
  ...toolOverridesShape,
  workspace: workspaceOption,
  mountedTools: mountedToolsOption,
  maxFileBytes: z.number().int().min(1).max(1_073_741_824).optional(),
  diffContextLines: z.number().int().min(0).max(20).optional(),
  maxDiffLines: z.number().int().min(10).max(100_000).optional(),
  maxDiffCharacters: z.number().int().min(500).max(10_000_000).optional(),
};

const editFileOptionsSchema = z.object(editToolOptionsShape);

/** @internal */
export function oldTextDescription(mounted: MountedTools, multi: boolean): string {
  if (multi) return "Exact text to replace, as left by this call's earlier edits.";
  const source = mounted.has("read_file")
    ? "as read_file shows it, without line numbers"
    : "exactly";
  return `Exact text to replace (copied ${source}), with enough context to match one place.`;
}

function createEditFileInputSchema(mounted: MountedTools) {
  return z.object({
    path: z.string().describe("File to edit, relative to the workspace root."),
    old_text: z.string().describe(oldTextDescription(mounted, false)),
    new_text: z.string().describe("Replacement text (literal; empty deletes)."),
    replace_all: z.boolean().optional().describe("Replace every occurrence, not exactly one."),
    expected_sha: createExpectedShaField(mounted.first("read_file")),
  });
}

/** The edit tool's input schema (descriptions as when read_file is mounted). */
export const editFileInputSchema = createEditFileInputSchema(mountedTools(["read_file"]));

/** The edit tool's input. */
export type EditFileToolInput = z.output<typeof editFileInputSchema>;

/**
 * Names models trained on other toolsets send for `edit_file`'s fields, accepted silently (each
 * means exactly the field it maps to).
 */
export const EDIT_FILE_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
  target_file: "path",
  old_string: "old_text",
  new_string: "new_text",
  old_str: "old_text",
  new_str: "new_text",
});

/** What `edit_file` and `multi_edit` both report about the edited file. */
export interface EditedFileSummary {
  /** The path as shown to the model. */
  path: string;
  /** A compact unified diff of the change: its first lines when longer than the caps (see `diff_truncated`). */
  diff: string;
  /** Whether lines of the diff were left out (the edit itself was applied in full). */
  diff_truncated: boolean;
  /** Lines of the diff left out after `diff` (0 when it is whole). */
  diff_omitted_lines: number;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** sha-256 of the file before the edit. */
  previous_sha: string;
  /** sha-256 of the file after the edit (pass it as `expected_sha` to the next edit). */
  sha: string;
  /** The file's encoding (kept). */
  encoding: TextEncodingName;
  /** The file's line endings (kept). */
  line_ending: LineEnding;
}

/** What `edit_file` returns. */
export interface EditFileToolData extends EditedFileSummary {
  /** Occurrences replaced. */
  replacements: number;
  /** 1-based lines (before the edit) where each replaced occurrence started. */
  lines: number[];
  /** `exact`, or the difference that was tolerated (`line-endings`, `trailing-whitespace`). */
  match_kind: MatchKind;
  /** Whether read_file's line-number prefixes were removed from old_text (and new_text) before matching. */
  stripped_line_numbers: boolean;
}

/** The edit tool's type. */
export type EditFileTool = Tool<typeof editFileInputSchema, EditFileToolData>;

function defaultDescription(mounted: MountedTools): string {
  const read = mounted.has("read_file");
  return joinSentences(
    [
      `Replace one exact piece of text in a file (str_replace).${read ? " Read the file first with read_file." : ""} Returns a unified diff and the new sha.`,
      "PATTERN_NOT_UNIQUE lists every match (add context or set replace_all); PATTERN_NOT_FOUND shows the closest region (copy again).",
      "The file keeps its encoding, BOM and CRLF; send LF text.",
      mounted.whenAll(
        ["multi_edit", "write_file"],
        "For several changes to one file use multi_edit; to rewrite a whole file use write_file.",
      ) ||
        mounted.when("multi_edit", "For several changes to one file use multi_edit.") ||
        mounted.when("write_file", "To rewrite a whole file use write_file."),
    ],
    "\n",
  );
}

/** @internal */
export function matchNote(kind: MatchKind): string | undefined {
  if (kind === "line-endings")
    return "old_text matched only after ignoring line-ending differences (CRLF/LF).";
  if (kind === "trailing-whitespace")
    return "old_text matched only after ignoring trailing whitespace at line ends.";
  return undefined;
}

/** @internal */
export const STRIPPED_LINE_NUMBERS_NOTE =
  "old_text carried read_file's line-number prefixes, which are not part of the file; they were removed (from new_text too, where it had them) before matching.";

/** @internal */
export function formatKeptFormat(encoding: TextEncodingName, lineEnding: LineEnding): string {
  const kept: string[] = [];
  if (encoding !== "utf-8") kept.push(encodingLabel(encoding));
  if (lineEnding === "crlf") kept.push("CRLF line endings");
  return kept.length === 0 ? "" : ` Kept ${kept.join(" and ")}.`;
}

/**
 * The diff as shown, with the standard marker when lines of it were left out.
 *
 * @internal
 */
export function formatDiff(summary: EditedFileSummary, readTool: string | undefined): string {
  if (!summary.diff_truncated) return summary.diff;
  return `${summary.diff}\n${formatTruncationMarker({
    omitted: summary.diff_omitted_lines,
    unit: "lines",
    next: `the diff is cut, the edit was applied in full${readTool === undefined ? "" : `; read the changed lines with ${readTool} to check them`}`,
  })}`;
}

function formatLines(lines: number[]): string {
  return listLines(lines, 20);
}

/** How an edit result is rendered. */
export interface EditResultFormatOptions {
  /** The mounted tool that reads files (named when the diff is cut). Default `"read_file"`. */
  readTool?: string | undefined;
}

/**
 * Renders an edit for the model: a summary line, notes on a tolerant match or removed
 * line-number prefixes, the diff (with the standard marker when it is cut).
 *
 * @param data - the edit tool's result data
 * @param options - the tool that reads files, for the note of a cut diff
 * @returns model-facing text
 * @example
 * formatEditFileResult(data);
 * // "Edited src/a.ts: replaced 1 occurrence at line 12 (+1 −1 lines, sha: 0123456789ab).\n--- a/src/a.ts\n…"
 */
export function formatEditFileResult(
  data: EditFileToolData,
  options: EditResultFormatOptions = { readTool: "read_file" },
): string {
  const occurrences = `${data.replacements} occurrence${data.replacements === 1 ? "" : "s"}`;
  const where = `line${distinctLineCount(data.lines) === 1 ? "" : "s"} ${formatLines(data.lines)}`;
  const note = matchNote(data.match_kind);
  return [
    `Edited ${data.path}: replaced ${occurrences} at ${where} (+${data.added} −${data.removed} lines, sha: ${data.sha.slice(0, SHORT_SHA_LENGTH)}).${formatKeptFormat(data.encoding, data.line_ending)}`,
    ...(data.stripped_line_numbers ? [`Note: ${STRIPPED_LINE_NUMBERS_NOTE}`] : []),
    ...(note === undefined ? [] : [`Note: ${note}`]),
    formatDiff(data, options.readTool),
  ].join("\n");
}

/**
 * Creates the `edit_file` tool: str_replace semantics on one file. `old_text` must match exactly
 * once (`PATTERN_NOT_UNIQUE` lists every match's line; `PATTERN_NOT_FOUND` says when only
 * indentation or whitespace differs, or when old_text carries read_file's line-number prefixes,
 * else shows the closest region), unless `replace_all`; the replacement is literal; an empty
 * `new_text` deletes; `old_text === new_text` is refused. When the exact text is absent, a unique
 * match differing only in line endings, then only in trailing whitespace, is applied and
 * reported; so is a unique match once read_file's line-number prefixes are removed. CRLF, a BOM
 * and UTF-16 are preserved while the model works in LF text. Edits of one real path are
 * serialised, so concurrent edits never lose an update. The result carries a compact unified diff
 * and the new sha; a later `CONFLICT` names the current sha and says when it is the one this
 * edit returned. Accepts `file_path`, `old_string`, `new_string` (and `old_str`, `new_str`) as
 * aliases.
 *
 * @param options - the workspace, overrides, the mounted tools, the file-size cap and the diff caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const editFile = createEditFileTool({ workspace });
 * await editFile.run({ path: "src/a.ts", old_text: "const x = 1;", new_text: "const x = 2;" });
 * // data.diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,7 +3,7 @@\n…"
 */
export function createEditFileTool(options: EditFileToolOptions): EditFileTool {
  const parsed = parseOptions("createEditFileTool", editFileOptionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const name = parsed.name ?? EDIT_FILE_TOOL_NAME;
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_EDIT_FILE_BYTES;
  const mounted = mountedTools(parsed.mountedTools);
  const formatOptions: EditResultFormatOptions = { readTool: mounted.first("read_file") };

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input: createEditFileInputSchema(mounted),
    aliases: EDIT_FILE_ALIASES,
    annotations: { title: "Edit file", destructive: true },
    tags: ["fs:write"],
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path, { allowRoot: false });
      return workspace.withLock(resolved.real, async () => {
        const file = await loadEditableFile(fileSystem, resolved, {
          maxBytes: maxFileBytes,
          expectedSha: request.expected_sha,
        });
        const applied = applyTextEdit(
          file.working,
          {
            oldText: toWorkingForm(request.old_text, file),
            newText: toWorkingForm(request.new_text, file),
            replaceAll: request.replace_all === true,
          },
          { display: resolved.display },
        );
        if (!applied.ok) {
          return fail(applied.error.code, applied.error.message, { hint: applied.error.hint });
        }
        const { splices } = applied.value;
        // Fast paths for big files: splice ASCII bytes directly, diff a window around one change.
        const bytes = spliceAsciiBytes(file, splices) ?? encodeEditedText(applied.value.text, file);
        if (context.signal.aborted) {
          return fail("ABORTED", `${name} was cancelled before writing ${resolved.display}.`, {
            retryable: true,
          });
        }
        const diffOptions = {
          path: resolved.display,
          context: parsed.diffContextLines ?? DEFAULT_DIFF_CONTEXT_LINES,
          maxLines: parsed.maxDiffLines ?? DEFAULT_MAX_DIFF_LINES,
          maxCharacters: parsed.maxDiffCharacters ?? DEFAULT_MAX_DIFF_CHARACTERS,
        };
        const only = splices.length === 1 ? splices[0] : undefined;
        // The diff is computed while the write and the hash run off the main thread.
        const { sha, value: diff } = await writeAndHash(fileSystem, resolved.real, bytes, () =>
          only === undefined
            ? createUnifiedDiff(file.working, applied.value.text, diffOptions)
            : createSpliceDiff(file.working, only, diffOptions),
        );
        recordWrite(fileSystem, resolved.real, { sha, tool: name });
        return ok({
          path: resolved.display,
          replacements: applied.value.replacements,
          lines: applied.value.lines,
          match_kind: applied.value.matchKind,
          stripped_line_numbers: applied.value.strippedLineNumbers,
          diff: diff.text,
          diff_truncated: diff.truncated,
          diff_omitted_lines: diff.omittedLines,
          added: diff.added,
          removed: diff.removed,
          previous_sha: file.sha,
          sha,
          encoding: file.encoding,
          line_ending: file.lineEnding,
        });
      });
    },
    render: (data) => formatEditFileResult(data, formatOptions),
  });
}
