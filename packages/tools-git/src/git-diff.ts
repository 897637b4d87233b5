import {
  defineTool,
  givenCallArguments,
  joinSentences,
  type MountedTools,
  type NextCallValue,
  ok,
  pagingInputShape,
  parseOptions,
  type Tool,
  type ToolResult,
} from "@agentool/contract";
import { z } from "zod";
import type { GitToolOptions } from "./git-status.js";
import {
  DEFAULT_DIFF_LINE_LIMIT,
  type DiffPage,
  formatDiffPage,
  MAX_DIFF_LINE_LIMIT,
  pageDiff,
} from "./internal/diff-pages.js";
import { guard, refuse } from "./internal/git-failure.js";
import { confinePath, literalPathspec, secretExclusionPathspecs } from "./internal/paths.js";
import { parseRange, resolveCommit } from "./internal/revisions.js";
import {
  createSettings,
  DEFAULT_MAX_ENTRIES,
  gitToolOptionsShape,
  pathFieldDescription,
} from "./internal/tool-support.js";

export type {
  DiffCutLine,
  DiffPage,
  DiffPartialFile,
} from "./internal/diff-pages.js";
export type { DiffFile } from "./internal/parse-diff.js";

/** The default name of the diff tool. */
export const GIT_DIFF_TOOL_NAME = "git_diff";

/** Default lines of context around each change. */
export const DEFAULT_CONTEXT_LINES = 3;

/**
 * What `git_diff` returns: one page of the diff ({@link DiffPage}: the page's files, the exact
 * totals, the patch text, `offset`, `total`, `next_offset`, `truncated`) and what was compared.
 */
export interface GitDiffToolData extends DiffPage {
  /** What was compared, new side first, e.g. `"working tree vs index"`, `"feature (d4e5f6a) vs main (a1b2c3d)"`. */
  compared: string;
  /** The path filter, repository-relative, when one was given. */
  path?: string;
  /** Whether the index was compared (`staged: true`). */
  staged: boolean;
  /** The old side as given, when two commits were compared with `base`. */
  base?: string;
  /** The revision (or `A..B` range) as given. */
  ref?: string;
  /** Lines of context around each change. */
  context_lines: number;
  /** Whether only the file list was asked for (no patch text). */
  files_only: boolean;
  /** The call's arguments as given, besides offset: the next-page marker repeats them all. */
  call_arguments: Record<string, NextCallValue>;
  /** Why the diff is empty, when it is. */
  empty_reason?: string;
}

function createDiffInputSchema(maxFiles: number) {
  return z.object({
    path: z
      .string()
      .optional()
      .describe(`${pathFieldDescription} For one file, offset and limit count its patch lines.`),
    staged: z
      .boolean()
      .optional()
      .describe(
        "Compare the index instead of the working tree; not with two commits (default false).",
      ),
    base: z
      .string()
      .optional()
      .describe("Old side of a two-commit comparison; ref is the new side."),
    ref: z
      .string()
      .optional()
      .describe("A commit, branch or tag (e.g. 'HEAD~1'), or 'A..B' / 'A...B'."),
    context_lines: z
      .number()
      .int()
      .min(0)
      .max(100)
      .optional()
      .describe(`Context lines around each change (default ${DEFAULT_CONTEXT_LINES}).`),
    files_only: z
      .boolean()
      .optional()
      .describe("List changed files with +/− counts only, no patch (default false)."),
    ...pagingInputShape({
      unit: "changed file",
      defaultLimit: maxFiles,
      maxLimit: Math.max(maxFiles, MAX_DIFF_LINE_LIMIT),
      offsetDescription: "1-based first changed file, or patch line for one file (default 1).",
      limitDescription: `Most files (default ${maxFiles}), or patch lines for one file (default ${DEFAULT_DIFF_LINE_LIMIT}).`,
    }),
  });
}

/** The diff tool's input schema (with the default caps). */
export const gitDiffInputSchema = createDiffInputSchema(DEFAULT_MAX_ENTRIES);

/** The diff tool's type. */
export type GitDiffTool = Tool<typeof gitDiffInputSchema, GitDiffToolData>;

