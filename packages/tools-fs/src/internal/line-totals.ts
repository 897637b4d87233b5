import type { FileStat } from "../file-system.js";
import { LruCache } from "./line-index.js";

/** File versions whose line count is remembered. */
const REMEMBERED_VERSIONS = 64;

/**
 * The key of one version of a file: its real path, size, modification time and identity (the
 * same key read_file's line index is cached under).
 *
 * @internal
 */
export function fileVersionKey(real: string, stat: FileStat): string {
  return `${real}\0${stat.size}\0${stat.modifiedMs}\0${stat.identity ?? ""}`;
}

/**
 * Line counts of file versions that one tool counted whole and another can use: `file_stats`
 * counts a huge file's lines, and `read_file` then finds a page near the end of that version
 * backwards from the end instead of counting every line before it again.
 *
 * @internal
 */
export class LineTotals {
  readonly #totals = new LruCache<number>(REMEMBERED_VERSIONS);

  /** The line count of a file version, when a tool counted it. */
  get(key: string): number | undefined {
    return this.#totals.get(key);
  }

  /** Remembers the line count of a file version. */
  set(key: string, lines: number): void {
    this.#totals.set(key, lines);
  }
}
