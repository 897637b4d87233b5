import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { AgentoolError, errorMessage } from "@agentool/contract";
import { FileSystemError } from "../../file-system.js";
import type { ListRequest, SearchRequest } from "../../internal/search-types.js";
import { echoPattern } from "../../internal/tool-support.js";
import type { RipgrepRun } from "./run-ripgrep.js";

export function checkFailure(run: RipgrepRun, request: SearchRequest | ListRequest): void {
  if (run.stopped || run.exitCode === 0 || run.exitCode === 1) return;
  const stderr = run.stderr.trim();
  if (
    /regex parse error|error parsing|unclosed|unrecognized|repetition/i.test(stderr) &&
    "pattern" in request
  ) {
    throw new FileSystemError(
      "INVALID_INPUT",
      `pattern ${echoPattern(request.pattern)} is not a valid regular expression: ${stderr.split("\n").slice(0, 6).join(" ")}`,
      "Fix the pattern (Rust regex syntax; escape ( [ { . * + ? with a backslash), or pass literal=true.",
    );
  }
  if (/glob|invalid/i.test(stderr) && request.glob !== undefined) {
    throw new FileSystemError(
      "INVALID_INPUT",
      `glob ${JSON.stringify(request.glob)} is not valid: ${stderr.split("\n")[0] ?? ""}`,
      "Fix the glob, e.g. '**/*.ts' or 'src/**'.",
    );
  }
  // Exit code 2 with partial results (an unreadable file) is not a failure of the search.
}

export function resolveRoot(root: string): string {
  try {
    return realpathSync(resolve(root));
  } catch (error) {
    throw new AgentoolError(
      `createRipgrepSearcher: root ${JSON.stringify(root)} cannot be resolved: ${errorMessage(error)}`,
    );
  }
}
