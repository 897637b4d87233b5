/**
 * Parses the two patch formats `apply_patch` takes into file operations: Codex's envelope
 * (`*** Begin Patch` … `*** End Patch`) and a plain unified diff (`git diff`, `diff -u`). Every
 * refusal names the patch line and what was expected there.
 *
 * @internal
 */

import { parseUnifiedDiff } from "./patch-parse-unified.js";

/** One line of a hunk: context (` `), removed (`-`) or added (`+`). */
export interface HunkLine {
  /** The line's role. */
  kind: " " | "-" | "+";
  /** The line without its prefix. */
  text: string;
}

/** One hunk: lines located by their context, then replaced. */
export interface PatchHunk {
  /** 1-based line of the patch where the hunk starts (for messages). */
  patchLine: number;
  /** Codex's `@@ context` line: the hunk lies after a line like it. */
  anchor: string | undefined;
  /** A unified diff's old start line (1-based), a hint only. */
  oldStart: number | undefined;
  /** The hunk's lines in order. */
  lines: HunkLine[];
  /** Codex's `*** End of File`: the hunk ends at the end of the file. */
  endOfFile: boolean;
  /** `\ No newline at end of file` after the old side's last line. */
  oldNoFinalNewline: boolean;
  /** `\ No newline at end of file` after the new side's last line. */
  newNoFinalNewline: boolean;
}

/** One file operation of a patch (paths as the patch spells them). */
export type PatchOperation =
  | {
      kind: "update";
      path: string;
      moveTo: string | undefined;
      hunks: PatchHunk[];
      patchLine: number;
    }
  | { kind: "add"; path: string; text: string; patchLine: number }
  | { kind: "delete"; path: string; patchLine: number };

/** A parsed patch. */
export interface ParsedPatch {
  /** Which format it was written in. */
  format: "codex" | "unified";
  /** The file operations, in order. */
  operations: PatchOperation[];
}

/** Why a patch could not be parsed. */
export interface PatchParseFailure {
  /** `INVALID_INPUT`, or `TOO_LARGE` for a hunk over the line cap. */
  code: "INVALID_INPUT" | "TOO_LARGE";
  /** Names the patch line and what was expected. */
  message: string;
}

/** Limits of {@link parsePatch}. */
export interface PatchLimits {
  /** Most lines in one hunk (or one added file). */
  maxHunkLines: number;
}

/** A parse result. */
export type PatchParse = { ok: true; value: ParsedPatch } | { ok: false; error: PatchParseFailure };

/**
 * Shows a patch line in a message: quoted, cut to 80 characters.
 *
 * @internal
 */
export function quoteLine(line: string | undefined): string {
  if (line === undefined) return "the end of the patch";
  return JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
}

/** @internal */
export function parseFailure(lineNumber: number, message: string): PatchParse {
  return {
    ok: false,
    error: { code: "INVALID_INPUT", message: `Patch line ${lineNumber}: ${message}` },
  };
}

/** @internal */
export function tooLong(lineNumber: number, what: string, max: number): PatchParse {
  return {
    ok: false,
    error: {
      code: "TOO_LARGE",
      message: `Patch line ${lineNumber}: ${what} has more than ${max} lines, the cap of one hunk.`,
    },
  };
}

/** Drops a Markdown fence around the patch and a final empty line; splits into lines. */
function patchLines(patch: string): string[] {
  const lines = patch.replace(/\r\n/g, "\n").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (/^```[\w-]*\s*$/.test(lines[0] ?? "") && /^```\s*$/.test(lines[lines.length - 1] ?? "")) {
    lines[0] = "";
    lines[lines.length - 1] = "";
  }
  return lines;
}

const HEADER =
  /^\*\*\* (Add File|Delete File|Update File|Move to|End of File|End Patch|Begin Patch)(?::\s?(.*))?\s*$/;

function header(line: string | undefined): { name: string; path: string } | undefined {
  if (line === undefined) return undefined;
  const match = HEADER.exec(line.trimEnd());
  return match === null ? undefined : { name: match[1] as string, path: (match[2] ?? "").trim() };
}

function newHunk(patchLine: number, anchor: string | undefined): PatchHunk {
  return {
    patchLine,
    anchor,
    oldStart: undefined,
    lines: [],
    endOfFile: false,
    oldNoFinalNewline: false,
    newNoFinalNewline: false,
  };
}

