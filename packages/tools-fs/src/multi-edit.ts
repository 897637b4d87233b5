import {
  defineTool,
  fail,
  joinSentences,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
} from "@agentool/contract";
import { z } from "zod";
import {
  DEFAULT_MAX_EDIT_FILE_BYTES,
  type EditedFileSummary,
  type EditResultFormatOptions,
  type EditToolOptions,
  editToolOptionsShape,
  formatDiff,
  formatKeptFormat,
  matchNote,
  oldTextDescription,
  STRIPPED_LINE_NUMBERS_NOTE,
} from "./edit-file.js";
import { applyTextEdit, type MatchKind } from "./internal/edit-match.js";
import {
  createExpectedShaField,
  encodeEditedText,
  loadEditableFile,
  recordWrite,
  toWorkingForm,
  writeAndHash,
} from "./internal/editable-file.js";
import { SHORT_SHA_LENGTH, sha256Hex } from "./internal/text-codec.js";
import {
  createUnifiedDiff,
  DEFAULT_DIFF_CONTEXT_LINES,
  DEFAULT_MAX_DIFF_CHARACTERS,
  DEFAULT_MAX_DIFF_LINES,
} from "./internal/unified-diff.js";

/** The default name of the multi-edit tool. */
export const MULTI_EDIT_TOOL_NAME = "multi_edit";

/** Default cap on the edits of one call. */
export const DEFAULT_MAX_EDITS = 50;

/** Options of {@link createMultiEditTool}. */
export interface MultiEditToolOptions extends EditToolOptions {
  /** Most edits in one call. Default {@link DEFAULT_MAX_EDITS} (50). */
  maxEdits?: number;
}

const multiEditOptionsSchema = z.object({
  ...editToolOptionsShape,
  maxEdits: z.number().int().min(1).max(1_000).optional(),
});

function createMultiEditInputSchema(maxEdits: number, mounted: MountedTools) {
  return z.object({
    path: z.string().describe("File to edit, relative to the workspace root."),
    edits: z
      .array(
        z
          .object({
            old_text: z.string().describe(oldTextDescription(mounted, true)),
            new_text: z.string().describe("Replacement text (literal; empty deletes)."),
            replace_all: z
              .boolean()
              .optional()
              .describe("Replace every occurrence, not exactly one."),
          })
          .strict(),
      )
      .min(1)
      .max(maxEdits)
      .describe("Replacements, applied in order."),
    dry_run: z.boolean().optional().describe("Return the diff without writing."),
    expected_sha: createExpectedShaField(mounted.first("read_file")),
  });
}

/** The multi-edit tool's input schema (with the default edit cap; descriptions as when read_file is mounted). */
export const multiEditInputSchema = createMultiEditInputSchema(
  DEFAULT_MAX_EDITS,
  mountedTools(["read_file"]),
);

/**
 * Names models trained on other toolsets send for `multi_edit`'s fields, accepted silently:
 * `file_path` / `target_file` for `path`, and inside each of `edits` the names `edit_file`
 * accepts at its top level (`old_string` / `new_string`, `old_str` / `new_str`).
 */
export const MULTI_EDIT_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  file_path: "path",
  target_file: "path",
  "edits[].old_string": "old_text",
  "edits[].new_string": "new_text",
  "edits[].old_str": "old_text",
  "edits[].new_str": "new_text",
});

/** The multi-edit tool's input. */
export type MultiEditToolInput = z.output<typeof multiEditInputSchema>;

/** What one edit of a `multi_edit` call did. */
export interface MultiEditOutcome {
  /** The edit's index in `edits`. */
  index: number;
  /** Occurrences replaced. */
  replacements: number;
  /** 1-based lines (in the text this edit saw) where each replaced occurrence started. */
  lines: number[];
  /** `exact`, or the difference that was tolerated. */
  match_kind: MatchKind;
  /** Whether read_file's line-number prefixes were removed from this edit's texts before matching. */
  stripped_line_numbers: boolean;
}

