import { randomBytes } from "node:crypto";
import type { Stats } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage, formatCount } from "@agentool/contract";
import { encodeIndexParts, IndexFileError } from "../internal/index-file.js";
import { readRegularFile } from "../internal/read-regular-file.js";
import { CORPUS_INDEX_FILE, MAX_INDEX_FILE_BYTES } from "./corpus-defaults.js";
import type { CorpusSettings } from "./corpus-settings.js";
import { CorpusState } from "./corpus-state.js";
import { sidecarOfState, stateFromSidecar } from "./state-codec.js";
import { writeParts } from "./write-parts.js";

/** Temporary files older than this are a crashed writer's: removed. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/** A file's identity on disk: inode, size and time. */
function stampOfInfo(info: Pick<Stats, "ino" | "size" | "mtimeMs">): string {
  return `${info.ino}:${info.size}:${info.mtimeMs}`;
}

/** The stamp of the entry at `path` itself (a link's own, never its target's). */
async function stampOf(path: string): Promise<string | undefined> {
  const info = await lstat(path).catch(() => undefined);
  return info === undefined ? undefined : stampOfInfo(info);
}

/** Thrown when the default sidecar folder is a link or not a folder: nothing is written there. */
class UnconfinedFolderError extends Error {}

/** What the sidecar needs of the settings. */
type SidecarSettings = Pick<
  CorpusSettings,
  "folder" | "indexPath" | "confinedFolder" | "fingerprint" | "warn"
>;

/**
 * The sidecar index file: read (a missing or bad one gives an empty index), written atomically
 * (temp file + rename), and watched for another process's write by its stamp. The file is read
 * only when it is a regular file (opened without following a link, never blocking, at most
 * {@link MAX_INDEX_FILE_BYTES}); the default folder `<root>/.knowledge` is read and written only
 * while it is a real folder (a link there, to anywhere, keeps the index in memory).
 */
export class CorpusSidecar {
  readonly #settings: SidecarSettings;
  /** The index file as this process last wrote or read it (to notice another process's write). */
  #stamp: string | undefined;
  #ready = false;
  #saveWarned = false;
  /** The vector arrays of each save in flight (they are written from where they are). */
  readonly #vectorsBeingWritten: Array<Set<Float32Array>> = [];

  /**
   * @param settings - where the sidecar is, the fingerprint, the warning sink
   */
  constructor(settings: SidecarSettings) {
    this.#settings = settings;
  }

  /** Whether a sidecar was read or written (else there was none). */
  get exists(): boolean {
    return this.#stamp !== undefined;
  }

