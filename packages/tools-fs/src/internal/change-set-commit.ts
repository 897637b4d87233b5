/**
 * Writing a planned change set all files or none: temporary files beside each target, a check
 * that every file is as planned, renames, and a journal that undoes every step done when a later
 * one fails.
 *
 * @internal
 */

import { errorMessage, fail, ok, ToolFailureError, type ToolResult } from "@agentool/contract";
import { type FileSystem, FileSystemError } from "../file-system.js";
import { lastRecordedWrite, recordWrite } from "./editable-file.js";
import { SHORT_SHA_LENGTH } from "./text-codec.js";

/** One file of a committed change set. */
export interface CommittedFile {
  /** What happened to it (an update with `moveTo` was moved). */
  kind: "update" | "add" | "delete";
  /** The workspace path as shown to the model. */
  path: string;
  /** Where an update moved the file. */
  moveTo: string | undefined;
  /** sha-256 before (undefined for an add). */
  previousSha: string | undefined;
  /** sha-256 now (undefined for a delete): what `expected_sha` takes next. */
  sha: string | undefined;
  /** Whether bytes were written for it (false for a delete and an unchanged, unmoved update). */
  written: boolean;
}

/** What {@link commitTargets} returns. */
export interface ChangeSetCommit {
  /** Each file, in the order of the plan. */
  files: CommittedFile[];
}

/** How the commit touches one file. */
export interface CommitTarget {
  /** The file as shown to the model. */
  display: string;
  /** The result once committed. */
  committed: CommittedFile;
  /** The existing file (updates, deletes): its real path, old bytes, sha and permission bits. */
  source?: { real: string; bytes: Uint8Array; sha: string; mode: number | undefined };
  /** New bytes to put at `real` (`created`: nothing is there now). */
  write?: { real: string; display: string; bytes: Uint8Array; sha: string; created: boolean };
  /** Whether the source goes away (a delete, or the old place of a move). */
  removeSource: boolean;
}

interface Journal {
  temporaries: string[];
  directories: string[];
  undo: Array<{ display: string; run: () => Promise<void> }>;
  setAside: string[];
}

function parentOf(path: string): string {
  const index = path.lastIndexOf("/");
  return index === -1 ? "" : path.slice(0, index);
}

function besides(real: string, purpose: string): string {
  const random = new Uint8Array(6);
  globalThis.crypto.getRandomValues(random);
  const suffix = [...random].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const parent = parentOf(real);
  const name = real.slice(real.lastIndexOf("/") + 1);
  return `${parent.length === 0 ? "" : `${parent}/`}.${name}.${suffix}.agentool-${purpose}`;
}

/** Creates `directory` and its missing parents, remembering the ones it made (deepest first). */
async function createParents(fileSystem: FileSystem, directory: string, journal: Journal) {
  const missing: string[] = [];
  for (let current = directory; current.length > 0; current = parentOf(current)) {
    if ((await fileSystem.stat(current)) !== undefined) break;
    missing.push(current);
  }
  if (missing.length === 0) return;
  await fileSystem.createDirectory(directory);
  journal.directories.push(...missing);
}

/** A temporary or set-aside name made by {@link besides}: `.<name>.<12 hex>.agentool-<purpose>`. */
const TEMPORARY_NAME = /\.([^/\s]+?)\.[0-9a-f]{12}\.agentool-(?:patch|removed)\b/g;

/**
 * A message with every temporary name replaced by the file it stands for (the temporary lies
 * beside its target, so the folder part is already right): the model never sees them.
 */
function hideTemporaryNames(text: string): string {
  return text.replace(TEMPORARY_NAME, "$1");
}

/** `CONFLICT`: a file changed between planning and writing (not the model's sha: its own read). */
function changedMeanwhile(
  fileSystem: FileSystem,
  target: CommitTarget & { source: NonNullable<CommitTarget["source"]> },
  sha: string | undefined,
  tool: string,
): FileSystemError {
  if (sha === undefined) {
    return new FileSystemError(
      "CONFLICT",
      `${target.display} was deleted or replaced while ${tool} was applying the changes.`,
      "Check whether it was moved (glob_search), then send the change again.",
    );
  }
  const last = lastRecordedWrite(fileSystem, target.source.real);
  const by = last?.sha === sha ? ` (by a concurrent ${last.tool} call)` : "";
  return new FileSystemError(
    "CONFLICT",
    `${target.display} changed while ${tool} was applying the changes${by}: its sha is now ${sha.slice(0, SHORT_SHA_LENGTH)}; read it again.`,
    `Re-read ${target.display} with read_file, then send the change again against its current content.`,
  );
}

