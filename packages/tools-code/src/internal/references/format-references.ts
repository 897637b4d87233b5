import { formatCount, formatPageMarker, type NextCallValue } from "@agentool/contract";
import type { OccurrenceRole } from "../tree-sitter/name-occurrences.js";

/** The default name of the references tool. */
export const FIND_REFERENCES_TOOL_NAME = "find_references";

/** The sentence every answer carries: what "reference" means here. */
export const SYNTACTIC_NOTE =
  "Syntactic: every identifier spelled like the name, outside strings and comments — same-name identifiers of unrelated scopes are included, and imports renamed with `as` are followed only by their spelling.";

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
  /** Files whose text contains the name (the ripgrep shortlist). */
  files_mentioning: number;
  /** Shortlisted files parsed (those of a language with a grammar, within the caps). */
  files_parsed: number;
  /** Shortlisted files not parsed: no grammar, too large, binary, or a parse timeout. */
  files_skipped: number;
  /** Always true: the occurrences are syntactic, not type-resolved ({@link SYNTACTIC_NOTE}). */
  syntactic: true;
  /** The call's arguments besides offset (the next-page marker repeats them). */
  call_arguments: Record<string, NextCallValue>;
  /** Why nothing was found and what to try, when the result is empty. */
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
 * formatFindReferences(result.data); // "12 occurrences of parse in 4 files (1 declaration, 2 imports)…"
 */
export function formatFindReferences(
  data: FindReferencesToolData,
  options: FindReferencesFormatOptions = {},
): string {
  if (data.total === 0) return `No references to ${data.identifier}: ${data.message ?? ""}`.trim();
  const count =
    data.total_at_least === undefined
      ? formatCount(data.total)
      : `at least ${formatCount(data.total_at_least)}`;
  const lines = [
    `${count} occurrences of ${data.identifier} in ${formatCount(data.total_files)} files of ${data.path} (${formatCount(data.declarations)} declarations, ${formatCount(data.imports)} imports). ${SYNTACTIC_NOTE}`,
  ];
  for (const file of data.files) {
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
