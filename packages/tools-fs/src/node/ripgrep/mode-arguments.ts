import type { SearchRequest } from "../../internal/search-types.js";

/** The rg flags of an output mode. */
export function modeArguments(request: SearchRequest, stats: boolean): string[] {
  const args = ["--engine=auto", request.ignoreCase ? "--ignore-case" : "--case-sensitive"];
  if (request.literal) args.push("--fixed-strings");
  if (request.outputMode === "content") {
    args.push("--json");
    if (request.contextLines > 0) args.push(`--context=${request.contextLines}`);
  } else {
    args.push(
      request.outputMode === "count" ? "--count" : "--files-with-matches",
      "--with-filename",
      "--null",
    );
    if (stats) args.push("--stats");
  }
  return args;
}
