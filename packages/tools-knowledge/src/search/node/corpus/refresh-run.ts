import type { CorpusSettings } from "./corpus-settings.js";
import type { CorpusRefreshReport } from "./corpus-source.js";
import type { CorpusState } from "./corpus-state.js";

/** What the steps of one refresh share: the index, the report, the warnings, the signal. */
export interface RefreshRun {
  readonly settings: CorpusSettings;
  readonly state: CorpusState;
  readonly report: CorpusRefreshReport;
  /** The report's warnings. */
  readonly warnings: string[];
  readonly signal: AbortSignal;
  /** Whether the index changed (it is then written after the answer). */
  dirty: boolean;
}

/** Thrown inside a refresh when the vector length changed mid-way: the refresh starts over. */
export class RestartRefresh extends Error {
  constructor() {
    super("restart the refresh");
    this.name = "RestartRefresh";
  }
}

/**
 * A report with nothing done yet.
 *
 * @param warnings - the warnings array the report shares with the run
 * @returns the report
 */
export function emptyReport(warnings: string[]): CorpusRefreshReport {
  return {
    files: 0,
    chunks: 0,
    added: 0,
    changed: 0,
    touched: 0,
    removed: 0,
    embedded: 0,
    pendingEmbeddings: 0,
    saved: false,
    walked: false,
    eventPaths: 0,
    builtOnWorker: false,
    warnings,
    durationMs: 0,
  };
}
