import { AgentoolError, fail, ok, ToolFailureError, type ToolResult } from "@agentool/contract";
import {
  type ChangeSetCommit,
  type CommitTarget,
  commitTargets,
} from "./internal/change-set-commit.js";
import {
  type ChangeSetPlan,
  type FileChange,
  type PlanChangeSetOptions,
  type PlannedFile,
  planAdd,
  planDelete,
  planUpdate,
  refuseOverlaps,
} from "./internal/change-set-plan.js";
import type { Workspace } from "./workspace.js";

export type { ChangeSetCommit, CommittedFile } from "./internal/change-set-commit.js";
export type {
  ChangeSetDiff,
  ChangeSetPlan,
  FileChange,
  FileEditFailure,
  FileEditResult,
  PlanChangeSetOptions,
  PlannedFile,
} from "./internal/change-set-plan.js";

/** Options of {@link commitChangeSet}. */
export interface CommitChangeSetOptions {
  /** Checked before the first rename only: once renaming starts it finishes or is rolled back. */
  signal?: AbortSignal;
  /** The tool named when a later `CONFLICT` says the file is as this commit left it. Default `apply_patch`. */
  tool?: string;
}

const plans = new WeakMap<ChangeSetPlan, { workspace: Workspace; targets: CommitTarget[] }>();

/**
 * Plans a multi-file change set — updates (optionally moved), adds and deletes — without writing
 * anything: every path is confined (`..`, absolute paths outside the root and symlink escapes
 * refused with `INVALID_PATH`), secret paths and anything under `.git` refused (`BLOCKED`),
 * binary files refused (`UNSUPPORTED`), each `expectedSha` checked (`CONFLICT`), each update's
 * `edit` run on the file's working text (LF, no BOM) and the new bytes encoded as `edit_file`
 * does (encoding, BOM and CRLF kept). A file named twice, an add onto an existing file or a move
 * onto one is refused. The first failure refuses the whole set.
 *
 * @param workspace - the confinement layer the tools share
 * @param changes - the files to change, in order
 * @param options - a signal, the file-size cap and the diff caps
 * @returns `ok(plan)` with each file's diff and new sha, or the failure (never rejects for a
 *   refusal; a bug in `edit` that throws something other than a `ToolFailureError` propagates)
 * @example
 * const planned = await planChangeSet(workspace, [
 *   { kind: "update", path: "src/a.ts", edit: (text) => text.replace("oldName", "newName") },
 *   { kind: "add", path: "src/b.ts", text: "export const b = 1;\n" },
 *   { kind: "delete", path: "src/old.ts" },
 * ]);
 * if (!planned.success) return planned; // a ToolFailure, returnable from execute
 * planned.data.files.map((file) => file.diff.text);
 */
export async function planChangeSet(
  workspace: Workspace,
  changes: readonly FileChange[],
  options: PlanChangeSetOptions = {},
): Promise<ToolResult<ChangeSetPlan>> {
  if (changes.length === 0) {
    return fail("INVALID_INPUT", "The change set is empty; nothing to do.", {
      hint: "Name at least one file to update, add or delete.",
    });
  }
  const files: PlannedFile[] = [];
  const targets: CommitTarget[] = [];
  const deleted = new Set<string>();
  try {
    for (const change of changes) {
      if (options.signal?.aborted === true) {
        return fail("ABORTED", "Planning the change set was cancelled; nothing was written.", {
          retryable: true,
        });
      }
      const planned =
        change.kind === "update"
          ? await planUpdate(workspace, change, options)
          : change.kind === "add"
            ? await planAdd(workspace, change, options, deleted)
            : await planDelete(workspace, change, options);
      if (change.kind === "delete" && planned.target.source !== undefined) {
        deleted.add(planned.target.source.real);
      }
      files.push(planned.file);
      targets.push(planned.target);
    }
    refuseOverlaps(targets);
  } catch (error) {
    const failure = ToolFailureError.find(error);
    if (failure === undefined) throw error;
    return failure.toFailure();
  }
  const plan: ChangeSetPlan = Object.freeze({
    files: Object.freeze(files),
    added: files.reduce((sum, file) => sum + file.diff.added, 0),
    removed: files.reduce((sum, file) => sum + file.diff.removed, 0),
  });
  plans.set(plan, { workspace, targets });
  return ok(plan);
}

/**
 * Writes a planned change set, all files or none, under the workspace's exclusive lock (do not
 * call it inside a `with…Lock`): each new content is first written to a temporary file beside
 * its target; then every file is checked to be exactly as planned (sha of each changed or
 * deleted file, nothing at each new path) — else `CONFLICT` and nothing changes; then the
 * temporary files are renamed over their targets and deleted or moved-away files set aside. If
 * any step fails, everything already done is undone from the old bytes (permission bits kept),
 * temporary files and directories it created are removed, and the failure says so.
 *
 * @param workspace - the workspace the plan was made with
 * @param plan - from {@link planChangeSet}
 * @param options - a signal (checked before the first rename) and the tool name for later conflicts
 * @returns `ok({ files })` with each file's new sha, or the failure
 * @throws AgentoolError when the plan was not made by planChangeSet with this workspace
 * @example
 * const planned = await planChangeSet(workspace, changes);
 * if (!planned.success) return planned;
 * const committed = await commitChangeSet(workspace, planned.data, { tool: "ast_rewrite" });
 * if (!committed.success) return committed;
 * committed.data.files; // [{ kind: "update", path: "src/a.ts", sha: "…", … }, …]
 */
export async function commitChangeSet(
  workspace: Workspace,
  plan: ChangeSetPlan,
  options: CommitChangeSetOptions = {},
): Promise<ToolResult<ChangeSetCommit>> {
  const internal = plans.get(plan);
  if (internal === undefined || internal.workspace !== workspace) {
    throw new AgentoolError(
      "commitChangeSet: the plan was not made by planChangeSet with this workspace.",
    );
  }
  return workspace.withExclusiveLock(() =>
    commitTargets(workspace.fileSystem, internal.targets, {
      tool: options.tool ?? "apply_patch",
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    }),
  );
}
