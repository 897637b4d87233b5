import { formatCount, type MountedTools, ToolFailureError } from "@agentool/contract";
import type { ResolvedPath } from "@agentool/tools-fs";
import type { SkippedCounts } from "./scan.js";

/**
 * What the ast-grep tools say about the files they did not read — always, whatever the result,
 * so "no match" is never said of a file nobody looked at — and the refusal of a path that is
 * neither a file nor a directory.
 *
 * @internal
 */

/**
 * The note on skipped files, by reason, with the next step; `undefined` when none was.
 *
 * @param skipped - the counts by reason
 * @param maxFileBytes - the size cap
 * @param mounted - the tools mounted beside this one (the next step names only those)
 * @param verb - what was not done to them (`searched`, `rewritten`)
 * @returns the note
 * @example
 * skippedNote({ too_large: 1, not_text: 0, unreadable: 0 }, 1_048_576, mounted, "searched");
 * // "Not searched: 1 file over the 1,048,576-byte cap — matches in it are not counted; grep_search searches it as text."
 */
export function skippedNote(
  skipped: SkippedCounts,
  maxFileBytes: number,
  mounted: MountedTools,
  verb: "searched" | "rewritten",
): string | undefined {
  const files = (count: number) => `${formatCount(count)} file${count === 1 ? "" : "s"}`;
  const parts: string[] = [];
  if (skipped.too_large > 0)
    parts.push(`${files(skipped.too_large)} over the ${formatCount(maxFileBytes)}-byte cap`);
  if (skipped.not_text > 0) parts.push(`${files(skipped.not_text)} not UTF-8 text`);
  if (skipped.unreadable > 0)
    parts.push(`${files(skipped.unreadable)} unreadable (gone, or a link out of the workspace)`);
  if (parts.length === 0) return undefined;
  const total = skipped.too_large + skipped.not_text + skipped.unreadable;
  const text = mounted.filter(["grep_search", "read_file"]);
  const next =
    text.length > 0
      ? `; ${text.join(" or ")} ${text.length === 1 ? "reads" : "read"} ${total === 1 ? "it" : "them"} as text`
      : "";
  const what =
    verb === "searched" ? "matches in them are not counted" : "they were left as they are";
  return `Not ${verb}: ${parts.join(", ")} — ${what}${next}.`;
}

/**
 * Refuses a named path that is neither a regular file nor a directory (a FIFO would block the
 * read; a socket or device is not source code).
 *
 * @param resolved - the model's path, resolved
 * @param type - its stat type
 * @throws ToolFailureError `UNSUPPORTED`
 */
export function refuseSpecialFile(resolved: ResolvedPath, type: string): void {
  if (type === "file" || type === "directory") return;
  throw new ToolFailureError(
    "UNSUPPORTED",
    `${resolved.display} is not a regular file or directory (a FIFO, socket or device); nothing was read.`,
    { hint: "Name a source file or a directory." },
  );
}
