/**
 * Planning a change set: the public types and the steps of `planChangeSet` (resolve and refuse,
 * load, run the edits, encode, diff) that produce each file's plan and commit target.
 *
 * @internal
 */

import { type ErrorCode, ToolFailureError } from "@agentool/contract";
import { FileSystemError } from "../file-system.js";
import {
  gitPrivateError,
  isGitPrivatePath,
  type ResolvedPath,
  type Workspace,
} from "../workspace.js";
import type { CommitTarget } from "./change-set-commit.js";
import { type EditableFile, encodeEditedText, loadEditableFile } from "./editable-file.js";
import { listedEntry } from "./listed-entry.js";
import { encodeText, type LineEnding, sha256Hex, type TextEncodingName } from "./text-codec.js";
import {
  createUnifiedDiff,
  DEFAULT_DIFF_CONTEXT_LINES,
  DEFAULT_MAX_DIFF_CHARACTERS,
  DEFAULT_MAX_DIFF_LINES,
} from "./unified-diff.js";

/** Default cap on the size of a file a change set loads: 32 MiB, as the edit tools. */
const DEFAULT_MAX_FILE_BYTES = 32 * 1_048_576;

/** What an update's `edit` returns: the new working text, or why the change cannot be made. */
export type FileEditResult = string | FileEditFailure;

/** An update's refusal: the whole change set is refused with it. */
export interface FileEditFailure {
  /** What went wrong, written for the model (name the file and the place). */
  error: string;
  /** The shared error code. Default `INVALID_INPUT`. */
  code?: ErrorCode;
  /** What to do next. */
  hint?: string;
}

/** One file of a change set. Paths are the model's, relative to the workspace root. */
export type FileChange =
  | {
      kind: "update";
      path: string;
      /** The file's text in working form (LF, no BOM) → the new working text, or a refusal. */
      edit: (text: string) => FileEditResult | Promise<FileEditResult>;
      /** A sha prefix (12–64 hex) the file must still have, else `CONFLICT`. */
      expectedSha?: string;
      /** Move the (edited) file here; the destination must not exist. */
      moveTo?: string;
    }
  | {
      kind: "add";
      path: string /** The new file's text (written as UTF-8, as given). */;
      text: string;
    }
  | { kind: "delete"; path: string /** As for updates. */; expectedSha?: string };

/** Options of `planChangeSet`. */
export interface PlanChangeSetOptions {
  /** Stops planning (`ABORTED`). */
  signal?: AbortSignal;
  /** Largest file loaded, in bytes (`TOO_LARGE` past it). Default 32 MiB, as the edit tools. */
  maxFileBytes?: number;
  /** Context lines around each change in the diffs. Default 3. */
  diffContextLines?: number;
  /** Most lines of each file's diff kept. Default 200. */
  maxDiffLines?: number;
  /** Most characters of each file's diff kept. Default 20,000. */
  maxDiffCharacters?: number;
}

/** A file's diff in a plan (counts are of the whole diff, `text` may be cut). */
export interface ChangeSetDiff {
  /**
   * Unified diff (`--- a/p` / `+++ b/p`, `/dev/null` for adds and deletes); empty when unchanged.
   * Each line of a private-key block reads `[private key redacted]` (prefix, counts and line
   * numbers kept), as read_file shows it.
   */
  text: string;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Hunks. */
  hunks: number;
  /** Whether lines of `text` were left out. */
  truncated: boolean;
  /** Lines left out after `text`. */
  omittedLines: number;
}

/** One file of a {@link ChangeSetPlan}. */
export interface PlannedFile {
  /** What happens to it (an update with `moveTo` is a move). */
  kind: "update" | "add" | "delete";
  /** The workspace path as shown to the model. */
  path: string;
  /** Where an update moves the file, as shown to the model. */
  moveTo: string | undefined;
  /** sha-256 before (undefined for an add). */
  previousSha: string | undefined;
  /** sha-256 after (undefined for a delete). */
  sha: string | undefined;
  /** Whether the content changes (a pure move or a no-op edit: false). */
  changed: boolean;
  /** The text before, in working form (`""` for an add). */
  before: string;
  /** The text after, in working form (`""` for a delete). */
  after: string;
  /** The file's encoding (kept; `utf-8` for an add). */
  encoding: TextEncodingName;
  /** The file's line endings (kept). */
  lineEnding: LineEnding;
  /** The diff of this file. */
  diff: ChangeSetDiff;
}

