import {
  formatCount,
  formatCountOf,
  formatPageMarker,
  type NextCallValue,
} from "@agentool/contract";
import type { OccurrenceRole } from "../tree-sitter/name-occurrences.js";

/** The default name of the references tool. */
export const FIND_REFERENCES_TOOL_NAME = "find_references";

/** The sentence every answer carries: what "reference" means here. */
export const SYNTACTIC_NOTE = "Syntactic, not type-resolved.";

/** How the occurrences were chosen (the `mode` of {@link FindReferencesToolData}). */
export const MODE_NOTES = {
  imports:
    "Bound through imports, re-exports and ns.name (relative paths; not tsconfig paths or packages); grouped by declaration.",
  members:
    "Declared only as a member: member declarations and .name accesses of any type, not plain identifiers.",
  qualified:
    "Only .name accesses where the type or a syntactic subtype is visible, and the member's declarations.",
  text: "Every identifier spelled like the name (declared nowhere here), unresolved.",
} as const;

/** One group of occurrences: a definition with what reaches it, or a kind of leftover. */
export interface ReferenceGroup {
  /** 1-based number; each file of `files` names its group by it. */
  group: number;
  /** `definition` (a top-level declaration, or the type of a `Type.member`, with its references), `members` (same-named members of any type), `package` (imported from a module outside the workspace), `unfollowed` (files of languages whose imports are not followed), `text` (unresolved: the name is declared nowhere). */
  kind: "definition" | "members" | "package" | "unfollowed" | "text";
  /** What the group holds, in words. */
  label: string;
  /** The declaring file, for a `definition`. */
  path?: string;
  /** The declaration's line there, when found. */
  line?: number;
  /** Occurrences in the group. */
  total: number;
  /** Files with an occurrence in the group. */
  total_files: number;
}

/** One occurrence of the name. */
export interface ReferenceOccurrence {
  /** 1-based line. */
  line: number;
  /** 1-based column (UTF-16 code units). */
  column: number;
  /** `declaration` (it is defined here), `import`, or `reference` (a use). */
  role: OccurrenceRole;
  /** The line's text (without its line ending), cut to the tool's cap around the name. */
  text: string;
  /** Characters cut from the line, when it was long. */
  cut?: number;
  /** Qualified name of the innermost enclosing symbol (`Parser.parse`), or `null` at the top of the file. */
  enclosing: string | null;
}

/** The occurrences in one file. */
export interface ReferenceFile {
  /** Workspace path. */
  path: string;
  /** Its language. */
  language: string;
  /** The `group` of {@link ReferenceGroup} it is listed under. */
  group: number;
  /** This page's occurrences in the file, in line order. */
  occurrences: ReferenceOccurrence[];
}

/** What `find_references` returns (every key snake_case). */
export interface FindReferencesToolData {
  /** The name as given. */
  name: string;
  /** The identifier searched for (the last part of a qualified name). */
  identifier: string;
  /** The searched path (`.` for the whole workspace). */
  path: string;
  /** The definitions kept, when `defined_in` (or `file:name`) narrowed them. */
  defined_in?: string;
  /** How occurrences were chosen: `imports`, `members`, `qualified` or `text` ({@link MODE_NOTES}). */
  mode: keyof typeof MODE_NOTES;
  /** Every group, with its totals (the page's files say which group they are in). */
  groups: ReferenceGroup[];
  /** 1-based position of this page's first occurrence (path order, then line and column). */
  offset: number;
  /** The page size that applied. */
  limit: number;
  /** This page's files, in path order. */
  files: ReferenceFile[];
  /** Occurrences in all (exact when every file mentioning the name was parsed). */
  total: number;
  /** A lower bound instead of an exact total, when more files mention the name than were parsed. */
  total_at_least?: number;
  /** Files with an occurrence, in all. */
  total_files: number;
  /** Of `total`, the declarations. */
  declarations: number;
  /** Of `total`, the imports. */
  imports: number;
  /** The `offset` of the next page; absent on the last page. */
  next_offset?: number;
  /** Whether occurrences after this page were left out. */
  truncated: boolean;
  /** Same-spelled identifiers not counted (locals, other types' members, unbound names). */
  left_out: number;
  /** Files holding those. */
  left_out_files: number;
  /** Files whose text contains the name (the ripgrep shortlist). */
  files_mentioning: number;
  /** Shortlisted files parsed (those of a language with a grammar, within the caps; those that cannot hold a reference are not parsed). */
  files_parsed: number;
  /** Shortlisted files not parsed: no grammar, too large, binary, or a parse timeout. */
  files_skipped: number;
  /** Always true: the occurrences are syntactic, not type-resolved ({@link SYNTACTIC_NOTE}). */
  syntactic: true;
  /** The call's arguments besides offset (the next-page marker repeats them). */
  call_arguments: Record<string, NextCallValue>;
  /** Why nothing was found and what to try, when the result is empty; why the mode fell back. */
  message?: string;
}

