import { randomBytes } from "node:crypto";
import { lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { errorMessage } from "@agentool/contract";
import { encodeIndexParts, IndexFileError } from "../internal/index-file.js";
import { CORPUS_INDEX_FILE } from "./corpus-defaults.js";
import type { CorpusSettings } from "./corpus-settings.js";
import { CorpusState } from "./corpus-state.js";
import { sidecarOfState, stateFromSidecar } from "./state-codec.js";
import { writeParts } from "./write-parts.js";

/** Temporary files older than this are a crashed writer's: removed. */
const STALE_TEMPORARY_MS = 10 * 60_000;

/** A file's identity on disk: inode, size and time. */
async function stampOf(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined);
  return info === undefined ? undefined : `${info.ino}:${info.size}:${info.mtimeMs}`;
}

/**
 * The sidecar index file: read (a missing or bad one gives an empty index), written atomically
 * (temp file + rename), and watched for another process's write by its stamp.
 */
export class CorpusSidecar {
  readonly #settings: Pick<CorpusSettings, "folder" | "indexPath" | "fingerprint" | "warn">;
  /** The index file as this process last wrote or read it (to notice another process's write). */
  #stamp: string | undefined;
  #ready = false;
  #saveWarned = false;
  /** The vector arrays of each save in flight (they are written from where they are). */
  readonly #vectorsBeingWritten: Array<Set<Float32Array>> = [];

  /**
   * @param settings - where the sidecar is, the fingerprint, the warning sink
   */
  constructor(settings: Pick<CorpusSettings, "folder" | "indexPath" | "fingerprint" | "warn">) {
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
    let buffer: Buffer;
    try {
      buffer = await readFile(this.#settings.indexPath);
    } catch {
      this.#stamp = undefined;
      return this.emptyState();
    }
    this.#stamp = await stampOf(this.#settings.indexPath);
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
    try {
      const buffer = await readFile(this.#settings.indexPath);
      const adopted = stateFromSidecar(buffer, this.#settings.fingerprint);
      this.#stamp = stamp;
      return adopted;
    } catch {
      this.#stamp = stamp;
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
      await writeParts(temporary, parts);
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

  /** Creates the folder with its `.gitignore` and removes a crashed writer's temporary files. */
  async #prepareFolder(): Promise<void> {
    const folder = this.#settings.folder;
    await mkdir(folder, { recursive: true });
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
