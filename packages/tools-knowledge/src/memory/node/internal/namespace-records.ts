import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { MemoryRecord, MemorySnapshot } from "../../memory-backend.js";
import {
  FILE_MEMORY_FINE_RACY_WINDOW_MS,
  FILE_MEMORY_RACY_WINDOW_MS,
  FILE_MEMORY_SHARDS,
} from "../file-memory-format.js";
import { newestFiles, type ShardListing, shardName } from "./memory-file-names.js";
import { isMissing, listShard, readNewest, removeStaleTemporaries } from "./memory-folder-io.js";

/** What the last listing of one shard saw. */
interface ShardState {
  /** The shard folder's mtime (ns) when last listed; `-1n` when it did not exist. */
  stamp: bigint;
  /** Listed within the racy window of its mtime: list again next time. */
  racy: boolean;
  /** Key hash → the newest file name listed for it. */
  newest: Map<string, string>;
}

/** What one refresh changed. */
interface Changes {
  set: MemoryRecord[];
  removed: string[];
}

/** The shard folder names of a namespace, `_00` … `_3f`. */
const SHARD_NAMES = Array.from({ length: FILE_MEMORY_SHARDS }, (_, index) => shardName(index));

/** Listings of one shard retried when a file vanishes between the listing and the read. */
const MAX_LISTING_RETRIES = 3;

/** Whether a shard listed now may still change within its mtime's tick. */
function isRacy(stamp: bigint): boolean {
  return (
    stamp >= 0n &&
    Date.now() - Number(stamp / 1_000_000n) <
      (stamp % 1_000_000_000n === 0n ? FILE_MEMORY_RACY_WINDOW_MS : FILE_MEMORY_FINE_RACY_WINDOW_MS)
  );
}

/**
 * The records of one namespace of the file store, kept in memory between snapshots: each
 * snapshot re-checks one `stat` per shard, lists again only a shard whose folder changed (or was
 * racy), and reads only new file names. One refresh runs at a time.
 *
 * @internal
 */
export class NamespaceRecords {
  readonly #folder: string;
  readonly #warn: (message: string) => void;
  readonly #shards = new Map<string, ShardState>();
  /** Key hash → record (of the newest file). */
  readonly #byHash = new Map<string, MemoryRecord>();
  #records = new Map<string, MemoryRecord>();
  /** A snapshot holds `#records`: copy before changing it. */
  #shared = false;
  #revision = 0;
  #refreshing: Promise<void> | undefined;

  /**
   * @param folder - the namespace's folder
   * @param warn - told about files that are not memory files
   */
  constructor(folder: string, warn: (message: string) => void) {
    this.#folder = folder;
    this.#warn = warn;
  }

  /**
   * Brings the records up to date with the folder and returns them.
   *
   * @returns the records (shared: never changed in place afterwards) and their revision
   */
  async snapshot(): Promise<MemorySnapshot> {
    // One refresh at a time per namespace; a call that arrives during one waits for it and then
    // checks again (the folder may have changed after that refresh looked).
    while (this.#refreshing !== undefined) await this.#refreshing;
    const running = this.#refresh();
    this.#refreshing = running;
    try {
      await running;
    } finally {
      this.#refreshing = undefined;
    }
    this.#shared = true;
    return { records: this.#records, revision: String(this.#revision) };
  }

  async #refresh(): Promise<void> {
    const changes: Changes = { set: [], removed: [] };
    await Promise.all(
      SHARD_NAMES.map((shard) => this.#refreshShard(join(this.#folder, shard), shard, changes)),
    );
    if (changes.set.length === 0 && changes.removed.length === 0) return;
    if (this.#shared) {
      this.#records = new Map(this.#records);
      this.#shared = false;
    }
    for (const key of changes.removed) this.#records.delete(key);
    for (const record of changes.set) this.#records.set(record.key, record);
    this.#revision += 1;
  }

  async #refreshShard(shardFolder: string, shard: string, changes: Changes): Promise<void> {
    const known = this.#shards.get(shard);
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
      const listing = newestFiles(names);
      const { loaded, vanished } = await this.#readChanged(shardFolder, listing, known);
      // A file removed between the listing and the read: a writer replaced it; list again.
      if (vanished && attempt < MAX_LISTING_RETRIES) continue;
      const state: ShardState = { stamp, racy: isRacy(stamp), newest: listing.newest };
      this.#apply(shard, state, loaded, known, changes);
      if (listing.temporary.length > 0) void removeStaleTemporaries(shardFolder, listing.temporary);
      return;
    }
  }

  /**
   * Reads the keys whose newest file is new since the last listing, stopping at the first key
   * whose files all vanished (`vanished`).
   */
  async #readChanged(
    shardFolder: string,
    listing: ShardListing,
    known: ShardState | undefined,
  ): Promise<{ loaded: Array<[string, string, MemoryRecord]>; vanished: boolean }> {
    const loaded: Array<[string, string, MemoryRecord]> = [];
    for (const [hash, name] of listing.newest) {
      if (known?.newest.get(hash) === name && this.#byHash.has(hash)) continue;
      const found = await readNewest(shardFolder, listing.all.get(hash) ?? [name], this.#warn);
      if (found === undefined) return { loaded, vanished: true };
      loaded.push([hash, found.name, found.record]);
    }
    return { loaded, vanished: false };
  }

  /** Records one shard's new state: the records read, and the keys whose files are gone. */
  #apply(
    shard: string,
    state: ShardState,
    loaded: ReadonlyArray<[string, string, MemoryRecord]>,
    known: ShardState | undefined,
    changes: Changes,
  ): void {
    for (const [hash, name, record] of loaded) {
      state.newest.set(hash, name);
      const previous = this.#byHash.get(hash);
      if (previous !== undefined && previous.key !== record.key) changes.removed.push(previous.key);
      this.#byHash.set(hash, record);
      changes.set.push(record);
    }
    for (const hash of known?.newest.keys() ?? []) {
      if (state.newest.has(hash)) continue;
      const previous = this.#byHash.get(hash);
      if (previous !== undefined) {
        this.#byHash.delete(hash);
        changes.removed.push(previous.key);
      }
    }
    this.#shards.set(shard, state);
  }
}