/** What {@link formatFindReferences} needs besides the data. */
export interface FindReferencesFormatOptions {
  /** The tool's name, for the next page. Default `"find_references"`. */
  toolName?: string;
}

/**
 * Renders references for the model: a header with the totals and the syntactic note, each file
 * with its occurrences as `line:column [role] in Enclosing │ text`, and the contract's page marker.
 *
 * @param data - the tool's data
 * @param options - the tool's name
 * @returns model-facing text
 * @example
 * formatFindReferences(result.data); // "12 references to parse in 4 files of . (1 declaration, 2 imports). Syntactic…"
 */
export function formatFindReferences(
  data: FindReferencesToolData,
  options: FindReferencesFormatOptions = {},
): string {
  if (data.total === 0) return `No references to ${data.name}: ${data.message ?? ""}`.trim();
  const count =
    data.total_at_least === undefined
      ? formatCount(data.total)
      : `at least ${formatCount(data.total_at_least)}`;
  const definitions = data.groups.filter((group) => group.kind === "definition").length;
  const split =
    definitions > 1
      ? `, under ${formatCount(definitions)} definitions — narrow with defined_in`
      : "";
  const shown = data.total_at_least ?? data.total;
  // The rules that chose the occurrences are said on the first page only; later pages count.
  const notes = data.offset === 1 ? ` ${SYNTACTIC_NOTE} ${MODE_NOTES[data.mode]}` : "";
  const lines = [
    `${count} reference${shown === 1 ? "" : "s"} to ${data.name} in ${formatCountOf(data.total_files, "file")} of ${data.path}${split} (${formatCountOf(data.declarations, "declaration")}, ${formatCountOf(data.imports, "import")}).${notes}${data.message === undefined ? "" : ` ${data.message}`}`,
  ];
  if (data.left_out > 0) {
    lines.push(
      `Left out: ${formatCount(data.left_out)} same-spelled identifiers in ${formatCount(data.left_out_files)} files that none of these reach (locals, other types' members, unbound names).`,
    );
  }
  let group: number | undefined;
  for (const file of data.files) {
    if (file.group !== group) {
      group = file.group;
      const about = data.groups.find((entry) => entry.group === group);
      if (about !== undefined && (data.groups.length > 1 || about.kind === "definition"))
        lines.push(groupHeader(about));
    }
    lines.push(file.path);
    for (const occurrence of file.occurrences) {
      const role = occurrence.role === "reference" ? "" : ` [${occurrence.role}]`;
      const where = occurrence.enclosing === null ? "" : ` in ${occurrence.enclosing}`;
      lines.push(
        `  ${occurrence.line}:${occurrence.column}${role}${where} │ ${occurrence.text.trim()}`,
      );
    }
  }
  if (data.next_offset !== undefined) {
    lines.push(
      formatPageMarker({
        tool: options.toolName ?? FIND_REFERENCES_TOOL_NAME,
        nextOffset: data.next_offset,
        omitted: data.total - data.next_offset + 1,
        unit: "occurrences",
        args: data.call_arguments,
      }),
    );
  }
  return lines.join("\n");
}

function groupHeader(group: ReferenceGroup): string {
  const where =
    group.path === undefined
      ? ""
      : ` ${group.path}${group.line === undefined ? "" : `:${group.line}`}`;
  return `## ${group.group}.${where} ${group.label} — ${formatCount(group.total)} in ${formatCount(group.total_files)} file${group.total_files === 1 ? "" : "s"}`;
}
