import {
  defineTool,
  fail,
  formatCount,
  joinSentences,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  toolOptionsShape,
} from "@agentool/contract";
import {
  commitChangeSet,
  type FileChange,
  type FileLister,
  planChangeSet,
  type Workspace,
} from "@agentool/tools-fs";
import { z } from "zod";
import {
  type AstSkippedFiles,
  astLanguageField,
  astPatternField,
  DEFAULT_AST_MAX_FILE_BYTES,
  DEFAULT_AST_MAX_FILES,
} from "./ast-search.js";
import {
  AST_REWRITE_TOOL_NAME,
  DEFAULT_AST_REWRITE_MAX_OUTPUT_CHARACTERS,
  formatAstRewriteResult,
} from "./internal/ast-grep/format-rewrite.js";
import { grammarForPath, loadAstGrep, resolveAstLanguage } from "./internal/ast-grep/languages.js";
import { listerFor, listerOption, workspaceOption } from "./internal/ast-grep/options.js";
import { checkPattern } from "./internal/ast-grep/pattern.js";
import { checkTemplate, rewriteText } from "./internal/ast-grep/rewrite-template.js";
import { listLanguageFiles, scanFiles } from "./internal/ast-grep/scan.js";
import { refuseSpecialFile, skippedNote } from "./internal/ast-grep/skipped-files.js";

export {
  AST_REWRITE_TOOL_NAME,
  DEFAULT_AST_REWRITE_MAX_OUTPUT_CHARACTERS,
  formatAstRewriteResult,
} from "./internal/ast-grep/format-rewrite.js";

/** Default most files one rewrite may change. */
export const DEFAULT_AST_REWRITE_MAX_CHANGED_FILES = 500;
/** Default time limit of one call: 120 seconds. */
export const DEFAULT_AST_REWRITE_TIMEOUT_MS = 120_000;

/** One file a rewrite changed (or, on a dry run, would change). */
export interface AstRewriteFile {
  /** Workspace path, relative to the root (POSIX). */
  path: string;
  /** Matches replaced in it. */
  replacements: number;
  /** Unified diff of the change (its first lines when longer than the caps; see `diff_truncated`). */
  diff: string;
  /** Whether lines of the diff were left out (the change itself is whole). */
  diff_truncated: boolean;
  /** Lines of the diff left out after `diff`. */
  diff_omitted_lines: number;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** sha-256 of the file before. */
  previous_sha: string;
  /** sha-256 after (on a dry run: what it would be); what `expected_shas` takes next time. */
  sha: string;
}

/** What `ast_rewrite` returns (every key snake_case). */
export interface AstRewriteToolData {
  /** The pattern. */
  pattern: string;
  /** The rewrite template. */
  rewrite: string;
  /** The language (canonical name). */
  language: string;
  /** The path as shown to the model (`.` for the root). */
  path: string;
  /** Whether nothing was written (a preview). */
  dry_run: boolean;
  /** Whether the files were written (all of them; never some). */
  applied: boolean;
  /** The files changed, in path order. */
  files: AstRewriteFile[];
  /** Matches replaced over all files. */
  total_replacements: number;
  /** Lines added over all files. */
  added: number;
  /** Lines removed over all files. */
  removed: number;
  /** Files of the language in scope. */
  files_in_scope: number;
  /** Files read and matched. */
  scanned_files: number;
  /** Files not read (so not rewritten), by reason, when any was. */
  skipped_files?: AstSkippedFiles;
  /** What an empty result means, and the note on skipped files. */
  message?: string;
}

