import {
  formatCount,
  formatCountOf,
  formatTruncationMarker,
  truncateText,
} from "@agentool/contract";
import type { AstRewriteToolData } from "../../ast-rewrite.js";

/** The default name of the structural rewrite tool. */
export const AST_REWRITE_TOOL_NAME = "ast_rewrite";

/** Default cap on the rendered result, in characters. */
export const DEFAULT_AST_REWRITE_MAX_OUTPUT_CHARACTERS = 40_000;

/** A file's unified diff without its `--- a/…` / `+++ b/…` header (the section's title names the file). */
function hunksOf(diff: string): string {
  return diff.replace(/^--- [^\n]*\n\+\+\+ [^\n]*\n/, "");
}

/**
 * Renders an `ast_rewrite` result for the model: what was (or, on a dry run, would be) replaced
 * and where, the note on files not read (always, when any was), then per file a title line
 * (`path: N replacements`, with the new sha once written) and its diff hunks (a cut diff ends
 * with the contract's marker), the whole text capped with the marker saying the change itself
 * is whole.
 *
 * @param data - the tool's data
 * @param maxOutputCharacters - cap on the text
 * @returns model-facing text
 * @example
 * formatAstRewriteResult(data);
 * // "Rewrote 3 matches in 2 files (+3 −3 lines); every changed file was written.\n\nsrc/a.ts: 2 replacements, sha 0123456789ab\n@@ -1,2 +1,2 @@\n…"
 */
export function formatAstRewriteResult(
  data: AstRewriteToolData,
  maxOutputCharacters: number = DEFAULT_AST_REWRITE_MAX_OUTPUT_CHARACTERS,
): string {
  if (data.files.length === 0)
    return data.message ?? `No match for ${JSON.stringify(data.pattern)}; nothing to rewrite.`;
  const counts = `${formatCountOf(data.total_replacements, "match", "matches")} in ${formatCountOf(data.files.length, "file")} (+${formatCount(data.added)} −${formatCount(data.removed)} lines)`;
  const head = data.dry_run
    ? `Dry run: would rewrite ${counts}; nothing was written. Call again without dry_run to apply.`
    : `Rewrote ${counts}; every changed file was written.`;
  const sections = data.files.map((file) => {
    const title = `${file.path}: ${formatCountOf(file.replacements, "replacement")}${data.applied ? `, sha ${file.sha.slice(0, 12)}` : ""}`;
    const marker = file.diff_truncated
      ? `\n${formatTruncationMarker({
          omitted: file.diff_omitted_lines,
          unit: "diff lines",
          next: `the change to ${file.path} is whole; read the file to see the rest`,
        })}`
      : "";
    return `${title}\n${hunksOf(file.diff)}${marker}`;
  });
  const note = data.message === undefined ? "" : `\n${data.message}`;
  return truncateText(`${head}${note}\n\n${sections.join("\n\n")}`, {
    maxCharacters: maxOutputCharacters,
    next: data.dry_run
      ? "narrow path to preview fewer files"
      : "every file was written in full; read the files to see the rest",
  }).text;
}
