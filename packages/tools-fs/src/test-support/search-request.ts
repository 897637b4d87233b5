import { createSecretPathMatcher, DEFAULT_SECRET_PATHS } from "@agentool/contract";
import type { SearchRequest } from "../internal/search-types.js";

/**
 * A search request for engine tests: a content search of the whole root with the default secret
 * paths, `overrides` on top.
 *
 * @param overrides - the fields a test sets
 * @returns the request
 */
export function searchRequest(overrides: Partial<SearchRequest> = {}): SearchRequest {
  return {
    path: "",
    pathType: "directory",
    glob: undefined,
    includeHiddenAndIgnored: false,
    isSecret: createSecretPathMatcher(),
    secretGlobs: DEFAULT_SECRET_PATHS,
    pattern: "x",
    literal: false,
    ignoreCase: false,
    contextLines: 0,
    outputMode: "content",
    limit: 100,
    maxLineCharacters: 300,
    ...overrides,
  };
}