/** Field aliases `git_diff` accepts silently (alias → field). */
export const GIT_DIFF_ALIASES: Readonly<Record<string, string>> = {
  file_path: "path",
  cached: "staged",
  unified: "context_lines",
  name_only: "files_only",
  stat: "files_only",
  from: "base",
  to: "ref",
};

function defaultDescription(mounted: MountedTools): string {
  return joinSentences([
    "Show changes as a unified diff with exact totals (files, +added −deleted).",
    "Default: unstaged edits; staged=true: the index vs HEAD (the next commit); ref: the working tree (or index) vs that commit; base with ref, or ref='A..B': two commits ('A...B': what B added since branching off A).",
    `Untracked files never appear${mounted.when("git_status", "; git_status lists them")}. Binary files are summarised.`,
    "A long diff comes in pages; a cut page ends with a marker naming the next call. Read-only.",
  ]);
}

const diffOptionsSchema = z.object(gitToolOptionsShape);

/** What {@link formatGitDiff} needs besides the data. */
export interface GitDiffFormatOptions {
  /** The tool's name, for the next-page call. Default `"git_diff"`. */
  toolName?: string;
}

/**
 * Renders a diff page for the model: what was compared and the exact totals, the page's files
 * when it is not the whole diff, the patch, and the contract's markers naming the exact next
 * call with every argument of this one (`…[truncated: 120 more files — call git_diff again with
 * staged=true, limit=37, offset=38]`).
 *
 * @param data - the diff tool's data
 * @param options - the tool's name
 * @returns model-facing text
 * @example
 * formatGitDiff(result.data); // "working tree vs index: 1 file changed, +2 −0\n\ndiff --git …"
 */
export function formatGitDiff(data: GitDiffToolData, options: GitDiffFormatOptions = {}): string {
  if (data.empty_reason !== undefined)
    return `No differences (${data.compared}): ${data.empty_reason}`;
  const lines = formatDiffPage(data, {
    tool: options.toolName ?? GIT_DIFF_TOOL_NAME,
    args: data.call_arguments,
    pathField: "path",
  });
  lines[0] = `${data.compared}: ${lines[0]}`;
  return lines.join("\n");
}

function short(hash: string): string {
  return hash.slice(0, 7);
}

/**
 * Creates the `git_diff` tool: unstaged, staged, against-a-commit or between-two-commits changes,
 * paged by file (or by patch line when the diff covers one file), with exact totals. External
 * diff programs and textconv drivers never run.
 *
 * @param options - the repository root, caps, the mounted tools and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const gitDiff = createGitDiffTool({ root: "/work/repo", maxOutputBytes: 20_000 });
 * await gitDiff.run({ staged: true }); // data.diff: "diff --git a/src/a.ts b/src/a.ts\n…"
 * await gitDiff.run({ ref: "main..feature", path: "src/a.ts", offset: 201 }); // patch lines 201…
 */