/** What `multi_edit` returns (`diff`, `added`, `removed` cover all the edits together; for a dry run `sha` is what the file would be). */
export interface MultiEditToolData extends EditedFileSummary {
  /** Whether this was a dry run (nothing written). */
  dry_run: boolean;
  /** Whether the file was written (false for a dry run or when the edits changed nothing overall). */
  written: boolean;
  /** Each edit's outcome, in order. */
  edits: MultiEditOutcome[];
}

/** The multi-edit tool's type. */
export type MultiEditTool = Tool<typeof multiEditInputSchema, MultiEditToolData>;

function defaultDescription(maxEdits: number, mounted: MountedTools): string {
  const read = mounted.has("read_file");
  return joinSentences(
    [
      `Make up to ${maxEdits} str_replace edits to one file atomically, each on the text left by the previous ones; if any fails, nothing is written and the error names edits[i].`,
      `Each old_text must match exactly once (or set replace_all); copy it exactly${read ? " from read_file without line numbers" : ""}.`,
      `The file keeps its encoding, BOM and CRLF; send LF text.${mounted.when("edit_file", " For a single change use edit_file.")}`,
    ],
    "\n",
  );
}

/**
 * What follows a failing edit's message: the edits that applied before it (one is `edits[0]`, more
 * a range) and that nothing was written — on a line of its own when the message ends with a
 * quoted excerpt of the file, so it is not read as a line of the file.
 */
function failureTail(index: number, message: string): string {
  const earlier =
    index === 0
      ? ""
      : index === 1
        ? "(edits[0] applied cleanly before it; edits[1] sees its result) "
        : `(edits[0]–edits[${index - 1}] applied cleanly before it; edits[${index}] sees their result) `;
  return `${message.includes("\n") ? "\n" : " "}${earlier}Nothing was written.`;
}

/**
 * Renders a multi-edit for the model: a summary, notes on tolerant matches and removed
 * line-number prefixes, the diff (with the standard marker when it is cut).
 *
 * @param data - the multi-edit tool's result data
 * @param options - the tool that reads files, for the note of a cut diff
 * @returns model-facing text
 * @example
 * formatMultiEditResult(data); // "Edited src/a.ts: 3 edits, 4 replacements (+4 −4 lines, sha: …).\n--- a/src/a.ts …"
 */
export function formatMultiEditResult(
  data: MultiEditToolData,
  options: EditResultFormatOptions = { readTool: "read_file" },
): string {
  const replacements = data.edits.reduce((sum, edit) => sum + edit.replacements, 0);
  const counts = `${data.edits.length} edit${data.edits.length === 1 ? "" : "s"}, ${replacements} replacement${replacements === 1 ? "" : "s"}`;
  const short = data.sha.slice(0, SHORT_SHA_LENGTH);
  let summary: string;
  if (data.dry_run) {
    summary = `Dry run on ${data.path}: ${counts} would apply (+${data.added} −${data.removed} lines, new sha would be ${short}). Nothing was written; call again without dry_run to apply.`;
  } else if (!data.written) {
    summary = `${data.path} is unchanged: the ${counts} cancel out, so nothing was written (sha: ${short}).`;
  } else {
    summary = `Edited ${data.path}: ${counts} (+${data.added} −${data.removed} lines, sha: ${short}).${formatKeptFormat(data.encoding, data.line_ending)}`;
  }
  const notes = data.edits.flatMap((edit) => {
    const note = matchNote(edit.match_kind);
    return [
      ...(edit.stripped_line_numbers
        ? [`Note: edits[${edit.index}]: ${STRIPPED_LINE_NUMBERS_NOTE}`]
        : []),
      ...(note === undefined ? [] : [`Note: edits[${edit.index}]: ${note}`]),
    ];
  });
  return [
    summary,
    ...notes,
    ...(data.diff.length > 0 ? [formatDiff(data, options.readTool)] : []),
  ].join("\n");
}

