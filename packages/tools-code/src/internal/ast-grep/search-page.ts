import { formatCount } from "@agentool/contract";
import type { FileLister, ResolvedPath, Workspace } from "@agentool/tools-fs";
import type { AstSearchFile, AstSearchToolData } from "../../ast-search.js";
import type { AstGrepModule, AstLanguage } from "./languages.js";
import { type AstMatch, lineStarts, type MatchCaps, matchRecord } from "./match-record.js";
import type { Metavariable } from "./pattern.js";
import { listLanguageFiles, scanFiles } from "./scan.js";

/** The caps of one search. */
export interface SearchCaps extends MatchCaps {
  /** Most files scanned. */
  maxFiles: number;
  /** Most matches counted before the scan stops (at least the page's end). */
  maxMatches: number;
  /** Largest file parsed. */
  maxFileBytes: number;
  /** Characters the page's matches may take when rendered (a page stops early past it). */
  pageCharacters: number;
}

/** Everything one search needs, checked. */
export interface SearchPlan {
  /** The loaded `@ast-grep/napi`. */
  napi: AstGrepModule;
  /** The workspace. */
  workspace: Workspace;
  /** The file lister. */
  lister: FileLister;
  /** The model's path, resolved. */
  resolved: ResolvedPath;
  /** Whether it is a directory. */
  isDirectory: boolean;
  /** The language. */
  language: AstLanguage;
  /** The pattern (checked). */
  pattern: string;
  /** Its capturing metavariables. */
  metavariables: Metavariable[];
  /** 1-based first match of the page. */
  offset: number;
  /** Page size. */
  limit: number;
  /** The caps. */
  caps: SearchCaps;
}

/** Rendered size of one match (as the formatter writes it, with a margin). */
function matchCost(match: AstMatch): number {
  let cost = 40 + match.text.length + 8 * (match.text.split("\n").length + 1);
  for (const capture of match.captures) cost += capture.name.length + capture.text.length + 24;
  return cost;
}

/**
 * Runs one search and builds its page: every file in scope is scanned (to the caps) so the total
 * is exact; only the page's matches are turned into records; the page stops early when its
 * rendering would pass the output budget (at least one match stays), and `next_offset` follows.
 *
 * @param plan - the checked request
 * @param signal - aborts the scan
 * @param progress - called every 200 files with the files done and the files to do
 * @returns the tool's data, without the explanation of an empty result or of skipped files
 */
export async function searchPage(
  plan: SearchPlan,
  signal: AbortSignal,
  progress?: (done: number, total: number) => void,
): Promise<AstSearchToolData> {
  const { caps, offset, limit } = plan;
  const listed = await listLanguageFiles(
    plan.workspace,
    plan.lister,
    plan.resolved,
    plan.isDirectory,
    plan.language,
    caps.maxFiles,
    signal,
  );
  const budget = Math.max(caps.maxMatches, offset + limit - 1);
  const files: AstSearchFile[] = [];
  let total = 0;
  let totalFiles = 0;
  let pageEnd = offset - 1;
  let pageClosed = false;
  let pageCharacters = 0;
  const summary = await scanFiles(
    plan.napi,
    plan.workspace,
    listed.paths,
    plan.language,
    plan.pattern,
    caps.maxFileBytes,
    signal,
    (found) => {
      totalFiles += 1;
      const first = total + 1;
      total += found.nodes.length;
      if (!pageClosed && total >= offset && first < offset + limit) {
        const starts = lineStarts(found.text);
        const matches: AstMatch[] = [];
        const from = Math.max(0, offset - first);
        const to = Math.min(found.nodes.length, offset + limit - first);
        for (let index = from; index < to; index += 1) {
          const record = matchRecord(
            found.nodes[index] as (typeof found.nodes)[number],
            found.text,
            starts,
            plan.metavariables,
            caps,
          );
          const cost = matchCost(record) + (matches.length === 0 ? found.path.length + 4 : 0);
          if (pageEnd >= offset && pageCharacters + cost > caps.pageCharacters) {
            pageClosed = true;
            break;
          }
          pageCharacters += cost;
          matches.push(record);
          pageEnd = first + index;
        }
        if (matches.length > 0) files.push({ path: found.path, matches });
        if (pageEnd >= offset + limit - 1) pageClosed = true;
      }
      return total <= budget;
    },
    (done) => progress?.(done, listed.paths.length),
  );
  const complete = !summary.stopped;
  const data: AstSearchToolData = {
    pattern: plan.pattern,
    language: plan.language.name,
    path: plan.resolved.display,
    offset,
    limit,
    files,
    match_count: files.reduce((sum, file) => sum + file.matches.length, 0),
    truncated: complete ? pageEnd < total : true,
    files_in_scope: listed.found,
    scanned_files: summary.scanned,
    unscanned_files: listed.found - listed.paths.length,
  };
  if (complete) {
    data.total = total;
    data.total_files = totalFiles;
  } else {
    data.total_at_least = total;
  }
  if (data.truncated && pageEnd >= offset) data.next_offset = pageEnd + 1;
  const skipped = summary.skipped;
  if (skipped.too_large + skipped.not_text + skipped.unreadable > 0)
    data.skipped_files = { ...skipped };
  const notes: string[] = [];
  if (!complete)
    notes.push(
      `The scan stopped after ${formatCount(total)} matches (the match cap): the total is a lower bound. Narrow the pattern or the path for an exact count.`,
    );
  if (data.unscanned_files > 0)
    notes.push(
      `Only the ${formatCount(listed.paths.length)} newest of ${formatCount(listed.found)} ${plan.language.name} files were scanned (the file cap); ${formatCount(data.unscanned_files)} were not. Narrow the path to search the rest.`,
    );
  if (notes.length > 0) data.message = notes.join(" ");
  return data;
}
