import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { parseOptions } from "@agentool/contract";
import { z } from "zod";
import type {
  MemoryBackend,
  MemoryRecord,
  MemorySnapshot,
  MemoryWriteOutcome,
} from "../memory/memory-backend.js";
import { encodeNamespaceLabel } from "../memory/memory-rules.js";

/** Shard folders per namespace: a key's file sits in one of 64, so a write lists ~1/64 of them. */
export const FILE_MEMORY_SHARDS = 64;

/** The `format` field of every memory file. */
export const FILE_MEMORY_FORMAT = "agentool-memory";

/**
 * A shard changed less than this long before it was listed may change again within the same
 * file-system timestamp tick: it is listed again on the next snapshot ("racy" timestamps, as git
 * calls them). 2 s covers file systems with whole-second timestamps (FAT, some network ones).
 */
export const FILE_MEMORY_RACY_WINDOW_MS = 2_000;

/**
 * The racy window on a file system with sub-second timestamps (a folder's mtime with nanoseconds
 * set): 100 ms, well above the kernel's coarse clock tick.
 */
export const FILE_MEMORY_FINE_RACY_WINDOW_MS = 100;

/** A temporary file older than this is left over by a killed writer and removed. */
export const FILE_MEMORY_STALE_TEMP_MS = 10 * 60_000;

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

interface StoredFile {
  format: string;
  version: number;
  key: string;
  content: string;
  tags: string[];
  created_at: string;
  updated_at: string;
}

interface ShardState {
  /** The shard folder's mtime (ns) when last listed; `-1n` when it did not exist. */
  stamp: bigint;
  /** Listed within the racy window of its mtime: list again next time. */
  racy: boolean;
  /** Key hash → the newest file name listed for it. */
  newest: Map<string, string>;
}

interface NamespaceCache {
  shards: Map<string, ShardState>;
  /** Key hash → record (of the newest file). */
  byHash: Map<string, MemoryRecord>;
  records: Map<string, MemoryRecord>;
  /** A snapshot holds `records`: copy before changing it. */
  shared: boolean;
  revision: number;
  refreshing: Promise<void> | undefined;
}

/** Versions written by this process, so two writes of one key in one microsecond still order. */
let lastVersionMicros = 0n;

function nextVersion(atLeastAfter: string | undefined): string {
  let micros = BigInt(Date.now()) * 1000n;
  const seen = atLeastAfter === undefined ? 0n : BigInt(atLeastAfter.slice(0, 17));
  if (micros <= seen) micros = seen + 1n;
  if (micros <= lastVersionMicros) micros = lastVersionMicros + 1n;
  lastVersionMicros = micros;
  return `${micros.toString().padStart(17, "0")}-${randomBytes(4).toString("hex")}`;
}

const FILE_NAME = /^([0-9a-f]{24})\.(\d{17}-[0-9a-f]{8})\.json$/;

function keyHash(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex").slice(0, 24);
}

function shardOf(hash: string): string {
  const value = Number.parseInt(hash.slice(0, 2), 16) % FILE_MEMORY_SHARDS;
  return `_${value.toString(16).padStart(2, "0")}`;
}

function folderLabel(label: string): string {
  const encoded = encodeNamespaceLabel(label);
  // `=` never appears in an encoded label, so a hashed name cannot collide with a plain one.
  return encoded.length <= 120
    ? encoded
    : `=${createHash("sha256").update(label, "utf8").digest("hex")}`;
}

function isMissing(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT"
  );
}

function parseRecord(text: string, fileName: string): MemoryRecord | undefined {
  let value: StoredFile;
  try {
    value = JSON.parse(text) as StoredFile;
  } catch {
    return undefined;
  }
  if (
    typeof value !== "object" ||
    value === null ||
    value.format !== FILE_MEMORY_FORMAT ||
    typeof value.key !== "string" ||
    typeof value.content !== "string" ||
    !Array.isArray(value.tags) ||
    typeof value.created_at !== "string" ||
    typeof value.updated_at !== "string"
  ) {
    return undefined;
  }
  return Object.freeze({
    key: value.key,
    content: value.content,
    tags: Object.freeze(value.tags.filter((tag): tag is string => typeof tag === "string")),
    createdAt: value.created_at,
    updatedAt: value.updated_at,
    revision: fileName,
  });
}

