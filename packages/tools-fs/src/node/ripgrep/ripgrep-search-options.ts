/** Options of `createRipgrepSearcher` and `createRipgrepLister`. */
export interface RipgrepSearchOptions {
  /** The workspace root on disk (the same directory as the Node file system's root). */
  root: string;
  /** The `rg` binary. Default: the one shipped by `@vscode/ripgrep`. */
  rgPath?: string;
}
