import { closeSync, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { formatCount } from "@agentool/contract";
import { parseSkillFile } from "../../skill-front-matter.js";
import type { SkillSummary } from "../../skill-source.js";
import { SKILL_FILE_NAME } from "../skill-registry-limits.js";
import type { SkillSkipReason } from "../skipped-skill.js";
import { errorCode, hasNul, SAFE_READ_FLAGS } from "./skill-file-system.js";

/**
 * What one SKILL.md holds: the skill, or why it is skipped.
 *
 * @internal
 */
export type SkillEntryOutcome =
  | { ok: true; summary: SkillSummary; body: string; bodyStartLine: number }
  | { ok: false; reason: SkillSkipReason; message: string };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Reads a SKILL.md without following a symlink, checking it is the file that was stat'ed. */
function readSkillFileBytes(path: string, expected: Stats, maxBytes: number): Uint8Array {
  const descriptor = openSync(path, SAFE_READ_FLAGS);
  try {
    const info = fstatSync(descriptor);
    if (!info.isFile() || info.ino !== expected.ino || info.dev !== expected.dev) {
      throw Object.assign(new Error(`${path} changed while it was being read`), {
        code: "ECHANGED",
      });
    }
    const size = Math.min(info.size, maxBytes + 1);
    const bytes = new Uint8Array(size);
    let read = 0;
    while (read < size) {
      const count = readSync(descriptor, bytes, read, size - read, read);
      if (count === 0) break;
      read += count;
    }
    return bytes.subarray(0, read);
  } finally {
    closeSync(descriptor);
  }
}

/**
 * Reads and parses one skill folder's SKILL.md (already `lstat`ed as a regular file within the
 * cap): UTF-8 text, front matter with a valid name equal to the folder's, and a description.
 *
 * @param path - the SKILL.md
 * @param info - its `lstat`, checked again against what is opened
 * @param name - the folder's name
 * @param maxBytes - the cap on one SKILL.md
 * @returns the skill, or why it is skipped
 * @internal
 */
export function parseSkillEntry(
  path: string,
  info: Stats,
  name: string,
  maxBytes: number,
): SkillEntryOutcome {
  let bytes: Uint8Array;
  try {
    bytes = readSkillFileBytes(path, info, maxBytes);
  } catch (error) {
    return {
      ok: false,
      reason: errorCode(error) === "ELOOP" ? "symlink" : "unreadable",
      message: `its ${SKILL_FILE_NAME} cannot be read (${errorCode(error) ?? "error"}).`,
    };
  }
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      reason: "oversized",
      message: `its ${SKILL_FILE_NAME} is over the ${formatCount(maxBytes)}-byte cap (maxSkillFileBytes).`,
    };
  }
  let text: string;
  try {
    if (hasNul(bytes)) throw new Error("binary");
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, reason: "malformed", message: `its ${SKILL_FILE_NAME} is not UTF-8 text.` };
  }
  const parsed = parseSkillFile(text);
  if (!parsed.ok) {
    return {
      ok: false,
      reason: parsed.reason,
      message: `${parsed.problem}. Start ${SKILL_FILE_NAME} with front matter: ---, name: ${name}, description: when to use it, ---.`,
    };
  }
  if (parsed.skill.name !== name) {
    return {
      ok: false,
      reason: "name_mismatch",
      message: `its ${SKILL_FILE_NAME} names the skill ${JSON.stringify(parsed.skill.name)}, but the folder is ${JSON.stringify(name)}; the name must equal the folder's.`,
    };
  }
  return {
    ok: true,
    summary: { name: parsed.skill.name, description: parsed.skill.description },
    body: parsed.skill.body,
    bodyStartLine: parsed.skill.bodyStartLine,
  };
}