/** Parses the hunks of a Codex `*** Update File:` section from `start`; returns where it stopped. */
function parseCodexHunks(
  lines: readonly string[],
  start: number,
  limits: PatchLimits,
): { ok: true; hunks: PatchHunk[]; next: number } | { ok: false; failure: PatchParse } {
  const hunks: PatchHunk[] = [];
  let current: PatchHunk | undefined;
  let index = start;
  for (; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const found = header(line);
    if (found !== undefined && found.name !== "End of File") break;
    if (found?.name === "End of File") {
      if (current === undefined || current.lines.length === 0) {
        return {
          ok: false,
          failure: parseFailure(index + 1, "'*** End of File' must end a hunk that has lines."),
        };
      }
      current.endOfFile = true;
      current = undefined;
      continue;
    }
    if (line.startsWith("@@")) {
      current = newHunk(index + 1, line.slice(2).trim() || undefined);
      hunks.push(current);
      continue;
    }
    const kind = line.length === 0 ? " " : line[0];
    if (kind !== " " && kind !== "-" && kind !== "+") {
      return {
        ok: false,
        failure: parseFailure(
          index + 1,
          `expected a hunk line starting with ' ', '-' or '+', an '@@' line or a '*** ' header; got ${quoteLine(line)}.`,
        ),
      };
    }
    if (current === undefined || current.endOfFile) {
      // Codex lets the first hunk of a file start without its '@@' line.
      if (hunks.length > 0) {
        return {
          ok: false,
          failure: parseFailure(index + 1, "a hunk after '*** End of File' must start with '@@'."),
        };
      }
      current = newHunk(index + 1, undefined);
      hunks.push(current);
    }
    if (current.lines.length >= limits.maxHunkLines) {
      return { ok: false, failure: tooLong(current.patchLine, "this hunk", limits.maxHunkLines) };
    }
    current.lines.push({ kind, text: line.slice(1) });
  }
  return { ok: true, hunks, next: index };
}

function parseCodex(lines: readonly string[], first: number, limits: PatchLimits): PatchParse {
  const operations: PatchOperation[] = [];
  let index = first + 1;
  while (index < lines.length) {
    const line = lines[index] as string;
    const found = header(line);
    const lineNumber = index + 1;
    if (found?.name === "End Patch") {
      const rest = lines.slice(index + 1).findIndex((after) => after.trim().length > 0);
      if (rest !== -1) return parseFailure(index + 2 + rest, "nothing may follow '*** End Patch'.");
      if (operations.length === 0) return parseFailure(lineNumber, "the patch changes no file.");
      return { ok: true, value: { format: "codex", operations } };
    }
    if (found === undefined || !["Add File", "Delete File", "Update File"].includes(found.name)) {
      if (line.trim().length === 0) {
        index += 1;
        continue;
      }
      return parseFailure(
        lineNumber,
        `expected '*** Update File: <path>', '*** Add File: <path>', '*** Delete File: <path>' or '*** End Patch'; got ${quoteLine(line)}.`,
      );
    }
    if (found.path.length === 0)
      return parseFailure(lineNumber, `'*** ${found.name}:' needs a path.`);
    if (found.name === "Delete File") {
      operations.push({ kind: "delete", path: found.path, patchLine: lineNumber });
      index += 1;
    } else if (found.name === "Add File") {
      const added: string[] = [];
      index += 1;
      while (index < lines.length && (lines[index] as string).startsWith("+")) {
        if (added.length >= limits.maxHunkLines)
          return tooLong(lineNumber, "this added file", limits.maxHunkLines);
        added.push((lines[index] as string).slice(1));
        index += 1;
      }
      if (index < lines.length && header(lines[index]) === undefined) {
        return parseFailure(
          index + 1,
          `every line of an added file starts with '+' (expected a '+' line or the next '*** ' header); got ${quoteLine(lines[index])}.`,
        );
      }
      operations.push({
        kind: "add",
        path: found.path,
        text: added.length === 0 ? "" : `${added.join("\n")}\n`,
        patchLine: lineNumber,
      });
    } else {
      index += 1;
      let moveTo: string | undefined;
      const move = header(lines[index]);
      if (move?.name === "Move to") {
        if (move.path.length === 0) return parseFailure(index + 1, "'*** Move to:' needs a path.");
        moveTo = move.path;
        index += 1;
      }
      const parsed = parseCodexHunks(lines, index, limits);
      if (!parsed.ok) return parsed.failure;
      if (parsed.hunks.length === 0 && moveTo === undefined) {
        return parseFailure(
          lineNumber,
          `'*** Update File: ${found.path}' has no hunk (expected '@@' and lines).`,
        );
      }
      operations.push({
        kind: "update",
        path: found.path,
        moveTo,
        hunks: parsed.hunks,
        patchLine: lineNumber,
      });
      index = parsed.next;
    }
  }
  return parseFailure(lines.length, "the patch ends without '*** End Patch'.");
}

/**
 * Parses a patch in Codex's format or as a unified diff (told apart by a `*** Begin Patch`
 * line); `INVALID_INPUT` names the line and what was expected there.
 *
 * @internal
 */
export function parsePatch(patch: string, limits: PatchLimits): PatchParse {
  const lines = patchLines(patch);
  const first = lines.findIndex((line) => line.trim().length > 0);
  if (first === -1) return parseFailure(1, "the patch is empty.");
  if (header(lines[first])?.name === "Begin Patch") return parseCodex(lines, first, limits);
  if (
    lines.some((line) => line.startsWith("*** Update File:") || line.startsWith("*** Add File:"))
  ) {
    return parseFailure(
      first + 1,
      `expected '*** Begin Patch' as the first line; got ${quoteLine(lines[first])}.`,
    );
  }
  return parseUnifiedDiff(lines, limits);
}
