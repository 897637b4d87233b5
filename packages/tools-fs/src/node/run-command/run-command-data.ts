import type { CommandSandbox } from "./bubblewrap-status.js";

/** A line of output over the line cap: its first and last characters are kept, its middle left out. */
export interface CommandCutLine {
  /** The line's number in its stream (1-based). */
  line: number;
  /** Characters left out of its middle. */
  omitted_characters: number;
  /** Where in the kept line they were: the number of its first characters kept before them. */
  omitted_after: number;
}

/**
 * One output stream of a command, cleaned: ANSI escape codes stripped, a line rewritten with
 * `\r` (a progress bar) reduced to its last state. No markers: the render says what was left out.
 */
export interface CommandOutputData {
  /** The output: all of it when nothing was left out, else its first lines. */
  text: string;
  /** When lines were left out between: the last lines (else `""`). */
  tail: string;
  /** When lines were left out between: the line `tail` starts at (1-based). */
  tail_start_line?: number;
  /** Raw bytes the command wrote to the stream (exact). */
  bytes: number;
  /** Lines in the stream (exact; a last line without a newline counts). */
  lines: number;
  /** Whole lines left out between `text` and `tail`. */
  omitted_lines: number;
  /** Raw bytes of those lines. */
  omitted_bytes: number;
  /** Lines of `text` and `tail` shortened to the line cap (their middle left out). */
  cut_lines: CommandCutLine[];
  /** Whether anything of the stream was left out (lines, or the end of long lines). */
  truncated: boolean;
}

/** What `run_command` returns when the command ran (whatever its exit code). */
export interface RunCommandToolData {
  /** The argv that ran. */
  command: string[];
  /** The working directory, as a workspace path. */
  cwd: string;
  /** The exit code; `null` when a signal ended it. Non-zero means the command ran and failed. */
  exit_code: number | null;
  /** The signal that ended it (e.g. `"SIGSEGV"`), or `null`. */
  signal: string | null;
  /** Wall time in milliseconds. */
  duration_ms: number;
  /** Standard output. */
  stdout: CommandOutputData;
  /** Standard error. */
  stderr: CommandOutputData;
  /** Whether anything of stdout or stderr was left out. */
  truncated: boolean;
  /**
   * Processes the command started were still running when it ended and were stopped; output
   * they would have written later is not here.
   */
  stopped_background: boolean;
  /**
   * Where it ran: `"bubblewrap"` (its own pid, network and mount namespaces; the workspace the
   * only writable place; every process it started stopped when it ended) or `"none"` (the host).
   */
  sandbox: CommandSandbox;
}