/** What `planChangeSet` computed; nothing is written until `commitChangeSet`. */
export interface ChangeSetPlan {
  /** Each file, in the order of the changes. */
  readonly files: readonly PlannedFile[];
  /** Lines added over all files. */
  readonly added: number;
  /** Lines removed over all files. */
  readonly removed: number;
}

function shown(workspace: Workspace, resolved: ResolvedPath): string {
  return workspace.display(resolved.path);
}

function refuseGit(resolved: ResolvedPath): void {
  if (isGitPrivatePath(resolved.path) || isGitPrivatePath(resolved.real))
    throw gitPrivateError(resolved.path);
}

async function resolveTarget(workspace: Workspace, path: string, argument: string) {
  const resolved = await workspace.resolve(path, { allowRoot: false, argument });
  refuseGit(resolved);
  return resolved;
}

/** The entry at a real path as listed (a symlink not followed), or `undefined`. */
async function entryAt(workspace: Workspace, real: string) {
  const index = real.lastIndexOf("/");
  return listedEntry(
    workspace.fileSystem,
    index === -1 ? "" : real.slice(0, index),
    real.slice(index + 1),
  );
}

async function refuseExisting(workspace: Workspace, resolved: ResolvedPath, what: string) {
  const stat = await workspace.fileSystem.stat(resolved.real);
  if (stat !== undefined || (await entryAt(workspace, resolved.real)) !== undefined) {
    throw new FileSystemError(
      "FILE_ALREADY_EXISTS",
      `${what} ${resolved.display} already exists.`,
      what === "add"
        ? "Change the existing file with an update instead (or delete it in a separate call first)."
        : "Choose a destination that does not exist, or delete that file first in a separate call.",
    );
  }
}

/** Refuses a symlink where the change would act on the link itself (a move or a delete). */
async function refuseSymlink(workspace: Workspace, resolved: ResolvedPath, verb: string) {
  const parent = resolved.path.includes("/")
    ? resolved.path.slice(0, resolved.path.lastIndexOf("/"))
    : "";
  const location = `${parent.length === 0 ? "" : `${await workspace.fileSystem.realPath(parent)}/`}${resolved.path.slice(resolved.path.lastIndexOf("/") + 1)}`;
  const entry = await entryAt(workspace, location);
  if (entry?.type === "symlink") {
    throw new FileSystemError(
      "UNSUPPORTED",
      `${resolved.display} is a symlink; a change set does not ${verb} links.`,
      "Change the file it points to instead, or use the move or delete tool on the link.",
    );
  }
}

function diffOf(
  before: string,
  after: string,
  path: { from: string | undefined; to: string | undefined },
  options: PlanChangeSetOptions,
): ChangeSetDiff {
  const diff = createUnifiedDiff(before, after, {
    path: path.to ?? path.from ?? "",
    fromPath: path.from ?? null,
    toPath: path.to ?? null,
    context: options.diffContextLines ?? DEFAULT_DIFF_CONTEXT_LINES,
    maxLines: options.maxDiffLines ?? DEFAULT_MAX_DIFF_LINES,
    maxCharacters: options.maxDiffCharacters ?? DEFAULT_MAX_DIFF_CHARACTERS,
  });
  const { text, added, removed, hunks, truncated, omittedLines } = diff;
  return { text, added, removed, hunks, truncated, omittedLines };
}

/** @internal */
export async function planUpdate(
  workspace: Workspace,
  change: Extract<FileChange, { kind: "update" }>,
  options: PlanChangeSetOptions,
): Promise<{ file: PlannedFile; target: CommitTarget }> {
  const fileSystem = workspace.fileSystem;
  const resolved = await resolveTarget(workspace, change.path, "path");
  const loaded: EditableFile = await loadEditableFile(fileSystem, resolved, {
    maxBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    expectedSha: change.expectedSha,
  });
  let destination: ResolvedPath | undefined;
  if (change.moveTo !== undefined) {
    destination = await resolveTarget(workspace, change.moveTo, "move_to");
    await refuseSymlink(workspace, resolved, "move");
    if (destination.real !== resolved.real) await refuseExisting(workspace, destination, "move_to");
    else destination = undefined;
  }
  const edited = await change.edit(loaded.working);
  if (typeof edited !== "string") {
    throw new ToolFailureError(edited.code ?? "INVALID_INPUT", edited.error, {
      ...(edited.hint === undefined ? {} : { hint: edited.hint }),
    });
  }
  const changed = edited !== loaded.working;
  const bytes = changed ? encodeEditedText(edited, loaded) : loaded.bytes;
  const sha = changed ? await sha256Hex(bytes) : loaded.sha;
  const to = destination === undefined ? undefined : shown(workspace, destination);
  return {
    file: {
      kind: "update",
      path: resolved.display,
      moveTo: to,
      previousSha: loaded.sha,
      sha,
      changed,
      before: loaded.working,
      after: edited,
      encoding: loaded.encoding,
      lineEnding: loaded.lineEnding,
      diff: diffOf(
        loaded.working,
        edited,
        { from: resolved.path, to: destination?.path ?? resolved.path },
        options,
      ),
    },
    target: {
      display: resolved.display,
      committed: {
        kind: "update",
        path: resolved.display,
        moveTo: to,
        previousSha: loaded.sha,
        sha,
        written: changed || destination !== undefined,
      },
      source: { real: resolved.real, bytes: loaded.bytes, sha: loaded.sha, mode: loaded.stat.mode },
      ...(changed || destination !== undefined
        ? {
            write: {
              real: destination?.real ?? resolved.real,
              display: to ?? resolved.display,
              bytes,
              sha,
              created: destination !== undefined,
            },
          }
        : {}),
      removeSource: destination !== undefined,
    },
  };
}

