import { randomBytes } from "node:crypto";
import { open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { MemoryRecord } from "../../memory-backend.js";
import { FILE_MEMORY_STALE_TEMP_MS } from "../file-memory-format.js";
import { parseRecord, type StoredFile } from "./memory-file-names.js";

/** Whether a file-system error says the file is missing. @internal */
export function isMissing(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT"
  );
}

/** A shard folder's names (none when it does not exist). @internal */
export async function listShard(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** Flushes a folder's entries to disk, where the platform can. @internal */
export async function fsyncFolder(folder: string): Promise<void> {
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
 * The record of the newest readable file among one key's files: newest first, an unreadable
 * newest file (never expected) falls back to the one before.
 *
 * @param shardFolder - the shard
 * @param names - the key's file names
 * @param warn - told about a file that is not a memory file
 * @returns the record and its file name, or `undefined` when every file vanished or is foreign
 * @internal
 */
export async function readNewest(
  shardFolder: string,
  names: readonly string[],
  warn: (message: string) => void,
): Promise<{ record: MemoryRecord; name: string } | undefined> {
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
}

/** Removes the temporary files a killed writer left (older than the stale age). @internal */
export async function removeStaleTemporaries(
  shardFolder: string,
  names: readonly string[],
): Promise<void> {
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
}

/**
 * Writes one version of a memory atomically: a temporary file in the shard, fsynced, renamed to
 * its final name, the folder fsynced; then the key's older versions are removed.
 *
 * @param shardFolder - the shard (existing)
 * @param hash - the key's hash
 * @param name - the final file name
 * @param stored - what the file holds
 * @param older - the key's files before this write
 * @internal
 */
export async function writeMemoryFile(
  shardFolder: string,
  hash: string,
  name: string,
  stored: StoredFile,
  older: readonly string[],
): Promise<void> {
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
  for (const old of older) {
    if (old < name) await unlink(join(shardFolder, old)).catch(() => undefined);
  }
}