/** The newest file per key hash among a shard's names (versions sort as strings). */
function newestFiles(names: readonly string[]): {
  newest: Map<string, string>;
  all: Map<string, string[]>;
  temporary: string[];
} {
  const newest = new Map<string, string>();
  const all = new Map<string, string[]>();
  const temporary: string[] = [];
  for (const name of names) {
    if (name.startsWith(".") && name.endsWith(".tmp")) {
      temporary.push(name);
      continue;
    }
    const match = FILE_NAME.exec(name);
    if (match === null) continue;
    const hash = match[1] as string;
    const known = newest.get(hash);
    if (known === undefined || known < name) newest.set(hash, name);
    const list = all.get(hash);
    if (list === undefined) all.set(hash, [name]);
    else list.push(name);
  }
  return { newest, all, temporary };
}

async function listShard(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

async function fsyncFolder(folder: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(folder, "r");
    await handle.sync();
  } catch {
    // Not every platform can fsync a folder (Windows); the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => undefined);
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
  const warn = parsed.onWarn ?? (() => undefined);
  const caches = new Map<string, NamespaceCache>();
  const madeFolders = new Set<string>();

  const folderOf = (namespace: readonly string[]) => join(directory, ...namespace.map(folderLabel));

  const ensureFolder = async (folder: string) => {
    if (madeFolders.has(folder)) return;
    await mkdir(folder, { recursive: true });
    madeFolders.add(folder);
  };

  const readNewest = async (
    shardFolder: string,
    names: readonly string[],
  ): Promise<{ record: MemoryRecord; name: string } | undefined> => {
    // Newest first; an unreadable newest file (never expected) falls back to the one before.
    for (const name of [...names].sort().reverse()) {
      let text: string;
      try {
        text = await readFile(join(shardFolder, name), "utf8");
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      const record = parseRecord(text, name);
      if (record !== undefined) return { record, name };
      warn(`file memory store: ${join(shardFolder, name)} is not a memory file; skipped.`);
    }
    return undefined;
  };

  const keyFiles = async (namespace: readonly string[], key: string) => {
    const hash = keyHash(key);
    const shardFolder = join(folderOf(namespace), shardOf(hash));
    const names = (await listShard(shardFolder)).filter(
      (name) => name.startsWith(`${hash}.`) && FILE_NAME.test(name),
    );
    return { hash, shardFolder, names };
  };

  const removeStaleTemporaries = async (shardFolder: string, names: readonly string[]) => {
    for (const name of names) {
      try {
        const info = await stat(join(shardFolder, name));
        if (Date.now() - info.mtimeMs > FILE_MEMORY_STALE_TEMP_MS) {
          await unlink(join(shardFolder, name));
        }
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  };

  const cacheOf = (namespace: readonly string[]): NamespaceCache => {
    const id = JSON.stringify(namespace);
    let cache = caches.get(id);
    if (cache === undefined) {
      cache = {
        shards: new Map(),
        byHash: new Map(),
        records: new Map(),
        shared: false,
        revision: 0,
        refreshing: undefined,
      };
      caches.set(id, cache);
    }
    return cache;
  };

  const refreshShard = async (
    cache: NamespaceCache,
    shardFolder: string,
    shard: string,
    changes: { set: MemoryRecord[]; removed: string[] },
  ): Promise<void> => {
    const known = cache.shards.get(shard);
    let info: { mtimeNs: bigint } | undefined;
    try {
      info = await stat(shardFolder, { bigint: true });
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    const stamp = info?.mtimeNs ?? -1n;
    if (known !== undefined && !known.racy && known.stamp === stamp) return;
    for (let attempt = 0; ; attempt += 1) {
      const names = info === undefined ? [] : await listShard(shardFolder);
      const { newest, all, temporary } = newestFiles(names);
      let vanished = false;
      const loaded: Array<[string, string, MemoryRecord | undefined]> = [];
      for (const [hash, name] of newest) {
        if (known?.newest.get(hash) === name && cache.byHash.has(hash)) continue;
        const found = await readNewest(shardFolder, all.get(hash) ?? [name]);
        if (found === undefined) {
          vanished = true;
          break;
        }
        loaded.push([hash, found.name, found.record]);
      }
      // A file removed between the listing and the read: a writer replaced it; list again.
      if (vanished && attempt < 3) continue;
      const state: ShardState = {
        stamp,
        racy:
          stamp >= 0n &&
          Date.now() - Number(stamp / 1_000_000n) <
            (stamp % 1_000_000_000n === 0n
              ? FILE_MEMORY_RACY_WINDOW_MS
              : FILE_MEMORY_FINE_RACY_WINDOW_MS),
        newest,
      };
      for (const [hash, name, record] of loaded) {
        if (record === undefined) continue;
        state.newest.set(hash, name);
        const previous = cache.byHash.get(hash);
        if (previous !== undefined && previous.key !== record.key)
          changes.removed.push(previous.key);
        cache.byHash.set(hash, record);
        changes.set.push(record);
      }
      for (const hash of known?.newest.keys() ?? []) {
        if (newest.has(hash)) continue;
        const previous = cache.byHash.get(hash);
        if (previous !== undefined) {
          cache.byHash.delete(hash);
          changes.removed.push(previous.key);
        }
      }
      cache.shards.set(shard, state);
      if (temporary.length > 0) void removeStaleTemporaries(shardFolder, temporary);
      return;
    }
  };

  const refresh = async (namespace: readonly string[], cache: NamespaceCache) => {
    const folder = folderOf(namespace);
    const changes = { set: [] as MemoryRecord[], removed: [] as string[] };
    const shards = Array.from(
      { length: FILE_MEMORY_SHARDS },
      (_, index) => `_${index.toString(16).padStart(2, "0")}`,
    );
    await Promise.all(
      shards.map((shard) => refreshShard(cache, join(folder, shard), shard, changes)),
    );
    if (changes.set.length === 0 && changes.removed.length === 0) return;
    if (cache.shared) {
      cache.records = new Map(cache.records);
      cache.shared = false;
    }
    for (const key of changes.removed) cache.records.delete(key);
    for (const record of changes.set) cache.records.set(record.key, record);
    cache.revision += 1;
  };

  return {
    directory,
    async read(namespace, key) {
      const { shardFolder, names } = await keyFiles(namespace, key);
      if (names.length === 0) return undefined;
      const found = await readNewest(shardFolder, names);
      return found?.record.key === key ? found.record : undefined;
    },
    async write(namespace, request): Promise<MemoryWriteOutcome> {
      const { hash, shardFolder, names } = await keyFiles(namespace, request.key);
      const previous = names.length === 0 ? undefined : await readNewest(shardFolder, names);
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
      await ensureFolder(shardFolder);
      const temporary = join(
        shardFolder,
        `.${hash}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`,
      );
      const handle = await open(temporary, "wx", 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(stored)}\n`, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(temporary, join(shardFolder, name));
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
      await fsyncFolder(shardFolder);
      for (const old of names) {
        if (old < name) await unlink(join(shardFolder, old)).catch(() => undefined);
      }
      const record = parseRecord(JSON.stringify(stored), name) as MemoryRecord;
      return { record, created: previous === undefined };
    },
    async delete(namespace, key) {
      const { shardFolder, names } = await keyFiles(namespace, key);
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
    },
    async snapshot(namespace): Promise<MemorySnapshot> {
      const cache = cacheOf(namespace);
      // One refresh at a time per namespace; a call that arrives during one waits for it and then
      // checks again (the folder may have changed after that refresh looked).
      while (cache.refreshing !== undefined) await cache.refreshing;
      const running = refresh(namespace, cache);
      cache.refreshing = running;
      try {
        await running;
      } finally {
        cache.refreshing = undefined;
      }
      cache.shared = true;
      return { records: cache.records, revision: String(cache.revision) };
    },
  };
}
