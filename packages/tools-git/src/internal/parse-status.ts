/** The kinds of change a status entry can report. */
export const CHANGE_STATUSES = [
  "added",
  "modified",
  "deleted",
  "renamed",
  "untracked",
  "conflicted",
] as const;

/** One kind of change. */
export type ChangeStatus = (typeof CHANGE_STATUSES)[number];

/** One changed file. */
export interface FileChange {
  /** The path relative to the repository root (the new name for renames). */
  file: string;
  /** What happened to it. */
  status: ChangeStatus;
  /** `true` when the change is in the index (will be committed), `false` for the working tree. */
  staged: boolean;
  /** The old name, for renames and copies. */
  from?: string;
}

/** What `git status --porcelain=v2 --branch -z` said. */
export interface ParsedStatus {
  /** The branch, or `null` when HEAD is detached. */
  branch: string | null;
  /** The commit HEAD points at, or `null` before the first commit. */
  head: string | null;
  /** The upstream branch, when one is set. */
  upstream: string | null;
  /** Commits on HEAD not on the upstream. */
  ahead: number | null;
  /** Commits on the upstream not on HEAD. */
  behind: number | null;
  /** Every change, staged entries first within each file. */
  changes: FileChange[];
}

function statusOf(letter: string): ChangeStatus | undefined {
  switch (letter) {
    case "M":
    case "T":
      return "modified";
    case "A":
    case "C":
      return "added";
    case "D":
      return "deleted";
    case "R":
      return "renamed";
    default:
      return undefined;
  }
}

/**
 * Parses `git status --porcelain=v2 --branch -z` output.
 *
 * @param output - git's stdout
 * @returns the branch information and the changes
 */
export function parsePorcelainStatus(output: string): ParsedStatus {
  const parsed: ParsedStatus = {
    branch: null,
    head: null,
    upstream: null,
    ahead: null,
    behind: null,
    changes: [],
  };
  const records = output.split("\0");
  for (let index = 0; index < records.length; index += 1) {
    const record = records[index] ?? "";
    if (record.length === 0) continue;
    if (record.startsWith("# ")) {
      const [, key, ...rest] = record.split(" ");
      const value = rest.join(" ");
      if (key === "branch.oid") parsed.head = value === "(initial)" ? null : value;
      else if (key === "branch.head") parsed.branch = value === "(detached)" ? null : value;
      else if (key === "branch.upstream") parsed.upstream = value;
      else if (key === "branch.ab") {
        const match = /^\+(\d+) -(\d+)$/.exec(value);
        if (match) {
          parsed.ahead = Number(match[1]);
          parsed.behind = Number(match[2]);
        }
      }
      continue;
    }
    const kind = record[0];
    if (kind === "?") {
      parsed.changes.push({ file: record.slice(2), status: "untracked", staged: false });
      continue;
    }
    if (kind === "u") {
      const file = record.split(" ").slice(10).join(" ");
      parsed.changes.push({ file, status: "conflicted", staged: false });
      continue;
    }
    if (kind !== "1" && kind !== "2") continue;
    const fields = record.split(" ");
    const xy = fields[1] ?? "..";
    let file: string;
    let from: string | undefined;
    if (kind === "1") file = fields.slice(8).join(" ");
    else {
      file = fields.slice(9).join(" ");
      from = records[index + 1];
      index += 1;
    }
    const sides: [string, boolean][] = [
      [xy[0] ?? ".", true],
      [xy[1] ?? ".", false],
    ];
    for (const [letter, staged] of sides) {
      const status = statusOf(letter);
      if (status === undefined) continue;
      const change: FileChange = { file, status, staged };
      if ((letter === "R" || letter === "C") && from !== undefined) change.from = from;
      parsed.changes.push(change);
    }
  }
  return parsed;
}
