import {
  defineTool,
  fail,
  joinSentences,
  type MountedTools,
  mountedTools,
  ok,
  parseOptions,
  type Tool,
  type ToolFailure,
} from "@agentool/contract";
import { z } from "zod";
import {
  type ApplyPatchFile,
  type ApplyPatchToolData,
  combinedDiff,
  formatApplyPatchResult,
} from "./apply-patch-format.js";
import {
  type CommittedFile,
  commitChangeSet,
  type FileChange,
  planChangeSet,
} from "./change-set.js";
import {
  DEFAULT_MAX_EDIT_FILE_BYTES,
  type EditToolOptions,
  editToolOptionsShape,
} from "./edit-file.js";
import { EXPECTED_SHA_PATTERN } from "./internal/editable-file.js";
import { applyHunks, type HunkOutcome } from "./internal/patch-hunks.js";
import { type PatchOperation, parsePatch } from "./internal/patch-parse.js";
import { DEFAULT_MAX_DIFF_CHARACTERS, DEFAULT_MAX_DIFF_LINES } from "./internal/unified-diff.js";
import { normalizeWorkspacePath, type Workspace } from "./workspace.js";

export {
  type ApplyPatchFile,
  type ApplyPatchToolData,
  formatApplyPatchResult,
} from "./apply-patch-format.js";

/** The default name of the patch tool. */
export const APPLY_PATCH_TOOL_NAME = "apply_patch";

/** Default cap on a patch's size: 1 MiB of UTF-8. */
export const DEFAULT_MAX_PATCH_BYTES = 1_048_576;

/** Default cap on the lines of one hunk (or one added file). */
export const DEFAULT_MAX_HUNK_LINES = 10_000;

/** Default cap on the files one patch changes. */
export const DEFAULT_MAX_PATCH_FILES = 200;

/** Options of {@link createApplyPatchTool}. */
export interface ApplyPatchToolOptions extends EditToolOptions {
  /** Largest patch, in UTF-8 bytes (`TOO_LARGE` past it). Default {@link DEFAULT_MAX_PATCH_BYTES}. */
  maxPatchBytes?: number;
  /** Most lines in one hunk. Default {@link DEFAULT_MAX_HUNK_LINES}. */
  maxHunkLines?: number;
  /** Most files in one patch. Default {@link DEFAULT_MAX_PATCH_FILES}. */
  maxFiles?: number;
  /**
   * Offer the `expected_shas` field (each changed file's sha from read_file; `CONFLICT` if one
   * changed since). Default `false`: a hunk already has to match the file as it is now, and the
   * field costs ~80 tokens of definition on every call.
   */
  expectedShas?: boolean;
}

const optionsSchema = z.object({
  ...editToolOptionsShape,
  maxPatchBytes: z.number().int().min(1_024).max(268_435_456).optional(),
  maxHunkLines: z.number().int().min(10).max(10_000_000).optional(),
  maxFiles: z.number().int().min(1).max(10_000).optional(),
  expectedShas: z.boolean().optional(),
});

function createInputSchema(mounted: MountedTools, maxFiles: number) {
  const read = mounted.first("read_file");
  return z.object({
    patch: z.string().describe("The patch."),
    dry_run: z.boolean().optional().describe("Return the diff without writing."),
    expected_shas: z
      .array(
        z
          .object({ path: z.string().describe("File path."), sha: z.string().describe("Its sha.") })
          .strict(),
      )
      .max(maxFiles)
      .optional()
      .describe(
        `Files${read === undefined ? "' shas" : ` with the sha from ${read}`}; CONFLICT if one changed.`,
      ),
  });
}

/** The input without `expected_shas` (the default: see {@link ApplyPatchToolOptions.expectedShas}). */
function createPlainInputSchema() {
  return z.object({
    patch: z.string().describe("The patch."),
    dry_run: z.boolean().optional().describe("Return the diff without writing."),
  });
}

/** The patch tool's input schema (descriptions as when read_file is mounted). */
export const applyPatchInputSchema = createInputSchema(
  mountedTools(["read_file"]),
  DEFAULT_MAX_PATCH_FILES,
);

/** The patch tool's input. */
export type ApplyPatchToolInput = z.output<typeof applyPatchInputSchema>;

/** Names other toolsets use for the patch, accepted silently (Codex's function tool sends `input`). */
export const APPLY_PATCH_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  input: "patch",
  diff: "patch",
});

/** The patch tool's type. */
export type ApplyPatchTool = Tool<typeof applyPatchInputSchema, ApplyPatchToolData>;

