export { createRipgrepLister } from "./create-ripgrep-lister.js";
export { createRipgrepSearcher } from "./create-ripgrep-searcher.js";
export type { RipgrepSearchOptions } from "./ripgrep-search-options.js";
