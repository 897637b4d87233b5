import { mkdir, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import type {
  MemoryBackend,
  MemoryRecord,
  MemorySnapshot,
  MemoryWriteOutcome,
  MemoryWriteRequest,
} from "../memory-backend.js";
import { FILE_MEMORY_FORMAT } from "./file-memory-format.js";
import {
  folderLabel,
  keyHash,
  MEMORY_FILE_NAME,
  nextVersion,
  parseRecord,
  type StoredFile,
  shardOf,
} from "./internal/memory-file-names.js";
import {
  fsyncFolder,
  isMissing,
  listShard,
  readNewest,
  writeMemoryFile,
} from "./internal/memory-folder-io.js";
import { NamespaceRecords } from "./internal/namespace-records.js";

/** Options of {@link createFileMemoryBackend}. */
export interface FileMemoryBackendOptions {
  /** The folder that holds the memories (created when missing). */
  directory: string;
  /** Told about files skipped (unreadable or not a memory file). Default: ignore. */
  onWarn?: (message: string) => void;
}

/** The file store: a {@link MemoryBackend} plus its folder. */
export interface FileMemoryBackend extends MemoryBackend {
  /** The folder, resolved. */
  readonly directory: string;
}

const optionsSchema = z.object({
  directory: z.string().min(1),
  onWarn: z
    .custom<(message: string) => void>((value) => typeof value === "function", {
      error: "expected a function (message: string) => void",
    })
    .optional(),
});

/** The file store's state: its folder, the folders it made, the records of each namespace. */
class FileMemoryStore {
  readonly #directory: string;
  readonly #warn: (message: string) => void;
  readonly #namespaces = new Map<string, NamespaceRecords>();
  readonly #madeFolders = new Set<string>();

  constructor(directory: string, warn: (message: string) => void) {
    this.#directory = directory;
    this.#warn = warn;
  }

  #folderOf(namespace: readonly string[]): string {
    return join(this.#directory, ...namespace.map(folderLabel));
  }

  async #ensureFolder(folder: string): Promise<void> {
    if (this.#madeFolders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    this.#madeFolders.add(folder);
  }

  /** The files of one key: its hash, its shard folder, its file names. */
  async #keyFiles(namespace: readonly string[], key: string) {
    const hash = keyHash(key);
    const shardFolder = join(this.#folderOf(namespace), shardOf(hash));
    const names = (await listShard(shardFolder)).filter(
      (name) => name.startsWith(`${hash}.`) && MEMORY_FILE_NAME.test(name),
    );
    return { hash, shardFolder, names };
  }

  async read(namespace: readonly string[], key: string): Promise<MemoryRecord | undefined> {
    const { shardFolder, names } = await this.#keyFiles(namespace, key);
    if (names.length === 0) return undefined;
    const found = await readNewest(shardFolder, names, this.#warn);
    return found?.record.key === key ? found.record : undefined;
  }

  async write(
    namespace: readonly string[],
    request: MemoryWriteRequest,
  ): Promise<MemoryWriteOutcome> {
    const { hash, shardFolder, names } = await this.#keyFiles(namespace, request.key);
    const previous =
      names.length === 0 ? undefined : await readNewest(shardFolder, names, this.#warn);
    const newestName = names.length === 0 ? undefined : [...names].sort().at(-1);
    const version = nextVersion(newestName?.slice(hash.length + 1, hash.length + 18));
    const name = `${hash}.${version}.json`;
    const at = request.now.toISOString();
    const stored: StoredFile = {
      format: FILE_MEMORY_FORMAT,
      version: 1,
      key: request.key,
      content: request.content,
      tags: [...request.tags],
      created_at: previous?.record.createdAt ?? at,
      updated_at: at,
    };
    await this.#ensureFolder(shardFolder);
    await writeMemoryFile(shardFolder, hash, name, stored, names);
    const record = parseRecord(JSON.stringify(stored), name) as MemoryRecord;
    return { record, created: previous === undefined };
  }

  async delete(namespace: readonly string[], key: string): Promise<boolean> {
    const { shardFolder, names } = await this.#keyFiles(namespace, key);
    if (names.length === 0) return false;
    let removed = false;
    for (const name of names) {
      try {
        await unlink(join(shardFolder, name));
        removed = true;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
    if (removed) await fsyncFolder(shardFolder);
    return removed;
  }

  snapshot(namespace: readonly string[]): Promise<MemorySnapshot> {
    const id = JSON.stringify(namespace);
    let records = this.#namespaces.get(id);
    if (records === undefined) {
      records = new NamespaceRecords(this.#folderOf(namespace), this.#warn);
      this.#namespaces.set(id, records);
    }
    return records.snapshot();
  }
}

/**
 * Creates the file store: memories in a folder the host names, one JSON file per key, built for
 * many processes sharing the folder and for crashes.
 *
 * Layout: `<directory>/<namespace labels…>/_<shard>/<key hash>.<version>.json`. Each label is
 * encoded to letters, digits, `-` and `~XX`; the shard (one of 64) comes from the key's SHA-256;
 * the version is the write's time in microseconds plus 8 random hex digits. A file, once renamed
 * into place, never changes.
 *
 * - **Atomic writes**: the new version is written to a temporary file in the shard, fsynced,
 *   renamed to its final name (and the folder fsynced); then older versions of the key are
 *   removed. A reader sees the old memory or the new one, whole — never a mix, never a torn file.
 * - **Concurrent writers** (threads or processes): different keys touch different files, so
 *   nothing is lost; two writes of one key each leave a whole version and the newer version wins
 *   everywhere (last write wins, whole).
 * - **kill -9 mid-write** leaves at most a temporary file (ignored, removed after 10 minutes) or
 *   two versions of a key (the newer one wins; the next write removes the older).
 * - **Fast search**: a snapshot keeps every record in memory and re-checks one `stat` per shard
 *   (64 per namespace); only a shard whose folder changed is listed again, and only new file names
 *   are read. `memory_search` over 10,000 memories stays well under 20 ms warm.
 *
 * @param options - the folder and a warning listener
 * @returns the backend
 * @throws AgentoolError for invalid options
 * @example
 * const backend = createFileMemoryBackend({ directory: "./memories" });
 * const tools = createMemoryTools({ backend, namespace: ["user", "alice"] });
 */
export function createFileMemoryBackend(options: FileMemoryBackendOptions): FileMemoryBackend {
  const parsed = parseOptions("createFileMemoryBackend", optionsSchema, options);
  const directory = resolve(parsed.directory);
  const store = new FileMemoryStore(directory, parsed.onWarn ?? (() => undefined));
  return {
    directory,
    read: (namespace, key) => store.read(namespace, key),
    write: (namespace, request) => store.write(namespace, request),
    delete: (namespace, key) => store.delete(namespace, key),
    snapshot: (namespace) => store.snapshot(namespace),
  };
}