function defaultDescription(mounted: MountedTools): string {
  return joinSentences(
    [
      "Apply a patch to one or more files, all or nothing: Codex format (*** Begin Patch, *** Update/Add/Delete File: p, *** Move to: q, @@ hunks) or a unified diff.",
      "Hunks are found by context lines; keep 3.",
      mounted.when("edit_file", "For one change edit_file is simpler."),
    ],
    " ",
  );
}

/** The key a path is matched by in `expected_shas` (normalised, or as sent when invalid). */
function pathKey(workspace: Workspace, path: string): string {
  try {
    return normalizeWorkspacePath(path, workspace.fileSystem.displayRoot);
  } catch {
    return path;
  }
}

function toChanges(
  workspace: Workspace,
  operations: readonly PatchOperation[],
  shas: ReadonlyMap<string, string>,
  outcomes: Map<PatchOperation, HunkOutcome>,
  signal: AbortSignal,
): FileChange[] {
  return operations.map((operation): FileChange => {
    const expectedSha = shas.get(pathKey(workspace, operation.path));
    const sha = expectedSha === undefined ? {} : { expectedSha };
    if (operation.kind === "add")
      return { kind: "add", path: operation.path, text: operation.text };
    if (operation.kind === "delete") return { kind: "delete", path: operation.path, ...sha };
    const outcome: HunkOutcome = { hunks: 0, tolerant: [], strippedLineNumbers: [] };
    outcomes.set(operation, outcome);
    const display = workspace.display(pathKey(workspace, operation.path));
    return {
      kind: "update",
      path: operation.path,
      ...sha,
      ...(operation.moveTo === undefined ? {} : { moveTo: operation.moveTo }),
      edit: (text) => applyHunks(text, operation.hunks, display, outcome, signal),
    };
  });
}

function refusal(failure: ToolFailure): ToolFailure {
  const { code, message, hint } = failure.error;
  const next =
    code === "FILE_NOT_FOUND"
      ? "Check the path with glob_search; to create a file use '*** Add File:' (or '--- /dev/null')."
      : hint;
  return fail(code, `${message}${message.includes("\n") ? "\n" : " "}Nothing was written.`, {
    ...(next === undefined ? {} : { hint: next }),
    ...(failure.error.retryable === undefined ? {} : { retryable: failure.error.retryable }),
  });
}

/**
 * Creates the `apply_patch` tool: one patch, many files, all or nothing — Codex's format
 * (`*** Begin Patch` / `*** Update File:` / `*** Add File:` / `*** Delete File:` /
 * `*** Move to:` / `@@` hunks / `*** End of File` / `*** End Patch`) or a plain unified diff
 * (`git diff`, renames and `/dev/null` included). Each hunk is located by its context with
 * edit_file's tolerance and diagnostics; files are planned and committed through
 * {@link planChangeSet} / {@link commitChangeSet}, so confinement, secret and `.git` refusal,
 * `expected_shas`, encoding/BOM/CRLF and atomicity are the fs family's own. `dry_run` returns the
 * diff without writing.
 *
 * @param options - the workspace, overrides, caps on the patch, hunks, files, file size and diff
 * @returns the tool
 * @throws AgentoolError when the options are invalid (unknown key, wrong type)
 * @example
 * const applyPatch = createApplyPatchTool({ workspace });
 * await applyPatch.run({
 *   patch: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const x = 1;\n+const x = 2;\n*** End Patch",
 * });
 */
