import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  type Stats,
} from "node:fs";
import { type FileHandle, lstat, open, readdir, readlink, realpath } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import {
  AgentoolError,
  createSecretPathMatcher,
  normalizeRelativePath,
  parseOptions,
} from "@agentool/contract";
import { z } from "zod";
import { renderSkillMenu } from "../skills/render-skill-menu.js";
import { parseSkillFile } from "../skills/skill-front-matter.js";
import type {
  LoadedSkill,
  SkillFileEntry,
  SkillFileRead,
  SkillSource,
  SkillSourceContext,
  SkillSummary,
} from "../skills/skill-source.js";

/** The file that makes a folder a skill. */
export const SKILL_FILE_NAME = "SKILL.md";

/** Default cap on one SKILL.md: 64 KiB (about 16,000 tokens; a skill's body is loaded whole). */
export const DEFAULT_MAX_SKILL_FILE_BYTES = 65_536;

/** Default cap on one reference file read with `read_skill_file`: 1 MiB. */
export const DEFAULT_MAX_SKILL_REFERENCE_BYTES = 1_048_576;

/** Default most skills in the registry: 500 (the rest are skipped with a warning). */
export const DEFAULT_MAX_SKILLS = 500;

/** Default most files `use_skill` lists for one skill: 100. */
export const DEFAULT_MAX_LISTED_SKILL_FILES = 100;

/** Most entries one listing of a skill's folder walks (the count then says "at least"). */
const MAX_WALKED_ENTRIES = 5_000;

/** Deepest folder level a listing walks below the skill's folder. */
const MAX_WALK_DEPTH = 8;

/** Bytes sniffed for a NUL to call a file binary. */
const BINARY_SNIFF_BYTES = 8_000;

/** Why an entry of the skills folder is not a skill. */
export type SkillSkipReason =
  /** The skills folder itself is missing or unreadable. */
  | "missing_folder"
  /** The skill's folder or its SKILL.md is a symlink. */
  | "symlink"
  /** The folder holds no SKILL.md. */
  | "missing_skill_file"
  /** SKILL.md is a folder, device, socket or pipe. */
  | "not_regular"
  /** SKILL.md is larger than `maxSkillFileBytes`. */
  | "oversized"
  /** SKILL.md is not UTF-8 text, has no or broken front matter, lacks name or description. */
  | "malformed"
  /** The name is not lower-case letters, digits and hyphens. */
  | "invalid_name"
  /** The name differs from the folder's. */
  | "name_mismatch"
  /** An earlier skills folder has a skill of the same name. */
  | "duplicate"
  /** Past `maxSkills`. */
  | "too_many"
  /** The operating system refused to read it. */
  | "unreadable";

/** An entry of the skills folder that was skipped, and why. */
export interface SkippedSkill {
  /** The entry's path: the folder name, prefixed with the skills folder when there are several. */
  entry: string;
  /** Why. */
  reason: SkillSkipReason;
  /** What is wrong and how to fix it, in a sentence. */
  message: string;
}

/** What {@link SkillRegistry.rescan} reports. */
export interface SkillRescanReport {
  /** Skills found. */
  count: number;
  /** Their names, sorted. */
  names: string[];
  /** Entries skipped, in folder order. */
  skipped: SkippedSkill[];
  /**
   * Whether the rendered menu ({@link renderSkillMenu}) differs, byte for byte, from the one
   * before this scan: `true` means the next system prompt moves (and a provider's prompt cache
   * starts again).
   */
  changed: boolean;
}

/** Options of {@link SkillRegistry}. */
export interface SkillRegistryOptions {
  /**
   * Receives one message per skipped entry (new skips only: a rescan does not repeat a warning
   * for an entry skipped the same way before). Default: none (see `rescan().skipped`).
   */
  onWarn?: (message: string, skipped: SkippedSkill) => void;
  /** Largest SKILL.md accepted. Default {@link DEFAULT_MAX_SKILL_FILE_BYTES} (64 KiB). */
  maxSkillFileBytes?: number;
  /** Largest reference file `read_skill_file` reads. Default {@link DEFAULT_MAX_SKILL_REFERENCE_BYTES} (1 MiB). */
  maxReferenceBytes?: number;
  /** Most skills. Default {@link DEFAULT_MAX_SKILLS} (500). */
  maxSkills?: number;
  /** Most files `use_skill` lists per skill. Default {@link DEFAULT_MAX_LISTED_SKILL_FILES} (100). */
  maxListedFiles?: number;
}