export function createGitDiffTool(options: GitToolOptions): GitDiffTool {
  const parsed = parseOptions("createGitDiffTool", diffOptionsSchema, options);
  const settings = createSettings(parsed, GIT_DIFF_TOOL_NAME);
  const { runner, maxEntries, maxOutputBytes, mounted, name } = settings;
  const input = createDiffInputSchema(maxEntries) as typeof gitDiffInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    aliases: GIT_DIFF_ALIASES,
    annotations: { title: "Git diff", readOnly: true, idempotent: true },
    tags: ["git", "git:read"],
    timeoutMs: settings.timeoutMs,
    execute: (request, context): Promise<ToolResult<GitDiffToolData>> =>
      guard(async () => {
        const signal = context.signal;
        const contextLines = request.context_lines ?? DEFAULT_CONTEXT_LINES;
        const staged = request.staged ?? false;
        const args = [
          "diff",
          "--no-color",
          "--no-ext-diff",
          "--no-textconv",
          "--ignore-submodules=dirty",
          "--find-renames",
          `--unified=${contextLines}`,
        ];
        let range = request.ref === undefined ? undefined : parseRange(request.ref);
        if (range !== undefined && request.base !== undefined) {
          refuse(
            "INVALID_INPUT",
            `ref ${JSON.stringify(request.ref)} already names two commits, and base names a third.`,
            {
              hint: `Pass either ref='A..B', or base='A' with ref='B'.`,
            },
          );
        }
        if (range === undefined && request.base !== undefined && request.ref !== undefined) {
          range = { base: request.base, ref: request.ref, symmetric: false };
        }
        if (range !== undefined && staged) {
          refuse(
            "INVALID_INPUT",
            "staged=true compares the index (what the next commit would contain), but a comparison of two commits has no index side.",
            {
              hint: "Drop staged to compare the two commits, or pass only ref (one commit) with staged=true to compare the index with it.",
            },
          );
        }
        const single = range === undefined ? (request.ref ?? request.base) : undefined;
        let compared = staged ? "index (staged) vs HEAD" : "working tree vs index";
        if (staged) args.push("--cached");
        if (range !== undefined) {
          const baseField = request.base === undefined ? "ref" : "base";
          const newHash = await resolveCommit(runner, range.ref, "ref", signal, mounted);
          let oldHash = await resolveCommit(runner, range.base, baseField, signal, mounted);
          let oldLabel = `${range.base} (${short(oldHash)})`;
          if (range.symmetric) {
            const mergeBase = await runner.run(["merge-base", oldHash, newHash], { signal });
            const found = mergeBase.stdout.trim();
            if (mergeBase.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(found)) {
              refuse(
                "INVALID_INPUT",
                `${range.base} and ${range.ref} have no common ancestor, so "${range.base}...${range.ref}" names nothing.`,
                { hint: `Compare them directly with ref="${range.base}..${range.ref}".` },
              );
            }
            oldHash = found;
            oldLabel = `where ${range.ref} branched off ${range.base} (${short(oldHash)})`;
          }
          args.push(oldHash, newHash);
          compared = `${range.ref} (${short(newHash)}) vs ${oldLabel}`;
        } else if (single !== undefined) {
          const field = request.ref === undefined ? "base" : "ref";
          const hash = await resolveCommit(runner, single, field, signal, mounted);
          args.push(hash);
          compared = `${staged ? "index (staged)" : "working tree"} vs ${single} (${short(hash)})`;
        }
        const path =
          request.path === undefined ? undefined : await confinePath(runner, request.path, "path");
        const page = await pageDiff(
          runner,
          {
            args,
            pathspecs: [literalPathspec(path ?? ".")],
            exclusions: secretExclusionPathspecs(runner),
            workingTree: true,
            action: "git diff",
          },
          {
            tool: name,
            offset: request.offset ?? 1,
            limit: request.limit,
            filesOnly: request.files_only ?? false,
            maxOutputBytes,
            maxFiles: maxEntries,
            mounted,
          },
          signal,
        );
        const data: GitDiffToolData = {
          compared,
          ...(path === undefined ? {} : { path }),
          staged,
          ...(request.base === undefined ? {} : { base: request.base }),
          ...(request.ref === undefined ? {} : { ref: request.ref }),
          context_lines: contextLines,
          files_only: request.files_only ?? false,
          ...page,
          call_arguments: givenCallArguments(request),
        };
        if (page.total_files === 0) {
          const under = path === undefined || path === "." ? "" : ` under ${path}`;
          data.empty_reason =
            range !== undefined
              ? `the two commits have the same content${under}.`
              : staged && single !== undefined
                ? `the index matches ${single}${under} (staged=true compares the index — what the next commit would contain — with ${single}).`
                : staged
                  ? `nothing is staged${under}.${mounted.when("git_add", " Stage files with git_add, or")}${mounted.has("git_add") ? " call" : " Call"} ${name} without staged to see unstaged edits.`
                  : single !== undefined
                    ? `the working tree matches ${single} for tracked files${under} (untracked files are not compared${mounted.when("git_status", "; git_status lists them")}).`
                    : `no unstaged changes to tracked files${under}. Staged changes appear with staged=true${mounted.when("git_status", "; untracked files appear in git_status")}.`;
        }
        return ok(data);
      }),
    render: (data) => formatGitDiff(data, { toolName: name }),
  });
}
