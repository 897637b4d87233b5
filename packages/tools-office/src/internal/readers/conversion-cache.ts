import type { FileStat } from "@agentool/tools-fs";
import type { ItemsDocument, TextDocument } from "./types.js";

/**
 * Documents converted whole (text, notebook cells), kept for the next page of the same file
 * version: keyed by real path, size, modification time and identity, never for a file modified
 * in the last two seconds (its time may not change with a quick second write). Bounded by entry
 * count and characters. A page a reader cut itself (sheet rows, PDF pages, slides: only the
 * page was converted) is never kept.
 *
 * @internal
 */
export class ConversionCache {
  readonly #entries = new Map<string, { document: TextDocument | ItemsDocument; chars: number }>();
  readonly #maxEntries: number;
  readonly #maxChars: number;
  #chars = 0;

  /**
   * @param maxEntries - most documents kept
   * @param maxChars - most characters of Markdown kept in all
   */
  constructor(maxEntries = 4, maxChars = 40_000_000) {
    this.#maxEntries = maxEntries;
    this.#maxChars = maxChars;
  }

  /** The key of a file version, or `undefined` when it is too fresh to cache. */
  static key(real: string, stat: FileStat, now = Date.now()): string | undefined {
    if (now - stat.modifiedMs < 2_000) return undefined;
    return `${real}\0${stat.size}\0${stat.modifiedMs}\0${stat.identity ?? ""}`;
  }

  /** A cached conversion (moved to the front). */
  get(key: string | undefined): TextDocument | ItemsDocument | undefined {
    if (key === undefined) return undefined;
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.document;
  }

  /** Keeps a conversion (the oldest ones leave past the bounds). */
  set(key: string | undefined, document: TextDocument | ItemsDocument): void {
    if (key === undefined) return;
    const chars =
      document.kind === "text"
        ? document.markdown.length
        : document.items.reduce(
            (sum, item) =>
              sum +
              item.markdown.length +
              item.images.reduce((total, image) => total + image.data.length, 0),
            0,
          );
    if (chars > this.#maxChars) return;
    const previous = this.#entries.get(key);
    if (previous !== undefined) this.#chars -= previous.chars;
    this.#entries.delete(key);
    this.#entries.set(key, { document, chars });
    this.#chars += chars;
    for (const [oldest, entry] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#chars <= this.#maxChars) break;
      this.#entries.delete(oldest);
      this.#chars -= entry.chars;
    }
  }
}
