import { formatTruncationMarker } from "@agentool/contract";
import type { ChangeSetPlan } from "./change-set.js";
import { SHORT_SHA_LENGTH } from "./internal/text-codec.js";

/** What the patch did to one file. */
export interface ApplyPatchFile {
  /** The file as shown to the model (its old path for a move). */
  path: string;
  /** `updated`, `added`, `deleted` or `moved` (moved, possibly edited too). */
  action: "updated" | "added" | "deleted" | "moved";
  /** The new path of a moved file. */
  move_to?: string;
  /** Hunks applied (0 for adds, deletes and pure moves). */
  hunks: number;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** sha-256 before (absent for an add). */
  previous_sha?: string;
  /** sha-256 after, or what it would be on a dry run (absent for a delete). */
  sha?: string;
  /** Hunks (1-based) that matched only after ignoring line endings or trailing whitespace. */
  tolerant_hunks: number[];
  /** Hunks (1-based) whose lines carried read_file's line-number prefixes, removed before matching. */
  stripped_line_numbers: number[];
}

/** What `apply_patch` returns. */
export interface ApplyPatchToolData {
  /** The patch's format: `codex` or `unified`. */
  format: "codex" | "unified";
  /** Whether this was a dry run (nothing written). */
  dry_run: boolean;
  /** Each file, in patch order. */
  files: ApplyPatchFile[];
  /** Lines added over all files. */
  added: number;
  /** Lines removed over all files. */
  removed: number;
  /** The unified diff of every file: its first lines when longer than the caps. */
  diff: string;
  /** Whether lines of the diff were left out (the patch itself applied in full). */
  diff_truncated: boolean;
  /** Lines of the diff left out after `diff`. */
  diff_omitted_lines: number;
}

/**
 * Renders a patch result for the model: a summary, a line per file, notes on tolerant matches
 * and removed line-number prefixes, the diff (with the standard marker when it is cut).
 *
 * @param data - the patch tool's result data
 * @param options - the tool that reads files, for the note of a cut diff
 * @returns model-facing text
 * @example
 * formatApplyPatchResult(data);
 * // "Applied the patch to 2 files (+4 −1 lines).\nupdated src/a.ts: 2 hunks, +3 −1, sha 0123456789ab\nadded src/b.ts: +1\n--- a/src/a.ts …"
 */
export function formatApplyPatchResult(
  data: ApplyPatchToolData,
  options: { readTool?: string | undefined } = { readTool: "read_file" },
): string {
  const count = `${data.files.length} file${data.files.length === 1 ? "" : "s"}`;
  const summary = data.dry_run
    ? `Dry run: the patch applies cleanly to ${count} (+${data.added} −${data.removed} lines). Nothing was written; call again without dry_run to apply.`
    : `Applied the patch to ${count} (+${data.added} −${data.removed} lines).`;
  const lines = data.files.map((file) => {
    const where = file.move_to === undefined ? file.path : `${file.path} → ${file.move_to}`;
    const parts = [
      ...(file.hunks > 0 ? [`${file.hunks} hunk${file.hunks === 1 ? "" : "s"}`] : []),
      ...(file.action === "deleted" ? [`−${file.removed}`] : [`+${file.added} −${file.removed}`]),
      ...(file.sha === undefined ? [] : [`sha ${file.sha.slice(0, SHORT_SHA_LENGTH)}`]),
    ];
    return `${file.action} ${where}: ${parts.join(", ")}`;
  });
  const notes = data.files.flatMap((file) => [
    ...(file.tolerant_hunks.length > 0
      ? [
          `Note: ${file.path} hunk ${file.tolerant_hunks.join(", ")} matched only after ignoring line endings or trailing whitespace.`,
        ]
      : []),
    ...(file.stripped_line_numbers.length > 0
      ? [
          `Note: ${file.path} hunk ${file.stripped_line_numbers.join(", ")} carried read_file's line-number prefixes, which are not part of the file; they were removed.`,
        ]
      : []),
  ]);
  const read = options.readTool;
  const marker = data.diff_truncated
    ? [
        formatTruncationMarker({
          omitted: data.diff_omitted_lines,
          unit: "lines",
          next: `the diff is cut, the patch ${data.dry_run ? "would apply" : "was applied"} in full${read === undefined ? "" : `; read the changed lines with ${read} to check them`}`,
        }),
      ]
    : [];
  return [
    summary,
    ...lines,
    ...notes,
    ...(data.diff.length > 0 ? [data.diff] : []),
    ...marker,
  ].join("\n");
}

/**
 * Every file's diff, cut as a whole to the caps.
 *
 * @internal
 */
export function combinedDiff(
  plan: ChangeSetPlan,
  maxLines: number,
  maxCharacters: number,
): { diff: string; truncated: boolean; omitted: number } {
  const kept: string[] = [];
  let characters = 0;
  let total = 0;
  let stopped = false;
  for (const file of plan.files) {
    const lines = file.diff.text.length === 0 ? [] : file.diff.text.split("\n");
    total += lines.length + file.diff.omittedLines;
    for (const line of lines) {
      if (stopped || kept.length >= maxLines || characters + line.length + 1 > maxCharacters) {
        stopped = true;
        break;
      }
      kept.push(line);
      characters += line.length + 1;
    }
    if (file.diff.truncated) stopped = true;
  }
  return { diff: kept.join("\n"), truncated: kept.length < total, omitted: total - kept.length };
}