async function verify(
  fileSystem: FileSystem,
  targets: readonly CommitTarget[],
  tool: string,
): Promise<void> {
  for (const target of targets) {
    const source = target.source;
    if (source !== undefined) {
      const stat = await fileSystem.stat(source.real);
      if (stat?.type !== "file")
        throw changedMeanwhile(fileSystem, { ...target, source }, undefined, tool);
      const sha = await fileSystem.digest(source.real);
      if (sha !== source.sha) throw changedMeanwhile(fileSystem, { ...target, source }, sha, tool);
    }
    if (
      target.write?.created === true &&
      (await fileSystem.stat(target.write.real)) !== undefined
    ) {
      throw new FileSystemError(
        "CONFLICT",
        `${target.write.display} appeared since the change set was planned.`,
        `Look at it with read_file, then send the change again.`,
      );
    }
  }
}

async function rollBack(fileSystem: FileSystem, journal: Journal): Promise<string[]> {
  const problems: string[] = [];
  for (const step of journal.undo.reverse()) {
    try {
      await step.run();
    } catch (error) {
      problems.push(`${step.display} (${errorMessage(error)})`);
    }
  }
  for (const temporary of journal.temporaries) {
    await fileSystem.remove(temporary, { recursive: false }).catch(() => undefined);
  }
  for (const directory of journal.directories) {
    await fileSystem.remove(directory, { recursive: false }).catch(() => undefined);
  }
  return problems;
}

async function runSteps(
  fileSystem: FileSystem,
  targets: readonly CommitTarget[],
  journal: Journal,
  options: { tool: string; signal?: AbortSignal },
): Promise<void> {
  const temporaries = new Map<CommitTarget, string>();
  for (const target of targets) {
    if (target.write === undefined) continue;
    await createParents(fileSystem, parentOf(target.write.real), journal);
    const temporary = besides(target.write.real, "patch");
    const mode = target.source?.mode;
    await fileSystem.writeFile(temporary, target.write.bytes, mode === undefined ? {} : { mode });
    journal.temporaries.push(temporary);
    temporaries.set(target, temporary);
  }
  await verify(fileSystem, targets, options.tool);
  if (options.signal?.aborted === true) {
    throw new ToolFailureError("ABORTED", "The change set was cancelled before writing.", {
      retryable: true,
    });
  }
  for (const target of targets) {
    const write = target.write;
    const temporary = temporaries.get(target);
    if (write === undefined || temporary === undefined) continue;
    await fileSystem.rename(temporary, write.real);
    journal.temporaries.splice(journal.temporaries.indexOf(temporary), 1);
    const source = target.source;
    journal.undo.push({
      display: write.display,
      run:
        write.created || source === undefined
          ? () => fileSystem.remove(write.real, { recursive: false })
          : () =>
              fileSystem.writeFile(
                write.real,
                source.bytes,
                source.mode === undefined ? {} : { mode: source.mode },
              ),
    });
  }
  for (const target of targets) {
    const source = target.source;
    if (!target.removeSource || source === undefined) continue;
    const aside = besides(source.real, "removed");
    await fileSystem.rename(source.real, aside);
    journal.setAside.push(aside);
    journal.undo.push({
      display: target.display,
      run: () => fileSystem.rename(aside, source.real),
    });
  }
}

/**
 * Commits planned targets (see `commitChangeSet`): temporary files, a check that nothing changed
 * since planning, renames, set-aside removals; any failure undoes what was done.
 *
 * @internal
 */
export async function commitTargets(
  fileSystem: FileSystem,
  targets: readonly CommitTarget[],
  options: { tool: string; signal?: AbortSignal },
): Promise<ToolResult<ChangeSetCommit>> {
  const journal: Journal = { temporaries: [], directories: [], undo: [], setAside: [] };
  try {
    await runSteps(fileSystem, targets, journal, options);
  } catch (error) {
    const renamed = journal.undo.length;
    const problems = await rollBack(fileSystem, journal);
    if (problems.length > 0) {
      return fail(
        "INTERNAL",
        hideTemporaryNames(
          `The change set failed part-way (${errorMessage(error)}) and restoring failed for ${problems.join(", ")}; the other files are as before.`,
        ),
        {
          hint: "Check those files with read_file before going on; ask the user if they are damaged.",
        },
      );
    }
    const failure = ToolFailureError.find(error);
    if (failure === undefined) throw error;
    const note =
      renamed === 0
        ? " Nothing was written."
        : ` Nothing was changed: the ${renamed} ${renamed === 1 ? "step" : "steps"} already done ${renamed === 1 ? "was" : "were"} undone.`;
    return fail(failure.code, hideTemporaryNames(`${failure.message}${note}`), {
      ...(failure.hint === undefined ? {} : { hint: hideTemporaryNames(failure.hint) }),
      ...(failure.retryable === undefined ? {} : { retryable: failure.retryable }),
    });
  }
  for (const aside of journal.setAside) {
    await fileSystem.remove(aside, { recursive: false }).catch(() => undefined);
  }
  for (const target of targets) {
    if (target.write !== undefined) {
      recordWrite(fileSystem, target.write.real, { sha: target.write.sha, tool: options.tool });
    }
  }
  return ok({ files: targets.map((target) => target.committed) });
}