/**
 * @param deleted - the real paths an earlier change of the set deletes
 * @internal
 */
export async function planAdd(
  workspace: Workspace,
  change: Extract<FileChange, { kind: "add" }>,
  options: PlanChangeSetOptions,
  deleted: ReadonlySet<string> = new Set(),
): Promise<{ file: PlannedFile; target: CommitTarget }> {
  const resolved = await resolveTarget(workspace, change.path, "path");
  if (deleted.has(resolved.real)) {
    throw new ToolFailureError(
      "INVALID_INPUT",
      `${resolved.display} is deleted and then added in the same change set; a change set names each file once.`,
      {
        hint: "To replace its content, update it instead with the whole new text — or delete it and add it in two separate calls.",
      },
    );
  }
  await refuseExisting(workspace, resolved, "add");
  const bytes = encodeText(change.text, "utf-8");
  const sha = await sha256Hex(bytes);
  return {
    file: {
      kind: "add",
      path: resolved.display,
      moveTo: undefined,
      previousSha: undefined,
      sha,
      changed: true,
      before: "",
      after: change.text,
      encoding: "utf-8",
      lineEnding: /\r\n/.test(change.text) ? "crlf" : change.text.includes("\n") ? "lf" : "none",
      diff: diffOf("", change.text, { from: undefined, to: resolved.path }, options),
    },
    target: {
      display: resolved.display,
      committed: {
        kind: "add",
        path: resolved.display,
        moveTo: undefined,
        previousSha: undefined,
        sha,
        written: true,
      },
      write: { real: resolved.real, display: resolved.display, bytes, sha, created: true },
      removeSource: false,
    },
  };
}

/** @internal */
export async function planDelete(
  workspace: Workspace,
  change: Extract<FileChange, { kind: "delete" }>,
  options: PlanChangeSetOptions,
): Promise<{ file: PlannedFile; target: CommitTarget }> {
  const resolved = await resolveTarget(workspace, change.path, "path");
  await refuseSymlink(workspace, resolved, "delete");
  const loaded = await loadEditableFile(workspace.fileSystem, resolved, {
    maxBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    expectedSha: change.expectedSha,
  });
  return {
    file: {
      kind: "delete",
      path: resolved.display,
      moveTo: undefined,
      previousSha: loaded.sha,
      sha: undefined,
      changed: true,
      before: loaded.working,
      after: "",
      encoding: loaded.encoding,
      lineEnding: loaded.lineEnding,
      diff: diffOf(loaded.working, "", { from: resolved.path, to: undefined }, options),
    },
    target: {
      display: resolved.display,
      committed: {
        kind: "delete",
        path: resolved.display,
        moveTo: undefined,
        previousSha: loaded.sha,
        sha: undefined,
        written: false,
      },
      source: { real: resolved.real, bytes: loaded.bytes, sha: loaded.sha, mode: loaded.stat.mode },
      removeSource: true,
    },
  };
}

/** @internal */
export function refuseOverlaps(targets: readonly CommitTarget[]): void {
  const claimed = new Map<string, string>();
  for (const target of targets) {
    const reals = new Set([target.source?.real, target.write?.real]);
    for (const real of reals) {
      if (real === undefined) continue;
      const earlier = claimed.get(real);
      if (earlier !== undefined) {
        throw new ToolFailureError(
          "INVALID_INPUT",
          `${earlier} and ${target.display} both change the file ${real}; a change set names each file once.`,
          { hint: "Merge the changes to that file into one update." },
        );
      }
    }
    for (const real of reals) if (real !== undefined) claimed.set(real, target.display);
  }
}
