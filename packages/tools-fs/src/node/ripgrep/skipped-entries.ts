import type { SearchRequest } from "../../internal/search-types.js";
import { isPlainEntryPath } from "./probe-skipped-entries.js";
import { toWorkspacePath } from "./ripgrep-records.js";

/** An entry rg left out of a walk as hidden or ignored (from its `--debug` log). */
const IGNORING_LINE =
  /^rg: DEBUG\|ignore::walk\|.*?: ignoring (.+): Ignore\(IgnoreMatch\((.*)\)\)$/;

/**
 * Most hidden / ignored entries the empty-result probe reaches one by one (as rules of an ignore
 * file); past it the probe walks the whole scope with hidden and ignored files.
 */
export const MAX_PROBE_PATHS = 1_000;

/**
 * The hidden or ignored entry a `--debug` line reports, when it is one the probe should reach:
 * left out as hidden or by an ignore file (`.gitignore`, `.ignore`, `.rgignore`); not a secret
 * (overrides), not `.git`.
 */
function skippedEntry(line: string, request: SearchRequest, prefix: string): string | undefined {
  if (!line.includes(": ignoring ")) return undefined;
  const found = IGNORING_LINE.exec(line);
  if (found === null) return undefined;
  const [, reported, reason] = found as unknown as [string, string, string];
  if (!reason.startsWith("Hidden") && !reason.startsWith("Gitignore(")) return undefined; // overrides: secret globs
  const path = toWorkspacePath(reported, prefix);
  // rg logs names raw, so a file name with a line break can forge a line: plain paths only.
  if (!isPlainEntryPath(path) || /[\r\n]/.test(path) || request.isSecret(path)) return undefined;
  return path;
}

/** The hidden and ignored entries a first pass reports leaving out (`--debug`), in order. */
export class SkippedEntries {
  /** Workspace paths of the entries (none inside another: rg does not enter what it skips). */
  readonly paths: string[] = [];
  /** Whether rg logged anything at all (an rg that does not cannot tell what it skipped). */
  logged = false;
  /** More than {@link MAX_PROBE_PATHS} entries. */
  overflowed = false;
  private stopped = false;
  private readonly request: SearchRequest;
  private readonly prefix: string;

  constructor(request: SearchRequest, prefix: string) {
    this.request = request;
    this.prefix = prefix;
  }

  /** Reads one `--debug` line of the first pass. */
  note(line: string): void {
    this.logged = true;
    if (this.stopped || this.overflowed) return;
    const entry = skippedEntry(line, this.request, this.prefix);
    if (entry === undefined) return;
    if (this.paths.length >= MAX_PROBE_PATHS) {
      this.overflowed = true;
      this.paths.length = 0;
      return;
    }
    this.paths.push(entry);
  }

  /** The first pass found a visible match: the entries will not be needed. */
  stop(): void {
    this.stopped = true;
    this.paths.length = 0;
  }
}