  /** An empty index with this source's fingerprint. */
  emptyState(): CorpusState {
    return new CorpusState(this.#settings.fingerprint);
  }

  /** Forgets the stamp (after `close`: the next search reads the sidecar again). */
  forget(): void {
    this.#stamp = undefined;
  }

  /**
   * Loads the sidecar; a missing one gives an empty index, a bad one an empty index and a warning.
   *
   * @param warnings - where the warning goes
   * @returns the index
   */
  async load(warnings: string[]): Promise<CorpusState> {
    this.#stamp = undefined;
    // A linked default folder is never read; the first save says why nothing is written.
    if ((await this.#folderProblem()) !== undefined) return this.emptyState();
    let buffer: Buffer;
    try {
      const read = await readRegularFile(this.#settings.indexPath, MAX_INDEX_FILE_BYTES);
      if (read.kind === "missing") return this.emptyState();
      if (read.kind !== "read") {
        const reason =
          read.kind === "too_large"
            ? `the index file is larger than ${formatCount(MAX_INDEX_FILE_BYTES)} bytes`
            : "the index file is not a regular file";
        this.#settings.warn(warnings, `The knowledge index was rebuilt: ${reason}.`);
        return this.emptyState();
      }
      buffer = read.bytes;
      this.#stamp = stampOfInfo(read.info);
    } catch {
      return this.emptyState();
    }
    try {
      return stateFromSidecar(buffer, this.#settings.fingerprint);
    } catch (error) {
      const reason =
        error instanceof IndexFileError
          ? error.message
          : `it could not be read (${errorMessage(error)})`;
      this.#settings.warn(warnings, `The knowledge index was rebuilt: ${reason}.`);
      return this.emptyState();
    }
  }

  /**
   * The sidecar another process wrote since this one last saw it; `undefined` when there is none
   * (or it cannot be read, or it is another configuration's: ours is kept, our next save
   * replaces it).
   */
  async readNewer(): Promise<CorpusState | undefined> {
    const stamp = await stampOf(this.#settings.indexPath);
    if (stamp === undefined || stamp === this.#stamp) return undefined;
    this.#stamp = stamp;
    if ((await this.#folderProblem()) !== undefined) return undefined;
    try {
      const read = await readRegularFile(this.#settings.indexPath, MAX_INDEX_FILE_BYTES);
      if (read.kind !== "read") return undefined;
      this.#stamp = stampOfInfo(read.info);
      return stateFromSidecar(read.bytes, this.#settings.fingerprint);
    } catch {
      return undefined;
    }
  }

  /**
   * Whether a save in flight is writing this array (a new vector then goes into a copy).
   *
   * @param vectors - a file's vectors
   */
  isBeingWritten(vectors: Float32Array): boolean {
    return this.#vectorsBeingWritten.some((writing) => writing.has(vectors));
  }

  /**
   * Writes the index (temp file + rename). A failure is warned about once and leaves the index in
   * memory only.
   *
   * @param state - the index
   * @param warnings - where a warning goes
   * @returns whether it was written
   */
  async save(state: CorpusState, warnings: string[]): Promise<boolean> {
    const { folder, indexPath } = this.#settings;
    const index = sidecarOfState(state);
    const parts = encodeIndexParts(index);
    // The vector parts are views of the files' own arrays: until they are written, an embedding
    // writes into a copy instead (see `isBeingWritten`).
    const writing = new Set<Float32Array>();
    for (const file of index.files) if (file.vectors !== undefined) writing.add(file.vectors);
    this.#vectorsBeingWritten.push(writing);
    const temporary = join(
      folder,
      `${CORPUS_INDEX_FILE}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
    );
    try {
      if (!this.#ready) {
        await this.#prepareFolder();
        this.#ready = true;
      }
      // Checked right before the write and again before the rename: a folder swapped for a
      // link meanwhile is never written through.
      const before = await this.#confinedFolder();
      await writeParts(temporary, parts);
      const after = await this.#confinedFolder();
      if (before !== after)
        throw new UnconfinedFolderError(`${folder} was replaced during the save`);
      await rename(temporary, indexPath);
      this.#stamp = await stampOf(indexPath);
      return true;
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      if (!this.#saveWarned) {
        this.#saveWarned = true;
        this.#settings.warn(
          warnings,
          `The knowledge index could not be saved (${errorMessage(error)}); it is kept in memory only.`,
        );
      }
      return false;
    } finally {
      this.#vectorsBeingWritten.splice(this.#vectorsBeingWritten.indexOf(writing), 1);
    }
  }

  /**
   * Why the default folder must not be used (a link or not a folder); `undefined` when it is a
   * real folder, does not exist yet, or is the host's `indexDirectory`.
   */
  async #folderProblem(): Promise<string | undefined> {
    if (!this.#settings.confinedFolder) return undefined;
    const info = await lstat(this.#settings.folder).catch(() => undefined);
    if (info === undefined || (info.isDirectory() && !info.isSymbolicLink())) return undefined;
    return `${this.#settings.folder} is ${info.isSymbolicLink() ? "a symbolic link" : "not a folder"}, not a real folder inside the corpus`;
  }

  /**
   * The default folder's identity (device and inode) when it is a real folder; `""` for a host's
   * `indexDirectory`.
   *
   * @throws UnconfinedFolderError when the default folder is a link, not a folder or missing
   */
  async #confinedFolder(): Promise<string> {
    if (!this.#settings.confinedFolder) return "";
    const problem = await this.#folderProblem();
    if (problem !== undefined) throw new UnconfinedFolderError(problem);
    const info = await lstat(this.#settings.folder);
    return `${info.dev}:${info.ino}`;
  }

  /** Creates the folder with its `.gitignore` and removes a crashed writer's temporary files. */
  async #prepareFolder(): Promise<void> {
    const folder = this.#settings.folder;
    // Never created through a link (a dangling one to a folder outside the root included).
    const problem = await this.#folderProblem();
    if (problem !== undefined) throw new UnconfinedFolderError(problem);
    await mkdir(folder, { recursive: true });
    await this.#confinedFolder();
    await writeFile(
      join(folder, ".gitignore"),
      "# agentool knowledge index: a cache, rebuilt from the files\n*\n",
      { flag: "wx" },
    ).catch(() => undefined);
    const names = await readdir(folder).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      if (!name.startsWith(`${CORPUS_INDEX_FILE}.`) || !name.endsWith(".tmp")) continue;
      const info = await lstat(join(folder, name)).catch(() => undefined);
      if (info !== undefined && now - info.mtimeMs > STALE_TEMPORARY_MS) {
        await rm(join(folder, name), { force: true }).catch(() => undefined);
      }
    }
  }
}
