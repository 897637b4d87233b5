import { type FileHandle, lstat, open, readlink, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { createSecretPathMatcher, formatCount, normalizeRelativePath } from "@agentool/contract";
import type { SkillFileRead, SkillSourceContext } from "../../skill-source.js";
import type { ScannedSkill } from "./scan-skill-folders.js";
import {
  BINARY_SNIFF_BYTES,
  errorCode,
  hasNul,
  isInside,
  SAFE_READ_FLAGS,
} from "./skill-file-system.js";

const PROC_FD = "/proc/self/fd";
const isSecretPath = createSecretPathMatcher();
const lenientDecoder = new TextDecoder("utf-8");

/** A refusal of {@link readFileInSkill}. */
type Refusal = SkillFileRead & { ok: false };

/** A path inside a skill's folder, checked and resolved to its real location. */
interface ResolvedPath {
  /** The normalised path, as the messages show it. */
  relativePath: string;
  /** Its real path. */
  real: string;
  /** The skill folder's real path. */
  realRoot: string;
}

/** What {@link readFileInSkill} needs besides the skill and the path. @internal */
export interface ReadFileInSkillOptions {
  /** The largest file read. */
  maxReferenceBytes: number;
  /** `" (into skill NAME's folder)"` when a real path lies in another skill's folder, else `""`. */
  ownerOf: (real: string) => string;
  /** A signal. */
  signal?: SkillSourceContext["signal"];
}

/** Normalises the path the model sent and resolves it inside the skill's real folder. */
async function resolveSkillPath(
  found: ScannedSkill,
  skill: string,
  path: string,
  options: ReadFileInSkillOptions,
): Promise<ResolvedPath | Refusal> {
  const root = found.directory;
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return { ok: false, problem: "unknown_skill", detail: `The skill ${skill} was removed.` };
  }
  const normalized = normalizeRelativePath(path, {
    roots: [...new Set([found.givenDirectory, root, realRoot])],
    argument: "path",
    rootName: `skill ${skill}'s folder`,
  });
  if (normalized.problem !== undefined) {
    return { ok: false, problem: "invalid_path", detail: normalized.problem };
  }
  const relativePath = normalized.path;
  if (relativePath === "") {
    return {
      ok: false,
      problem: "directory",
      detail: `path ${JSON.stringify(path)} is the skill's folder itself, not a file.`,
      path: relativePath,
    };
  }
  if (isSecretPath(relativePath)) {
    return {
      ok: false,
      problem: "secret",
      detail: `${relativePath} is a secret path (keys, credentials, .env files are never read).`,
      path: relativePath,
    };
  }
  let real: string;
  try {
    real = await realpath(join(realRoot, ...relativePath.split("/")));
  } catch (error) {
    if (errorCode(error) === "ELOOP") {
      return {
        ok: false,
        problem: "invalid_path",
        detail: `${relativePath} is a symlink loop.`,
        path: relativePath,
      };
    }
    return {
      ok: false,
      problem: "not_found",
      detail: `${relativePath} does not exist in skill ${skill}.`,
      path: relativePath,
    };
  }
  options.signal?.throwIfAborted();
  if (!isInside(real, realRoot)) {
    return {
      ok: false,
      problem: "outside_skill",
      detail: `${relativePath} leads out of skill ${skill}'s folder${options.ownerOf(real)} through a symlink; ${skill} reads only its own files.`,
      path: relativePath,
    };
  }
  const realRelative = relative(realRoot, real).split(sep).join("/");
  if (realRelative !== relativePath && isSecretPath(realRelative)) {
    return {
      ok: false,
      problem: "secret",
      detail: `${relativePath} leads to a secret path (keys, credentials, .env files are never read).`,
      path: relativePath,
    };
  }
  return { relativePath, real, realRoot };
}

/** Whether the object opened is the one checked (a component swapped for a link meanwhile). */
async function openedInside(handle: FileHandle, real: string, realRoot: string): Promise<boolean> {
  if (process.platform === "linux") {
    try {
      return isInside(await readlink(`${PROC_FD}/${handle.fd}`), realRoot);
    } catch {
      // no /proc: compare identities below
    }
  }
  try {
    const [opened, named] = await Promise.all([handle.stat(), lstat(real)]);
    return opened.dev === named.dev && opened.ino === named.ino;
  } catch {
    return false;
  }
}

/** Reads an opened file: a regular text file inside the skill, within the cap. */
async function readOpenedFile(
  handle: FileHandle,
  resolved: ResolvedPath,
  skill: string,
  maxReferenceBytes: number,
): Promise<SkillFileRead> {
  const { relativePath, real, realRoot } = resolved;
  const info = await handle.stat();
  if (info.isDirectory()) {
    return {
      ok: false,
      problem: "directory",
      detail: `${relativePath} is a folder, not a file.`,
      path: relativePath,
    };
  }
  if (!info.isFile()) {
    return {
      ok: false,
      problem: "not_regular",
      detail: `${relativePath} is not a regular file (a device, socket or pipe).`,
      path: relativePath,
    };
  }
  if (!(await openedInside(handle, real, realRoot))) {
    return {
      ok: false,
      problem: "outside_skill",
      detail: `${relativePath} changed while it was being opened and now leads out of skill ${skill}'s folder.`,
      path: relativePath,
    };
  }
  if (info.size > maxReferenceBytes) {
    return {
      ok: false,
      problem: "too_large",
      detail: `${relativePath} is ${formatCount(info.size)} bytes, over the ${formatCount(maxReferenceBytes)}-byte cap of one skill file.`,
      path: relativePath,
    };
  }
  const bytes = await handle.readFile();
  if (hasNul(bytes, BINARY_SNIFF_BYTES)) {
    return {
      ok: false,
      problem: "binary",
      detail: `${relativePath} is a binary file (${formatCount(bytes.length)} bytes), not text.`,
      path: relativePath,
    };
  }
  const text = lenientDecoder.decode(bytes);
  return {
    ok: true,
    path: relativePath,
    text: text.startsWith("\uFEFF") ? text.slice(1) : text,
    bytes: bytes.length,
  };
}

/**
 * Reads one file inside one skill's own folder, on real paths: `..` above it, absolute paths
 * outside it, symlinks leading out of it, secret paths and files over the cap are refused; the
 * file is opened without following a final symlink and (on Linux) its opened location checked
 * again.
 *
 * @param found - the skill
 * @param skill - its name, as the messages show it
 * @param path - the path inside the skill's folder, as the model sent it
 * @param options - the cap, the other skills' folders, a signal
 * @returns the text, or why it cannot be read
 * @internal
 */
export async function readFileInSkill(
  found: ScannedSkill,
  skill: string,
  path: string,
  options: ReadFileInSkillOptions,
): Promise<SkillFileRead> {
  const resolved = await resolveSkillPath(found, skill, path, options);
  if (!("real" in resolved)) return resolved;
  const { relativePath, real } = resolved;
  let handle: FileHandle;
  try {
    handle = await open(real, SAFE_READ_FLAGS);
  } catch (error) {
    return {
      ok: false,
      problem: errorCode(error) === "ENOENT" ? "not_found" : "not_regular",
      detail: `${relativePath} cannot be opened (${errorCode(error) ?? "error"}).`,
      path: relativePath,
    };
  }
  try {
    return await readOpenedFile(handle, resolved, skill, options.maxReferenceBytes);
  } finally {
    await handle.close().catch(() => undefined);
  }
}
