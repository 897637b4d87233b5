import { lstatSync, type Stats } from "node:fs";
import { join } from "node:path";
import { formatCount } from "@agentool/contract";
import { SKILL_FILE_NAME } from "../skill-registry-limits.js";
import { parseSkillEntry, type SkillEntryOutcome } from "./parse-skill-entry.js";
import { errorCode, stampOf } from "./skill-file-system.js";

/**
 * One skill folder's SKILL.md as a scan sees it: the parsed skill with the stamp it was read at,
 * or why it is skipped.
 *
 * @internal
 */
export type SkillFolderOutcome =
  | (Extract<SkillEntryOutcome, { ok: true }> & { stamp: string })
  | Extract<SkillEntryOutcome, { ok: false }>;

/**
 * The parsed SKILL.md files kept between scans, by path and stamp: a scan re-reads a SKILL.md
 * only when its size, times or identity changed, and forgets the files it no longer saw.
 *
 * @internal
 */
export class SkillFileCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, { stamp: string; outcome: SkillEntryOutcome }>();

  /** @param maxBytes - the cap on one SKILL.md */
  constructor(maxBytes: number) {
    this.#maxBytes = maxBytes;
  }

  /**
   * Validates and parses one skill folder's SKILL.md (from the cache when unchanged).
   *
   * @param folder - the skill's folder
   * @param name - the folder's name
   * @returns the skill and its stamp, or why it is skipped
   */
  read(folder: string, name: string): SkillFolderOutcome {
    const path = join(folder, SKILL_FILE_NAME);
    let info: Stats;
    try {
      info = lstatSync(path);
    } catch (error) {
      return errorCode(error) === "ENOENT"
        ? {
            ok: false,
            reason: "missing_skill_file",
            message: `it has no ${SKILL_FILE_NAME} (a skill is a folder holding ${SKILL_FILE_NAME} with name and description front matter).`,
          }
        : {
            ok: false,
            reason: "unreadable",
            message: `its ${SKILL_FILE_NAME} cannot be read (${errorCode(error) ?? "error"}).`,
          };
    }
    if (info.isSymbolicLink()) {
      return {
        ok: false,
        reason: "symlink",
        message: `its ${SKILL_FILE_NAME} is a symlink (links are not followed); make it a regular file.`,
      };
    }
    if (!info.isFile()) {
      return {
        ok: false,
        reason: "not_regular",
        message: `its ${SKILL_FILE_NAME} is not a regular file.`,
      };
    }
    if (info.size > this.#maxBytes) {
      return {
        ok: false,
        reason: "oversized",
        message: `its ${SKILL_FILE_NAME} is ${formatCount(info.size)} bytes, over the ${formatCount(this.#maxBytes)}-byte cap (maxSkillFileBytes); move detail into reference files beside it.`,
      };
    }
    const stamp = stampOf(info);
    const cached = this.#entries.get(path);
    let outcome: SkillEntryOutcome;
    if (cached !== undefined && cached.stamp === stamp) outcome = cached.outcome;
    else {
      outcome = parseSkillEntry(path, info, name, this.#maxBytes);
      this.#entries.set(path, { stamp, outcome });
    }
    return outcome.ok ? { ...outcome, stamp } : outcome;
  }

  /**
   * Forgets every SKILL.md a scan did not see.
   *
   * @param seen - the SKILL.md paths of the last scan
   */
  keepOnly(seen: ReadonlySet<string>): void {
    for (const path of this.#entries.keys()) if (!seen.has(path)) this.#entries.delete(path);
  }
}
