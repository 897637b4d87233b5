/**
 * The unified-diff half of the patch parser: `git diff` output (extended headers, renames,
 * `/dev/null` for adds and deletes, empty files without hunks) and plain `diff -u` output.
 *
 * @internal
 */

import {
  type PatchHunk,
  type PatchLimits,
  type PatchOperation,
  type PatchParse,
  parseFailure,
  quoteLine,
  tooLong,
} from "./patch-parse.js";

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

const C_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  '"': '"',
  "\\": "\\",
  a: "\x07",
  b: "\b",
  f: "\f",
  r: "\r",
  v: "\v",
};

/** Undoes git's C-style quoting of a path (`"a/caf\303\251.txt"`). */
function unquote(path: string): string {
  if (!path.startsWith('"') || !path.endsWith('"') || path.length < 2) return path;
  const bytes: number[] = [];
  const inner = path.slice(1, -1);
  const encoder = new TextEncoder();
  for (let index = 0; index < inner.length; index += 1) {
    const character = inner[index] as string;
    if (character !== "\\") {
      bytes.push(...encoder.encode(character));
      continue;
    }
    const next = inner[index + 1] ?? "";
    if (/[0-7]/.test(next)) {
      bytes.push(Number.parseInt(inner.slice(index + 1, index + 4), 8));
      index += 3;
    } else {
      bytes.push(...encoder.encode(C_ESCAPES[next] ?? next));
      index += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path of a `---` / `+++` line: undefined for /dev/null; a timestamp after a tab dropped. */
function filePath(line: string, prefix: "a/" | "b/", git: boolean): string | undefined {
  let path = line.slice(4);
  if (!path.startsWith('"')) path = path.split("\t")[0] as string;
  path = unquote(path.trimEnd());
  if (path === "/dev/null") return undefined;
  if (git || path.startsWith(prefix)) return path.startsWith(prefix) ? path.slice(2) : path;
  return path;
}

/** The two paths of `diff --git a/P b/P` when they are the same (no rename), else undefined. */
function gitHeaderPath(line: string): string | undefined {
  const rest = line.slice("diff --git ".length);
  if (rest.startsWith('"')) {
    const split = rest.indexOf('" ');
    return split === -1 ? undefined : unquote(rest.slice(0, split + 1)).slice(2);
  }
  const length = (rest.length - 5) / 2;
  const path = rest.slice(2, 2 + length);
  return Number.isInteger(length) && rest === `a/${path} b/${path}` ? path : undefined;
}

/** Parses one `@@ -a,b +c,d @@` hunk at `index`; returns it and the index after it. */
function parseHunk(
  lines: readonly string[],
  index: number,
  limits: PatchLimits,
): { ok: true; hunk: PatchHunk; next: number } | { ok: false; failure: PatchParse } {
  const match = HUNK_HEADER.exec(lines[index] as string);
  if (match === null) {
    return {
      ok: false,
      failure: parseFailure(
        index + 1,
        `expected a hunk header '@@ -l,n +l,n @@'; got ${quoteLine(lines[index])}.`,
      ),
    };
  }
  let oldLeft = match[2] === undefined ? 1 : Number(match[2]);
  let newLeft = match[4] === undefined ? 1 : Number(match[4]);
  if (oldLeft + newLeft > 2 * limits.maxHunkLines) {
    return { ok: false, failure: tooLong(index + 1, "this hunk", limits.maxHunkLines) };
  }
  const hunk: PatchHunk = {
    patchLine: index + 1,
    anchor: undefined,
    oldStart: Number(match[1]),
    lines: [],
    endOfFile: false,
    oldNoFinalNewline: false,
    newNoFinalNewline: false,
  };
  let next = index + 1;
  let last: " " | "-" | "+" | undefined;
  while (oldLeft > 0 || newLeft > 0 || lines[next]?.startsWith("\\")) {
    const line = lines[next];
    if (line?.startsWith("\\")) {
      if (last === "-" || last === " ") hunk.oldNoFinalNewline = true;
      if (last === "+" || last === " ") hunk.newNoFinalNewline = true;
      next += 1;
      continue;
    }
    const kind = line === "" ? " " : line?.[0];
    if (
      line === undefined ||
      (kind !== " " && kind !== "-" && kind !== "+") ||
      (kind !== "+" && oldLeft === 0) ||
      (kind !== "-" && newLeft === 0)
    ) {
      return {
        ok: false,
        failure: parseFailure(
          next + 1,
          `the hunk at line ${index + 1} still expects ${oldLeft} old and ${newLeft} new lines (' ', '-' or '+'); got ${quoteLine(line)}. Fix the counts in its '@@' header or the lines.`,
        ),
      };
    }
    if (hunk.lines.length >= limits.maxHunkLines) {
      return { ok: false, failure: tooLong(index + 1, "this hunk", limits.maxHunkLines) };
    }
    hunk.lines.push({ kind, text: (line as string).slice(1) });
    if (kind !== "+") oldLeft -= 1;
    if (kind !== "-") newLeft -= 1;
    last = kind;
    next += 1;
  }
  return { ok: true, hunk, next };
}

interface FileBlock {
  oldPath: string | undefined;
  newPath: string | undefined;
  created: boolean;
  deleted: boolean;
  hunks: PatchHunk[];
  patchLine: number;
}

function toOperation(block: FileBlock): PatchOperation | undefined {
  const { oldPath, newPath, patchLine } = block;
  if (block.created || oldPath === undefined) {
    if (newPath === undefined) return undefined;
    const added = block.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind === "+"));
    const bare = block.hunks.some((hunk) => hunk.newNoFinalNewline);
    const text =
      added.length === 0 ? "" : `${added.map((line) => line.text).join("\n")}${bare ? "" : "\n"}`;
    return { kind: "add", path: newPath, text, patchLine };
  }
  if (block.deleted || newPath === undefined) return { kind: "delete", path: oldPath, patchLine };
  const moveTo = newPath === oldPath ? undefined : newPath;
  if (block.hunks.length === 0 && moveTo === undefined) return undefined;
  return { kind: "update", path: oldPath, moveTo, hunks: block.hunks, patchLine };
}

/** Reads git's extended header lines after `diff --git`; returns the block so far and where it stopped. */
function gitHeaders(
  lines: readonly string[],
  index: number,
): { ok: true; block: FileBlock; next: number } | { ok: false; failure: PatchParse } {
  const same = gitHeaderPath(lines[index] as string);
  const block: FileBlock = {
    oldPath: same,
    newPath: same,
    created: false,
    deleted: false,
    hunks: [],
    patchLine: index + 1,
  };
  let next = index + 1;
  for (; next < lines.length; next += 1) {
    const line = lines[next] as string;
    if (line.startsWith("diff --git ") || line.startsWith("--- ") || line.startsWith("@@")) break;
    if (line.startsWith("new file mode")) block.created = true;
    else if (line.startsWith("deleted file mode")) block.deleted = true;
    else if (line.startsWith("rename from ")) block.oldPath = unquote(line.slice(12));
    else if (line.startsWith("rename to ")) block.newPath = unquote(line.slice(10));
    else if (
      line.startsWith("Binary files ") ||
      line.startsWith("GIT binary patch") ||
      line.startsWith("copy ")
    ) {
      return {
        ok: false,
        failure: parseFailure(
          next + 1,
          `${line.startsWith("copy ") ? "copies" : "binary patches"} are not supported (${quoteLine(line)}); only text changes are.`,
        ),
      };
    } else if (!/^(index |old mode |new mode |similarity index |dissimilarity index )/.test(line)) {
      break;
    }
  }
  return { ok: true, block, next };
}

/**
 * Parses a unified diff into file operations; lines outside file sections (a commit message,
 * `Index:` lines) are skipped.
 *
 * @internal
 */
export function parseUnifiedDiff(lines: readonly string[], limits: PatchLimits): PatchParse {
  const operations: PatchOperation[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    let block: FileBlock | undefined;
    const git = line.startsWith("diff --git ");
    if (git) {
      const headers = gitHeaders(lines, index);
      if (!headers.ok) return headers.failure;
      block = headers.block;
      index = headers.next;
    } else if (line.startsWith("@@")) {
      return parseFailure(
        index + 1,
        "a hunk before any file header (expected '--- a/<path>' and '+++ b/<path>' first).",
      );
    } else if (!(line.startsWith("--- ") && lines[index + 1]?.startsWith("+++ "))) {
      index += 1;
      continue;
    }
    if (lines[index]?.startsWith("--- ")) {
      if (!lines[index + 1]?.startsWith("+++ ")) {
        return parseFailure(
          index + 2,
          `expected '+++ b/<path>' after the '---' line; got ${quoteLine(lines[index + 1])}.`,
        );
      }
      const oldPath = filePath(lines[index] as string, "a/", git);
      const newPath = filePath(lines[index + 1] as string, "b/", git);
      block ??= {
        oldPath,
        newPath,
        created: false,
        deleted: false,
        hunks: [],
        patchLine: index + 1,
      };
      block.oldPath = oldPath;
      block.newPath = newPath;
      index += 2;
      if (!lines[index]?.startsWith("@@")) {
        return parseFailure(
          index + 1,
          `expected a hunk header '@@ -l,n +l,n @@'; got ${quoteLine(lines[index])}.`,
        );
      }
    }
    while (block !== undefined && lines[index]?.startsWith("@@")) {
      const parsed = parseHunk(lines, index, limits);
      if (!parsed.ok) return parsed.failure;
      block.hunks.push(parsed.hunk);
      index = parsed.next;
    }
    if (block !== undefined) {
      if (block.oldPath === undefined && block.newPath === undefined) {
        return parseFailure(block.patchLine, "cannot tell the file's path from this header.");
      }
      const operation = toOperation(block);
      if (operation !== undefined) operations.push(operation);
    }
  }
  if (operations.length === 0) {
    return parseFailure(
      1,
      "no file change found: expected '*** Begin Patch' (Codex format) or a unified diff ('--- a/<path>', '+++ b/<path>', '@@ -l,n +l,n @@').",
    );
  }
  return { ok: true, value: { format: "unified", operations } };
}