/**
 * Creates the `multi_edit` tool: several str_replace edits to one file, applied in order in
 * memory and written once — all or nothing (a failing edit names its index and nothing is
 * written). `dry_run` returns the diff without writing. Matching, encoding, BOM and CRLF rules
 * are those of `edit_file`; writes to one real path are serialised.
 *
 * @param options - the workspace, overrides, caps on edits, file size and diff
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const multiEdit = createMultiEditTool({ workspace });
 * await multiEdit.run({
 *   path: "src/a.ts",
 *   edits: [
 *     { old_text: "oldName(", new_text: "newName(", replace_all: true },
 *     { old_text: "// TODO: rename\n", new_text: "" },
 *   ],
 * });
 */
export function createMultiEditTool(options: MultiEditToolOptions): MultiEditTool {
  const parsed = parseOptions("createMultiEditTool", multiEditOptionsSchema, options);
  const workspace = parsed.workspace;
  const fileSystem = workspace.fileSystem;
  const name = parsed.name ?? MULTI_EDIT_TOOL_NAME;
  const maxEdits = parsed.maxEdits ?? DEFAULT_MAX_EDITS;
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_MAX_EDIT_FILE_BYTES;
  const mounted = mountedTools(parsed.mountedTools);
  const formatOptions: EditResultFormatOptions = { readTool: mounted.first("read_file") };

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(maxEdits, mounted),
    input: createMultiEditInputSchema(maxEdits, mounted),
    aliases: MULTI_EDIT_ALIASES,
    annotations: { title: "Edit file (several edits)", destructive: true },
    tags: ["fs:write"],
    execute: async (request, context) => {
      const resolved = await workspace.resolve(request.path, { allowRoot: false });
      return workspace.withLock(resolved.real, async () => {
        const file = await loadEditableFile(fileSystem, resolved, {
          maxBytes: maxFileBytes,
          expectedSha: request.expected_sha,
        });
        let text = file.working;
        const outcomes: MultiEditOutcome[] = [];
        for (const [index, edit] of request.edits.entries()) {
          if (context.signal.aborted) {
            return fail("ABORTED", `${name} was cancelled; nothing was written.`, {
              retryable: true,
            });
          }
          const applied = applyTextEdit(
            text,
            {
              oldText: toWorkingForm(edit.old_text, file),
              newText: toWorkingForm(edit.new_text, file),
              replaceAll: edit.replace_all === true,
            },
            { display: resolved.display, label: `edits[${index}]: ` },
          );
          if (!applied.ok) {
            return fail(
              applied.error.code,
              `${applied.error.message}${failureTail(index, applied.error.message)}`,
              {
                hint: `Fix edits[${index}] and send the whole list again. ${applied.error.hint}`,
              },
            );
          }
          text = applied.value.text;
          outcomes.push({
            index,
            replacements: applied.value.replacements,
            lines: applied.value.lines,
            match_kind: applied.value.matchKind,
            stripped_line_numbers: applied.value.strippedLineNumbers,
          });
        }
        const changed = text !== file.working;
        const dryRun = request.dry_run === true;
        const bytes = changed ? encodeEditedText(text, file) : file.bytes;
        const diffOf = () =>
          createUnifiedDiff(file.working, text, {
            path: resolved.display,
            context: parsed.diffContextLines ?? DEFAULT_DIFF_CONTEXT_LINES,
            maxLines: parsed.maxDiffLines ?? DEFAULT_MAX_DIFF_LINES,
            maxCharacters: parsed.maxDiffCharacters ?? DEFAULT_MAX_DIFF_CHARACTERS,
          });
        let sha = file.sha;
        let diff: ReturnType<typeof diffOf>;
        if (!dryRun && changed) {
          if (context.signal.aborted) {
            return fail("ABORTED", `${name} was cancelled; nothing was written.`, {
              retryable: true,
            });
          }
          ({ sha, value: diff } = await writeAndHash(fileSystem, resolved.real, bytes, diffOf));
          recordWrite(fileSystem, resolved.real, { sha, tool: name });
        } else {
          diff = diffOf();
          if (changed) sha = await sha256Hex(bytes);
        }
        return ok({
          path: resolved.display,
          dry_run: dryRun,
          written: !dryRun && changed,
          edits: outcomes,
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
    render: (data) => formatMultiEditResult(data, formatOptions),
  });
}
