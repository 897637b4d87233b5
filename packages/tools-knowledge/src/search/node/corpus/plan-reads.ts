import { formatCount } from "@agentool/contract";
import type { WalkedFile } from "../internal/corpus-walk.js";
import type { DetectedChanges } from "./change-detector.js";
import type { FileEntry } from "./corpus-state.js";
import type { RefreshRun } from "./refresh-run.js";

/** What a refresh must read, and the vectors of files gone (a renamed file keeps them). */
export interface ReadPlan {
  /** Files new or with another size or time, in path order. */
  toRead: WalkedFile[];
  /** Files gone with every vector, by content hash. */
  goneBySha: Map<string, FileEntry>;
}

/**
 * Compares the detected files with the index: drops files too large or gone (warning about
 * each too-large file once), forgets binary files gone, and lists what must be read.
 *
 * @param run - the refresh
 * @param changes - what the change detector found
 * @param largeWarned - files above `maxFileBytes` already warned about (path, size, time); updated
 * @returns the files to read and the vectors of files gone
 */
export function planReads(
  run: RefreshRun,
  changes: DetectedChanges,
  largeWarned: Set<string>,
): ReadPlan {
  const { state, report, settings } = run;
  const toRead: WalkedFile[] = [];
  let tooLarge = 0;
  const stillLarge = new Set<string>();
  for (const file of changes.files) {
    if (file.size > settings.maxFileBytes) {
      const key = `${file.path}\u0000${file.size}\u0000${file.mtime_ms}`;
      stillLarge.add(key);
      if (!largeWarned.has(key)) tooLarge += 1;
      const entry = state.files.get(file.path);
      if (entry !== undefined) {
        state.removeFile(entry);
        report.removed += 1;
        run.dirty = true;
      }
      continue;
    }
    const entry = state.files.get(file.path);
    if (entry !== undefined && entry.size === file.size && entry.mtime_ms === file.mtime_ms)
      continue;
    const skipped = state.skipped.get(file.path);
    if (skipped !== undefined && skipped.size === file.size && skipped.mtime_ms === file.mtime_ms)
      continue;
    toRead.push(file);
  }
  // After a walk only the files still too large stay warned about; after events, all of them.
  if (changes.walked) largeWarned.clear();
  for (const key of stillLarge) largeWarned.add(key);
  if (tooLarge > 0) {
    settings.warn(
      run.warnings,
      `${tooLarge} ${tooLarge === 1 ? "file is" : "files are"} larger than ${formatCount(settings.maxFileBytes)} bytes and not indexed.`,
    );
  }
  return { toRead, goneBySha: dropGoneFiles(run, changes.seen) };
}

/** Drops the files not seen (deleted or renamed away), keeping their vectors by content. */
function dropGoneFiles(run: RefreshRun, seen: ReadonlySet<string>): Map<string, FileEntry> {
  const { state, report } = run;
  const goneBySha = new Map<string, FileEntry>();
  for (const entry of [...state.files.values()]) {
    if (seen.has(entry.path)) continue;
    state.removeFile(entry);
    if (entry.vectors !== undefined && entry.missing.size === 0) goneBySha.set(entry.sha256, entry);
    report.removed += 1;
    run.dirty = true;
  }
  for (const path of [...state.skipped.keys()]) {
    if (!seen.has(path)) {
      state.skipped.delete(path);
      run.dirty = true;
    }
  }
  return goneBySha;
}
