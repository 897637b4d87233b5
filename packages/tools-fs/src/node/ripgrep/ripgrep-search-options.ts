/** Options of `createRipgrepSearcher` and `createRipgrepLister`. */
export interface RipgrepSearchOptions {
  /** The workspace root on disk (the same directory as the Node file system's root). */
  root: string;
  /** The `rg` binary. Default: the one shipped by `@vscode/ripgrep`. */
  rgPath?: string;
  /**
   * Most bytes one rg process may hold (its resident size, and its data segment where util-linux's
   * `prlimit` exists); past it rg is killed and the search fails with `TOO_LARGE`. Default 1 GiB.
   */
  memoryCeilingBytes?: number;
}