/** Options of {@link createAstRewriteTool}. */
export interface AstRewriteToolOptions {
  /** The workspace (confinement, secret paths, seam). */
  workspace: Workspace;
  /** Lists the files to scan. Default: ripgrep over the workspace's root on disk. */
  lister?: FileLister;
  /** Most files of the language in scope (more: refused, narrow the path). Default {@link DEFAULT_AST_MAX_FILES}. */
  maxFiles?: number;
  /** Most files one call may change. Default {@link DEFAULT_AST_REWRITE_MAX_CHANGED_FILES}. */
  maxChangedFiles?: number;
  /** Largest file parsed, in bytes. Default {@link DEFAULT_AST_MAX_FILE_BYTES} (1 MiB). */
  maxFileBytes?: number;
  /** Cap on the rendered result. Default {@link DEFAULT_AST_REWRITE_MAX_OUTPUT_CHARACTERS}. */
  maxOutputCharacters?: number;
  /** Time limit of one call in ms (`0` = none). Default {@link DEFAULT_AST_REWRITE_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Names of the tools mounted beside this one; the description names only these. */
  mountedTools?: readonly string[];
  /** Replaces the tool's name. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
  /**
   * Offer the `expected_shas` field (files' shas as last seen; `CONFLICT` if one changed since).
   * Default `false`: the pattern is matched against the files as they are now, and the field
   * costs ~100 tokens of definition on every call.
   */
  expectedShas?: boolean;
}

const optionsSchema = z.object({
  ...toolOptionsShape,
  workspace: workspaceOption,
  lister: listerOption.optional(),
  maxFiles: z.number().int().min(1).max(1_000_000).optional(),
  maxChangedFiles: z.number().int().min(1).max(100_000).optional(),
  maxFileBytes: z.number().int().min(1).max(1_073_741_824).optional(),
  maxOutputCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  timeoutMs: z.number().int().min(0).optional(),
  expectedShas: z.boolean().optional(),
});

const expectedShasField = z
  .array(
    z.object({
      path: z.string().min(1).describe("A file's path."),
      sha: z.string().min(12).max(64).describe("Its sha-256 (a prefix of 12+ hex digits)."),
    }),
  )
  .max(1_000)
  .optional()
  .describe("Refuse (CONFLICT) when one of these files changed since you saw it.");

/** The fields of `ast_rewrite`; `pattern` and `language` point at ast_search's when it is mounted. */
function createInputShape(withSearch: boolean) {
  return {
    pattern: withSearch
      ? z.string().min(1).max(10_000).describe("As in ast_search.")
      : astPatternField,
    rewrite: z
      .string()
      .max(100_000)
      .describe(
        "Replaces each match; $NAME / $$$NAME insert the captures; empty deletes the match.",
      ),
    language: withSearch
      ? z.string().min(1).max(40).describe("As in ast_search.")
      : astLanguageField,
    path: z
      .string()
      .optional()
      .describe("File or directory to rewrite (default the whole workspace)."),
    dry_run: z.boolean().optional().describe("Only show the diffs; write nothing."),
  };
}

/** The input schema of `ast_rewrite` with `expectedShas: true` (standalone descriptions). */
export const astRewriteInputSchema = z.object({
  ...createInputShape(false),
  expected_shas: expectedShasField,
});

/** The input of `ast_rewrite`. */
export type AstRewriteInput = z.input<typeof astRewriteInputSchema>;

/** The `ast_rewrite` tool's type. */
export type AstRewriteTool = Tool<typeof astRewriteInputSchema, AstRewriteToolData>;

function defaultDescription(mounted: MountedTools): string {
  return joinSentences(
    [
      "Structural rewrite (ast-grep): replace every match of a pattern with a template, across files, all files or none.",
      `${mounted.when("ast_search", "Check the pattern with ast_search first, then ")}preview with dry_run=true; the result is a unified diff per file.`,
      "Example: pattern 'console.log($$$ARGS)', rewrite 'logger.debug($$$ARGS)'; pattern 'assert.equal($A, $B)', rewrite 'expect($A).toBe($B)'.",
      "A rewrite that would not parse is refused naming the file.",
    ],
    "\n",
  );
}

