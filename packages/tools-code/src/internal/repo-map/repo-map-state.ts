import type { MappedFile } from "./collect-files.js";
import { FileFactsCache } from "./file-facts-cache.js";
import { ListingCache } from "./listing-cache.js";
import { FileRanking, type RankFocus, ReferenceIndex } from "./reference-graph.js";

/**
 * The state one `repo_map` tool instance keeps between calls: the per-file cache, and the
 * reference index and rankings of the last file set (rebuilt when any file changed; a ranking per
 * focus, the last few kept). Everything here can be rebuilt from the files.
 *
 * @internal
 */

/** Rankings kept per file set (one per distinct focus). */
const MAX_RANKINGS = 8;

/** See the module comment. */
export class RepoMapState {
  /** The per-file facts. */
  readonly cache: FileFactsCache;
  /** The last listing. */
  readonly listing = new ListingCache();
  #fingerprint: string | undefined;
  #index: ReferenceIndex | undefined;
  readonly #rankings = new Map<string, FileRanking>();

  /** @param maxCachedFiles - most files the cache remembers */
  constructor(maxCachedFiles?: number) {
    this.cache = new FileFactsCache(maxCachedFiles);
  }

  /**
   * The ranking of a file set under a focus, reusing the index and ranking of the previous call
   * when no file changed.
   *
   * @param fingerprint - changes whenever a file of the set changes
   * @param files - the files, in path order
   * @param focus - the focus, resolved to file indexes and names
   * @returns the ranking
   */
  rankingFor(fingerprint: string, files: readonly MappedFile[], focus: RankFocus): FileRanking {
    if (fingerprint !== this.#fingerprint || this.#index === undefined) {
      this.#index = new ReferenceIndex(
        files.map((file) => file.facts.scan),
        this.cache.nameCount,
        files.map((file) => file.path),
      );
      this.#fingerprint = fingerprint;
      this.#rankings.clear();
    }
    const key = `${[...focus.files].sort((a, b) => a - b).join(",")}|${[...focus.names].sort().join(",")}`;
    let ranking = this.#rankings.get(key);
    if (ranking === undefined) {
      ranking = new FileRanking(this.#index, focus, (id) => this.cache.nameOf(id).startsWith("_"));
      if (this.#rankings.size >= MAX_RANKINGS) {
        const oldest = this.#rankings.keys().next().value;
        if (oldest !== undefined) this.#rankings.delete(oldest);
      }
      this.#rankings.set(key, ranking);
    }
    return ranking;
  }
}
