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