/**
 * Creates the `ast_rewrite` tool: every match of an ast-grep pattern in the files of one
 * language (the workspace, or one file or directory) replaced with a template whose `$NAME` /
 * `$$$NAME` insert the captures, as ast-grep's `fix` does. The change goes through tools-fs's
 * change set: confined, secret and `.git` paths refused, `expected_shas` checked (with the
 * `expectedShas` option), encoding, BOM and CRLF kept, written all files or none; `dry_run`
 * shows the diffs and writes nothing. A rewrite whose result has new syntax errors is refused
 * naming the file; files not read (over the size cap, not UTF-8) are always said.
 *
 * @param options - the workspace, the lister (default ripgrep over the root), the caps
 * @returns the tool
 * @throws AgentoolError when the options are invalid
 * @example
 * const rewrite = createAstRewriteTool({ workspace });
 * await rewrite.run({ pattern: "var $A = $B", rewrite: "let $A = $B", language: "js", dry_run: true });
 */
export function createAstRewriteTool(options: AstRewriteToolOptions): AstRewriteTool {
  const parsed = parseOptions("createAstRewriteTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const lister = listerFor("createAstRewriteTool", workspace, parsed.lister);
  const maxFiles = parsed.maxFiles ?? DEFAULT_AST_MAX_FILES;
  const maxChangedFiles = parsed.maxChangedFiles ?? DEFAULT_AST_REWRITE_MAX_CHANGED_FILES;
  const maxFileBytes = parsed.maxFileBytes ?? DEFAULT_AST_MAX_FILE_BYTES;
  const maxOutputCharacters =
    parsed.maxOutputCharacters ?? DEFAULT_AST_REWRITE_MAX_OUTPUT_CHARACTERS;
  const name = parsed.name ?? AST_REWRITE_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools, name);

  const shape = createInputShape(mounted.has("ast_search"));
  // Both shapes parse to the same request; without the field, expected_shas is never sent.
  const input = (parsed.expectedShas === true
    ? z.object({ ...shape, expected_shas: expectedShasField })
    : z.object(shape)) as unknown as typeof astRewriteInputSchema;

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    input,
    annotations: { title: "Structural code rewrite", readOnly: false, destructive: false },
    tags: ["code:write"],
    timeoutMs: parsed.timeoutMs ?? DEFAULT_AST_REWRITE_TIMEOUT_MS,
    execute: async (request, context) => {
      const napi = loadAstGrep();
      const language = resolveAstLanguage(request.language);
      checkPattern(napi, language, request.pattern);
      checkTemplate(request.pattern, request.rewrite);
      const resolved = await workspace.resolve(request.path, { argument: "path" });
      const stat = await workspace.fileSystem.stat(resolved.real);
      if (stat === undefined)
        return fail("FILE_NOT_FOUND", `path ${resolved.display} does not exist.`, {
          hint: "Omit path to rewrite in the whole workspace, or give an existing file or directory.",
        });
      refuseSpecialFile(resolved, stat.type);
      const isDirectory = stat.type === "directory";
      const listed = await listLanguageFiles(
        workspace,
        lister,
        resolved,
        isDirectory,
        language,
        maxFiles,
        context.signal,
      );
      if (listed.found > listed.paths.length)
        return fail(
          "TOO_LARGE",
          `${resolved.display} holds ${formatCount(listed.found)} ${language.name} files, more than the ${formatCount(maxFiles)} one rewrite scans; nothing was written.`,
          { hint: "Rewrite one directory at a time with path." },
        );
      const candidates: string[] = [];
      const summary = await scanFiles(
        napi,
        workspace,
        listed.paths,
        language,
        request.pattern,
        maxFileBytes,
        context.signal,
        (found) => {
          candidates.push(found.path);
          return true;
        },
      );
      if (candidates.length > maxChangedFiles)
        return fail(
          "TOO_LARGE",
          `The pattern matches in ${formatCount(candidates.length)} files, more than the ${formatCount(maxChangedFiles)} one rewrite may change; nothing was written.`,
          { hint: "Rewrite one directory at a time with path." },
        );
      const replacements = new Map<string, number>();
      const changes: FileChange[] = candidates.map((path) => ({
        kind: "update",
        path,
        edit: async (text: string) => {
          const done = await rewriteText(
            napi,
            grammarForPath(language, path),
            text,
            request.pattern,
            request.rewrite,
            path,
          );
          replacements.set(path, done.replacements);
          return done.text;
        },
      }));
      const data = await applyChanges(changes, replacements, request, {
        workspace,
        signal: context.signal,
        name,
        maxFileBytes,
      });
      if (!data.success) return data;
      Object.assign(data.data, {
        language: language.name,
        path: resolved.display,
        files_in_scope: listed.found,
        scanned_files: summary.scanned,
      });
      const { skipped } = summary;
      if (skipped.too_large + skipped.not_text + skipped.unreadable > 0)
        data.data.skipped_files = { ...skipped };
      const notes = [skippedNote(skipped, maxFileBytes, mounted, "rewritten")];
      if (data.data.files.length === 0) {
        const read = `${formatCount(summary.scanned)} ${language.name} file${summary.scanned === 1 ? "" : "s"} read`;
        notes.unshift(
          listed.found === 0
            ? `No visible ${language.name} file in ${resolved.display}; nothing to rewrite.`
            : `No match in the ${read} in ${resolved.display}; nothing to rewrite.${skipped.too_large + skipped.not_text + skipped.unreadable > 0 ? "" : mounted.when("ast_search", " Try the pattern with ast_search.")}`,
        );
      }
      const message = notes.filter((note) => note !== undefined).join(" ");
      if (message.length > 0) data.data.message = message;
      return data;
    },
    render: (data) => formatAstRewriteResult(data, maxOutputCharacters),
  });
}