const optionsSchema = z.object({
  onWarn: z
    .custom<(message: string, skipped: SkippedSkill) => void>(
      (value) => typeof value === "function",
      { error: "expected a function (message, skipped) => void" },
    )
    .optional(),
  maxSkillFileBytes: z.number().int().min(64).max(16_777_216).optional(),
  maxReferenceBytes: z.number().int().min(1).max(67_108_864).optional(),
  maxSkills: z.number().int().min(1).max(100_000).optional(),
  maxListedFiles: z.number().int().min(0).max(10_000).optional(),
});

/** A skill found by a scan. */
interface ScannedSkill {
  summary: SkillSummary;
  body: string;
  bodyStartLine: number;
  /** The skill's folder (the skills folder's real path joined with its name). */
  directory: string;
  /** The skill's folder under the skills folder as given (absolute paths may use either form). */
  givenDirectory: string;
  /** The stamp of the SKILL.md it was read from. */
  stamp: string;
}

/** A parsed SKILL.md kept between scans, by path and stamp. */
interface CachedSkillFile {
  stamp: string;
  outcome:
    | { ok: true; summary: SkillSummary; body: string; bodyStartLine: number }
    | { ok: false; reason: SkillSkipReason; message: string };
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const PROC_FD = "/proc/self/fd";
const isSecretPath = createSecretPathMatcher();
const decoder = new TextDecoder("utf-8", { fatal: true });
const lenientDecoder = new TextDecoder("utf-8");

function stampOf(info: Stats): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`;
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

function hasNul(bytes: Uint8Array, limit = bytes.length): boolean {
  const end = Math.min(limit, bytes.length);
  for (let index = 0; index < end; index += 1) if (bytes[index] === 0) return true;
  return false;
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    lines += 1;
  }
  return text.endsWith("\n") ? lines : lines + 1;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error
    ? String((error as { code: unknown }).code)
    : undefined;
}

/** Reads a SKILL.md without following a symlink, checking it is the file that was stat'ed. */
function readSkillFileBytes(path: string, expected: Stats, maxBytes: number): Uint8Array {
  const descriptor = openSync(path, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
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
 * A folder of runtime skills: each `<skill>/SKILL.md` with YAML front matter holding `name`
 * (lower-case letters, digits and hyphens; the folder's own name) and `description` (when to use
 * it, at most 1,024 characters), the body after it, and any reference files beside it. Several
 * folders may be given (project skills before user skills): the first folder's skill of a name
 * wins and the later one is skipped as a duplicate.
 *
 * Scanning never throws for what is in the folder: a symlinked skill folder or SKILL.md, a
 * missing, oversized (`maxSkillFileBytes`), binary or malformed SKILL.md, a name that is invalid
 * or differs from the folder's, a duplicate, or an entry past `maxSkills` is skipped with a
 * warning (`onWarn`, and `rescan().skipped`). Hidden entries (`.git`, `.DS_Store`) and plain
 * files beside the skill folders are ignored silently. A SKILL.md is re-read only when it changed.
 *
 * The constructor scans once (synchronously); {@link rescan} scans again — call it before each
 * model call to pick up skills installed mid-session, `use_skill` and `read_skill_file` call it
 * for a name they do not know. {@link menu} gives the skills for {@link renderSkillMenu}.
 *
 * `readSkillFile` (behind `read_skill_file`) confines every read to the one skill's folder, on
 * real paths: `..` above it, absolute paths outside it, symlinks leading out of it (into another
 * skill's folder too), secret paths and files over `maxReferenceBytes` are refused; the file is
 * opened without following a final symlink and (on Linux) its opened location checked again.
 *
 * @example
 * const registry = new SkillRegistry(".agents/skills", { onWarn: (message) => console.warn(message) });
 * const tools = createSkillTools({ registry });
 * const systemPrompt = `${basePrompt}\n\n${renderSkillMenu(registry.menu())}`;
 */
export class SkillRegistry implements SkillSource {
  /** The skills folders, absolute, in priority order. */
  readonly directories: readonly string[];
  readonly #onWarn: ((message: string, skipped: SkippedSkill) => void) | undefined;
  readonly #maxSkillFileBytes: number;
  readonly #maxReferenceBytes: number;
  readonly #maxSkills: number;
  readonly #maxListedFiles: number;
  #skills = new Map<string, ScannedSkill>();
  #menuText = "";
  #warned = new Set<string>();
  #fileCache = new Map<string, CachedSkillFile>();
  #lineCache = new Map<string, number>();

  /**
   * Scans the skills folder(s) once.
   *
   * @param directory - the skills folder, or several in priority order (relative to the working directory, or absolute)
   * @param options - `onWarn` and the caps
   * @throws AgentoolError for invalid options or no folder given (never for what is in the folder)
   */
  constructor(directory: string | readonly string[], options: SkillRegistryOptions = {}) {
    const parsed = parseOptions("SkillRegistry", optionsSchema, options);
    const list = typeof directory === "string" ? [directory] : [...directory];
    if (list.length === 0 || list.some((item) => typeof item !== "string" || item.length === 0)) {
      throw new AgentoolError(
        "SkillRegistry: give the skills folder (a non-empty path, or a list of them), e.g. new SkillRegistry('.agents/skills').",
      );
    }
    this.directories = list.map((item) => resolve(item));
    this.#onWarn = parsed.onWarn;
    this.#maxSkillFileBytes = parsed.maxSkillFileBytes ?? DEFAULT_MAX_SKILL_FILE_BYTES;
    this.#maxReferenceBytes = parsed.maxReferenceBytes ?? DEFAULT_MAX_SKILL_REFERENCE_BYTES;
    this.#maxSkills = parsed.maxSkills ?? DEFAULT_MAX_SKILLS;
    this.#maxListedFiles = parsed.maxListedFiles ?? DEFAULT_MAX_LISTED_SKILL_FILES;
    this.rescan();
  }

  /**
   * The skills, sorted by name (code-unit order), as {@link renderSkillMenu} takes them.
   *
   * @returns a fresh array of `{ name, description }`
   */
  menu(): SkillSummary[] {
    return [...this.#skills.values()].map((skill) => ({ ...skill.summary }));
  }

  /**
   * The names of the skills, sorted.
   *
   * @returns the names
   */
  names(): string[] {
    return [...this.#skills.keys()];
  }

  /**
   * Scans the folder(s) again (synchronously; a SKILL.md is re-read only when its size, time or
   * identity changed) and reports what it found.
   *
   * @returns `{ count, names, skipped, changed }`
   */
  rescan(): SkillRescanReport {
    const skills = new Map<string, ScannedSkill>();
    const skipped: SkippedSkill[] = [];
    const seenFiles = new Set<string>();
    const several = this.directories.length > 1;
    for (const directory of this.directories) {
      const entryName = (name: string) => (several ? join(directory, name) : name);
      let real: string;
      let entries: string[];
      try {
        real = realpathSync(directory);
        entries = readdirSync(real).sort();
      } catch (error) {
        const missing = errorCode(error) === "ENOENT";
        skipped.push({
          entry: directory,
          reason: "missing_folder",
          message: missing
            ? `The skills folder ${directory} does not exist yet: no skills from it until it is created.`
            : `The skills folder ${directory} cannot be read (${errorCode(error) ?? "error"}): no skills from it.`,
        });
        continue;
      }
      for (const name of entries) {
        if (name.startsWith(".")) continue;
        const folder = join(real, name);
        let info: Stats;
        try {
          info = lstatSync(folder);
        } catch {
          continue; // removed while scanning
        }
        if (info.isSymbolicLink()) {
          skipped.push({
            entry: entryName(name),
            reason: "symlink",
            message: `Skipped skill ${entryName(name)}: the folder is a symlink (a skill's folder is its sandbox, so links are not followed); copy the skill in instead.`,
          });
          continue;
        }
        if (!info.isDirectory()) continue;
        const outcome = this.#readSkill(folder, name);
        seenFiles.add(join(folder, SKILL_FILE_NAME));
        if (!outcome.ok) {
          skipped.push({
            entry: entryName(name),
            reason: outcome.reason,
            message: `Skipped skill ${entryName(name)}: ${outcome.message}`,
          });
          continue;
        }
        const existing = skills.get(outcome.summary.name);
        if (existing !== undefined) {
          skipped.push({
            entry: entryName(name),
            reason: "duplicate",
            message: `Skipped skill ${entryName(name)}: a skill named ${outcome.summary.name} was already found in ${existing.directory}; rename one of them.`,
          });
          continue;
        }
        if (skills.size >= this.#maxSkills) {
          skipped.push({
            entry: entryName(name),
            reason: "too_many",
            message: `Skipped skill ${entryName(name)}: the registry holds at most ${this.#maxSkills} skills (maxSkills).`,
          });
          continue;
        }
        skills.set(outcome.summary.name, {
          summary: outcome.summary,
          body: outcome.body,
          bodyStartLine: outcome.bodyStartLine,
          directory: folder,
          givenDirectory: join(directory, name),
          stamp: outcome.stamp,
        });
      }
    }
    for (const path of this.#fileCache.keys())
      if (!seenFiles.has(path)) this.#fileCache.delete(path);
    const sorted = new Map([...skills.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const menuText = renderSkillMenu([...sorted.values()].map((skill) => skill.summary));
    const changed = menuText !== this.#menuText;
    this.#skills = sorted;
    this.#menuText = menuText;
    const warned = new Set<string>();
    for (const item of skipped) {
      const key = `${item.entry}\0${item.reason}\0${item.message}`;
      warned.add(key);
      if (this.#warned.has(key)) continue;
      try {
        this.#onWarn?.(item.message, item);
      } catch {
        // a throwing listener must not break the scan
      }
    }
    this.#warned = warned;
    return { count: sorted.size, names: [...sorted.keys()], skipped, changed };
  }

  /** Validates and parses one skill folder's SKILL.md (from the cache when unchanged). */
  #readSkill(
    folder: string,
    name: string,
  ):
    | { ok: true; summary: SkillSummary; body: string; bodyStartLine: number; stamp: string }
    | { ok: false; reason: SkillSkipReason; message: string } {
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
    if (info.size > this.#maxSkillFileBytes) {
      return {
        ok: false,
        reason: "oversized",
        message: `its ${SKILL_FILE_NAME} is ${info.size.toLocaleString("en-US")} bytes, over the ${this.#maxSkillFileBytes.toLocaleString("en-US")}-byte cap (maxSkillFileBytes); move detail into reference files beside it.`,
      };
    }
    const stamp = stampOf(info);
    const cached = this.#fileCache.get(path);
    let outcome: CachedSkillFile["outcome"];
    if (cached !== undefined && cached.stamp === stamp) outcome = cached.outcome;
    else {
      outcome = this.#parse(path, info, name);
      this.#fileCache.set(path, { stamp, outcome });
    }
    return outcome.ok ? { ...outcome, stamp } : outcome;
  }

  #parse(path: string, info: Stats, name: string): CachedSkillFile["outcome"] {
    let bytes: Uint8Array;
    try {
      bytes = readSkillFileBytes(path, info, this.#maxSkillFileBytes);
    } catch (error) {
      return {
        ok: false,
        reason: errorCode(error) === "ELOOP" ? "symlink" : "unreadable",
        message: `its ${SKILL_FILE_NAME} cannot be read (${errorCode(error) ?? "error"}).`,
      };
    }
    if (bytes.length > this.#maxSkillFileBytes) {
      return {
        ok: false,
        reason: "oversized",
        message: `its ${SKILL_FILE_NAME} is over the ${this.#maxSkillFileBytes.toLocaleString("en-US")}-byte cap (maxSkillFileBytes).`,
      };
    }
    let text: string;
    try {
      if (hasNul(bytes)) throw new Error("binary");
      text = decoder.decode(bytes);
    } catch {
      return {
        ok: false,
        reason: "malformed",
        message: `its ${SKILL_FILE_NAME} is not UTF-8 text.`,
      };
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

  /** The skill of a name, rescanning once when it is unknown or its folder changed. */
  #find(name: string): ScannedSkill | undefined {
    const known = this.#skills.get(name);
    if (known !== undefined && this.#isCurrent(known)) return known;
    this.rescan();
    return this.#skills.get(name);
  }

  /** Whether a scanned skill's folder and SKILL.md are still what the scan saw. */
  #isCurrent(skill: ScannedSkill): boolean {
    try {
      const folder = lstatSync(skill.directory);
      if (!folder.isDirectory()) return false;
      return stampOf(lstatSync(join(skill.directory, SKILL_FILE_NAME))) === skill.stamp;
    } catch {
      return false;
    }
  }

  /**
   * Loads a skill: its body (re-read when SKILL.md changed) and the list of its other files with
   * line counts (never their content). Hidden entries and symlinks are not listed.
   *
   * @param name - the skill's name
   * @param context - a signal that stops the listing
   * @returns the skill, or `undefined` when there is none of that name (after a rescan)
   */
  async loadSkill(
    name: string,
    context: SkillSourceContext = {},
  ): Promise<LoadedSkill | undefined> {
    const skill = this.#find(name);
    if (skill === undefined) return undefined;
    const listing = await this.#listFiles(skill.directory, context.signal);
    return {
      name: skill.summary.name,
      description: skill.summary.description,
      body: skill.body,
      bodyStartLine: skill.bodyStartLine,
      files: listing.files,
      filesTotal: listing.total,
      filesAtLeast: listing.atLeast,
    };
  }

  async #listFiles(
    root: string,
    signal: AbortSignal | undefined,
  ): Promise<{ files: SkillFileEntry[]; total: number; atLeast: boolean }> {
    const found: Array<{ path: string; absolute: string; info: Stats }> = [];
    let walked = 0;
    let atLeast = false;
    const walk = async (folder: string, prefix: string, depth: number): Promise<void> => {
      let names: string[];
      try {
        names = (await readdir(folder)).sort();
      } catch {
        return;
      }
      for (const name of names) {
        signal?.throwIfAborted();
        if (name.startsWith(".")) continue;
        if (depth === 0 && name === SKILL_FILE_NAME) continue;
        walked += 1;
        if (walked > MAX_WALKED_ENTRIES) {
          atLeast = true;
          return;
        }
        const absolute = join(folder, name);
        const path = prefix === "" ? name : `${prefix}/${name}`;
        if (isSecretPath(path)) continue;
        let info: Stats;
        try {
          info = await lstat(absolute);
        } catch {
          continue;
        }
        if (info.isDirectory()) {
          if (depth + 1 < MAX_WALK_DEPTH) await walk(absolute, path, depth + 1);
          else atLeast = true;
        } else if (info.isFile()) {
          found.push({ path, absolute, info });
        }
        if (atLeast && walked > MAX_WALKED_ENTRIES) return;
      }
    };
    await walk(root, "", 0);
    found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const files: SkillFileEntry[] = [];
    for (const item of found.slice(0, this.#maxListedFiles)) {
      signal?.throwIfAborted();
      files.push(await this.#describeFile(item.path, item.absolute, item.info));
    }
    return { files, total: found.length, atLeast };
  }

  async #describeFile(path: string, absolute: string, info: Stats): Promise<SkillFileEntry> {
    const entry: SkillFileEntry = { path, bytes: info.size };
    if (info.size > this.#maxReferenceBytes) {
      entry.too_large = true;
      return entry;
    }
    const key = `${absolute}\0${stampOf(info)}`;
    const cached = this.#lineCache.get(key);
    if (cached !== undefined) {
      if (cached < 0) entry.binary = true;
      else entry.lines = cached;
      return entry;
    }
    let lines = -1;
    try {
      const handle = await open(absolute, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      try {
        const bytes = await handle.readFile();
        lines = hasNul(bytes, BINARY_SNIFF_BYTES) ? -1 : countLines(lenientDecoder.decode(bytes));
      } finally {
        await handle.close();
      }
    } catch {
      return entry;
    }
    if (this.#lineCache.size > 10_000) this.#lineCache.clear();
    this.#lineCache.set(key, lines);
    if (lines < 0) entry.binary = true;
    else entry.lines = lines;
    return entry;
  }

  /**
   * Reads one file inside one skill's own folder (see the class description for what is refused).
   *
   * @param skill - the skill's name
   * @param path - the path inside the skill's folder, as the model sent it
   * @param context - a signal
   * @returns the text, or why it cannot be read
   */
  async readSkillFile(
    skill: string,
    path: string,
    context: SkillSourceContext = {},
  ): Promise<SkillFileRead> {
    const found = this.#find(skill);
    if (found === undefined) {
      return {
        ok: false,
        problem: "unknown_skill",
        detail: `There is no skill named ${JSON.stringify(skill)}.`,
      };
    }
    const root = found.directory;
    let realRoot: string;
    try {
      realRoot = await realpath(root);
    } catch {
      return { ok: false, problem: "unknown_skill", detail: `The skill ${skill} was removed.` };
    }
    const shown = JSON.stringify(path);
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
        detail: `path ${shown} is the skill's folder itself, not a file.`,
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
    const candidate = join(realRoot, ...relativePath.split("/"));
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      const code = errorCode(error);
      if (code === "ELOOP") {
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
    context.signal?.throwIfAborted();
    if (!isInside(real, realRoot)) {
      return {
        ok: false,
        problem: "outside_skill",
        detail: `${relativePath} leads out of skill ${skill}'s folder${this.#ownerOf(real, skill)} through a symlink; ${skill} reads only its own files.`,
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
    let handle: FileHandle;
    try {
      handle = await open(real, constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    } catch (error) {
      return {
        ok: false,
        problem: errorCode(error) === "ENOENT" ? "not_found" : "not_regular",
        detail: `${relativePath} cannot be opened (${errorCode(error) ?? "error"}).`,
        path: relativePath,
      };
    }
    try {
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
      // The object opened must be the one checked (a component swapped for a link meanwhile).
      if (!(await this.#openedInside(handle, real, realRoot))) {
        return {
          ok: false,
          problem: "outside_skill",
          detail: `${relativePath} changed while it was being opened and now leads out of skill ${skill}'s folder.`,
          path: relativePath,
        };
      }
      if (info.size > this.#maxReferenceBytes) {
        return {
          ok: false,
          problem: "too_large",
          detail: `${relativePath} is ${info.size.toLocaleString("en-US")} bytes, over the ${this.#maxReferenceBytes.toLocaleString("en-US")}-byte cap of one skill file.`,
          path: relativePath,
        };
      }
      const bytes = await handle.readFile();
      if (hasNul(bytes, BINARY_SNIFF_BYTES)) {
        return {
          ok: false,
          problem: "binary",
          detail: `${relativePath} is a binary file (${bytes.length.toLocaleString("en-US")} bytes), not text.`,
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
    } finally {
      await handle.close().catch(() => undefined);
    }
  }

  /** `" (into skill NAME's folder)"` when a real path lies in another skill's folder. */
  #ownerOf(real: string, self: string): string {
    for (const [name, other] of this.#skills) {
      if (name === self) continue;
      let otherReal: string;
      try {
        otherReal = realpathSync(other.directory);
      } catch {
        continue;
      }
      if (isInside(real, otherReal)) return ` (into skill ${name}'s folder)`;
    }
    return "";
  }

  async #openedInside(handle: FileHandle, real: string, realRoot: string): Promise<boolean> {
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
}
