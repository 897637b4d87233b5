import { formatCount } from "@agentool/contract";
/** One file in a diff summary. */
export interface DiffFile {
  /** The path (the new name for renames). */
  file: string;
  /** The old name, for renames. */
  from?: string;
  /** Lines added, or `null` for a binary file. */
  additions: number | null;
  /** Lines deleted, or `null` for a binary file. */
  deletions: number | null;
  /** Whether git treats the file as binary (its content is summarised, never dumped). */
  binary: boolean;
}

/** A parsed `--numstat -z -p` output. */
export interface ParsedDiff {
  /** Every file, in git's order. */
  files: DiffFile[];
  /** The unified diff text. */
  patch: string;
}

/**
 * Splits the output of `git diff --numstat -z -p` (or `git show` with the same flags) into its
 * per-file summary and the patch text.
 *
 * @param output - git's stdout
 * @returns the files and the patch
 */
export function parseNumstatPatch(output: string): ParsedDiff {
  const files: DiffFile[] = [];
  let position = 0;
  const next = (): string | undefined => {
    const end = output.indexOf("\0", position);
    if (end === -1) return undefined;
    const token = output.slice(position, end);
    position = end + 1;
    return token;
  };
  while (position < output.length) {
    if (output[position] === "\0") {
      position += 1;
      break;
    }
    if (!/^(\d+|-)\t(\d+|-)\t/.test(output.slice(position, position + 40))) break;
    const record = next();
    if (record === undefined) break;
    const [added = "-", deleted = "-", ...rest] = record.split("\t");
    let file = rest.join("\t");
    let from: string | undefined;
    if (file === "") {
      from = next() ?? "";
      file = next() ?? "";
    }
    const binary = added === "-" && deleted === "-";
    const entry: DiffFile = {
      file,
      additions: binary ? null : Number(added),
      deletions: binary ? null : Number(deleted),
      binary,
    };
    if (from !== undefined) entry.from = from;
    files.push(entry);
  }
  return { files, patch: output.slice(position) };
}

/** Totals over every file of a diff (exact). */
export interface DiffTotals {
  /** Changed files. */
  total_files: number;
  /** Lines added. */
  additions: number;
  /** Lines deleted. */
  deletions: number;
  /** Binary files. */
  binary_files: number;
}

/**
 * Writes a one-line summary of a diff's totals, e.g. `3 files changed, +12 −4 (1 binary)`.
 *
 * @param totals - the exact totals over every file
 * @returns the summary line
 */
export function summarizeDiffTotals(totals: DiffTotals): string {
  const count = `${formatCount(totals.total_files)} file${totals.total_files === 1 ? "" : "s"} changed`;
  const binary =
    totals.binary_files > 0 ? ` (${formatCount(totals.binary_files)} binary, summarised)` : "";
  return `${count}, +${formatCount(totals.additions)} −${formatCount(totals.deletions)}${binary}`;
}

/**
 * Adds up a complete list of files.
 *
 * @param files - every file of a diff
 * @returns the totals
 */
export function totalsOf(files: readonly DiffFile[]): DiffTotals {
  let additions = 0;
  let deletions = 0;
  let binary = 0;
  for (const file of files) {
    additions += file.additions ?? 0;
    deletions += file.deletions ?? 0;
    if (file.binary) binary += 1;
  }
  return { total_files: files.length, additions, deletions, binary_files: binary };
}

/**
 * Lists a diff's files one a line: `+12 −4  src/a.ts`, `binary  logo.png`, renames as `old -> new`.
 *
 * @param files - the files
 * @returns the lines
 */
export function formatDiffFiles(files: readonly DiffFile[]): string[] {
  return files.map((file) => {
    const name = file.from === undefined ? file.file : `${file.from} -> ${file.file}`;
    const counts = file.binary ? "binary" : `+${file.additions} −${file.deletions}`;
    return `  ${counts.padEnd(12)} ${name}`;
  });
}
