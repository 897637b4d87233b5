import type { RipgrepBinary } from "./memory-ceiling.js";
import type { PinnedScope } from "./pin-scope.js";
import { type RipgrepRun, runRipgrep } from "./run-ripgrep.js";

/** What every rg run of one search shares. */
export interface RipgrepContext extends RipgrepBinary {
  /** The workspace root on disk (real). */
  readonly root: string;
  readonly where: PinnedScope;
}

/**
 * {@link runRipgrep} in a search's context.
 *
 * @param context - the root, the rg binary and where it runs
 * @param args - rg's arguments
 * @param separator - what ends a record
 * @param signal - kills rg
 * @param onRecord - each record; `false` stops rg
 * @param onDebug - each `--debug` line
 * @returns how rg ended
 */
export function runIn(
  context: RipgrepContext,
  args: readonly string[],
  separator: string,
  signal: AbortSignal,
  onRecord: (record: string, final: boolean) => boolean,
  onDebug?: (line: string) => void,
): Promise<RipgrepRun> {
  return runRipgrep(context, context.where, args, separator, signal, onRecord, onDebug);
}