export function createApplyPatchTool(options: ApplyPatchToolOptions): ApplyPatchTool {
  const parsed = parseOptions("createApplyPatchTool", optionsSchema, options);
  const workspace = parsed.workspace;
  const name = parsed.name ?? APPLY_PATCH_TOOL_NAME;
  const maxPatchBytes = parsed.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  const maxHunkLines = parsed.maxHunkLines ?? DEFAULT_MAX_HUNK_LINES;
  const maxFiles = parsed.maxFiles ?? DEFAULT_MAX_PATCH_FILES;
  const maxDiffLines = parsed.maxDiffLines ?? DEFAULT_MAX_DIFF_LINES;
  const maxDiffCharacters = parsed.maxDiffCharacters ?? DEFAULT_MAX_DIFF_CHARACTERS;
  const mounted = mountedTools(parsed.mountedTools);
  const readTool = mounted.first("read_file");

  return defineTool({
    name,
    description: parsed.description ?? defaultDescription(mounted),
    // Both shapes parse to the same request; without the field, expected_shas is never sent.
    input:
      parsed.expectedShas === true
        ? createInputSchema(mounted, maxFiles)
        : (createPlainInputSchema() as unknown as ReturnType<typeof createInputSchema>),
    aliases: APPLY_PATCH_ALIASES,
    annotations: { title: "Apply patch", destructive: true },
    tags: ["fs:write"],
    maxInputBytes: maxPatchBytes * 2 + 65_536,
    execute: async (request, context) => {
      const size = new TextEncoder().encode(request.patch).length;
      if (size > maxPatchBytes) {
        return fail(
          "TOO_LARGE",
          `The patch is ${size} bytes; ${name} takes at most ${maxPatchBytes}.`,
          {
            hint: "Split it into several patches (a few files each) and send them one by one.",
          },
        );
      }
      const parsedPatch = parsePatch(request.patch, { maxHunkLines });
      if (!parsedPatch.ok) {
        return fail(parsedPatch.error.code, `${parsedPatch.error.message} Nothing was written.`, {
          hint:
            parsedPatch.error.code === "TOO_LARGE"
              ? "Split the change into smaller hunks or several patches."
              : "Fix the patch at that line and send it whole again.",
        });
      }
      const { operations, format } = parsedPatch.value;
      if (operations.length > maxFiles) {
        return fail(
          "TOO_LARGE",
          `The patch changes ${operations.length} files; ${name} takes at most ${maxFiles}.`,
          {
            hint: "Split it into several patches.",
          },
        );
      }
      const changed = new Set(operations.map((operation) => pathKey(workspace, operation.path)));
      const shas = new Map<string, string>();
      for (const entry of request.expected_shas ?? []) {
        if (!EXPECTED_SHA_PATTERN.test(entry.sha)) {
          return fail(
            "INVALID_INPUT",
            `expected_shas: the sha of ${entry.path} must be 12 to 64 hex characters.`,
            {
              hint: "Copy the sha from read_file's header or your last edit's result.",
            },
          );
        }
        const key = pathKey(workspace, entry.path);
        if (!changed.has(key)) {
          return fail(
            "INVALID_INPUT",
            `expected_shas names ${entry.path}, which the patch does not update or delete.`,
            {
              hint: "List only files the patch changes, by the paths it uses.",
            },
          );
        }
        shas.set(key, entry.sha);
      }
      const outcomes = new Map<PatchOperation, HunkOutcome>();
      const planned = await planChangeSet(
        workspace,
        toChanges(workspace, operations, shas, outcomes, context.signal),
        {
          signal: context.signal,
          maxFileBytes: parsed.maxFileBytes ?? DEFAULT_MAX_EDIT_FILE_BYTES,
          ...(parsed.diffContextLines === undefined
            ? {}
            : { diffContextLines: parsed.diffContextLines }),
          maxDiffLines,
          maxDiffCharacters,
        },
      );
      if (!planned.success) return refusal(planned);
      const plan = planned.data;
      const dryRun = request.dry_run === true;
      let committed: CommittedFile[] | undefined;
      if (!dryRun) {
        const result = await commitChangeSet(workspace, plan, {
          signal: context.signal,
          tool: name,
        });
        if (!result.success) return result;
        committed = result.data.files;
      }
      const { diff, truncated, omitted } = combinedDiff(plan, maxDiffLines, maxDiffCharacters);
      const files = plan.files.map((file, index): ApplyPatchFile => {
        const operation = operations[index] as PatchOperation;
        const outcome = outcomes.get(operation);
        const sha = committed?.[index]?.sha ?? file.sha;
        return {
          path: file.path,
          action:
            file.kind === "add"
              ? "added"
              : file.kind === "delete"
                ? "deleted"
                : file.moveTo === undefined
                  ? "updated"
                  : "moved",
          ...(file.moveTo === undefined ? {} : { move_to: file.moveTo }),
          hunks: outcome?.hunks ?? 0,
          added: file.diff.added,
          removed: file.diff.removed,
          ...(file.previousSha === undefined ? {} : { previous_sha: file.previousSha }),
          ...(sha === undefined ? {} : { sha }),
          tolerant_hunks: outcome?.tolerant.map((entry) => entry.hunk) ?? [],
          stripped_line_numbers: outcome?.strippedLineNumbers ?? [],
        };
      });
      return ok({
        format,
        dry_run: dryRun,
        files,
        added: plan.added,
        removed: plan.removed,
        diff,
        diff_truncated: truncated,
        diff_omitted_lines: omitted,
      });
    },
    render: (data) => formatApplyPatchResult(data, { readTool }),
  });
}
