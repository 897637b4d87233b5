import type { PreviewConsoleEntry } from "../preview-backend.js";
import { MAX_CONSOLE_ENTRIES, MAX_CONSOLE_ENTRY_CHARACTERS } from "./limits.js";

/** The console part of a response. */
export interface ConsoleOutput {
  /** Entries, consecutive duplicates collapsed, at most {@link MAX_CONSOLE_ENTRIES}. */
  entries: PreviewConsoleEntry[];
  /** Entries left out by the caps. */
  omitted: number;
}

/**
 * Collapses consecutive duplicates across the driver's batch and the network layer's, and caps
 * the count and the length of the entries.
 *
 * @param batches - the driver's entries, then the backend's refused requests
 * @param omittedBefore - entries the driver already left out
 * @returns the console of one response
 */
export function mergeConsole(
  batches: readonly PreviewConsoleEntry[][],
  omittedBefore: number,
): ConsoleOutput {
  const entries: PreviewConsoleEntry[] = [];
  let omitted = omittedBefore;
  for (const batch of batches) {
    for (const entry of batch) {
      const last = entries[entries.length - 1];
      if (last !== undefined && last.level === entry.level && last.text === entry.text) {
        last.count += entry.count;
        continue;
      }
      if (entries.length >= MAX_CONSOLE_ENTRIES) {
        omitted += 1;
        continue;
      }
      const text =
        entry.text.length > MAX_CONSOLE_ENTRY_CHARACTERS
          ? `${entry.text.slice(0, MAX_CONSOLE_ENTRY_CHARACTERS)}…`
          : entry.text;
      entries.push({ level: entry.level, text, count: entry.count });
    }
  }
  return { entries, omitted };
}