/** Plans the change set (expected shas attached), then commits it unless it is a dry run. */
async function applyChanges(
  changes: FileChange[],
  replacements: ReadonlyMap<string, number>,
  request: z.output<typeof astRewriteInputSchema>,
  context: { workspace: Workspace; signal: AbortSignal; name: string; maxFileBytes: number },
) {
  const { workspace } = context;
  const byPath = new Map(changes.map((change) => [change.path, change]));
  for (const expected of request.expected_shas ?? []) {
    const path = (await workspace.resolve(expected.path)).path;
    const change = byPath.get(path);
    if (change !== undefined && change.kind === "update") change.expectedSha = expected.sha;
    else changes.push({ kind: "update", path, expectedSha: expected.sha, edit: (text) => text });
  }
  const dryRun = request.dry_run ?? false;
  const data: AstRewriteToolData = {
    pattern: request.pattern,
    rewrite: request.rewrite,
    language: "",
    path: "",
    dry_run: dryRun,
    applied: false,
    files: [],
    total_replacements: 0,
    added: 0,
    removed: 0,
    files_in_scope: 0,
    scanned_files: 0,
  };
  if (changes.length === 0) return ok(data);
  const planned = await planChangeSet(workspace, changes, {
    signal: context.signal,
    maxFileBytes: context.maxFileBytes,
  });
  if (!planned.success) return planned;
  const changed = planned.data.files.filter((file) => file.changed);
  data.files = changed.map((file) => ({
    path: file.path,
    replacements: replacements.get(file.path) ?? 0,
    diff: file.diff.text,
    diff_truncated: file.diff.truncated,
    diff_omitted_lines: file.diff.omittedLines,
    added: file.diff.added,
    removed: file.diff.removed,
    previous_sha: file.previousSha as string,
    sha: file.sha as string,
  }));
  data.total_replacements = data.files.reduce((sum, file) => sum + file.replacements, 0);
  data.added = data.files.reduce((sum, file) => sum + file.added, 0);
  data.removed = data.files.reduce((sum, file) => sum + file.removed, 0);
  if (dryRun || changed.length === 0) return ok(data);
  const committed = await commitChangeSet(workspace, planned.data, {
    signal: context.signal,
    tool: context.name,
  });
  if (!committed.success) return committed;
  data.applied = true;
  return ok(data);
}
