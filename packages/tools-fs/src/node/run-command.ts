import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import {
  access,
  constants,
  type FileHandle,
  lstat,
  mkdtemp,
  open,
  realpath,
  rm,
  stat,
} from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, isAbsolute, join, relative, resolve } from "node:path";
import {
  AgentoolError,
  defineTool,
  fail,
  formatTruncationMarker,
  ok,
  parseOptions,
  type Tool,
  type ToolResult,
  toolOverridesShape,
} from "@agentool/contract";
import { gitConfigEnvironment, gitNeutralConfig } from "@agentool/contract/policy";
import { z } from "zod";
import {
  guardFileSystem,
  joinDescription,
  mountedTools,
  mountedToolsOption,
  workspaceOption,
} from "../internal/tool-support.js";
import { createWorkspace, type Workspace } from "../workspace.js";
import { type ArgumentPolicy, defaultArgumentPolicy } from "./argument-policy.js";
import { climbsOut, createNodeFileSystem } from "./node-file-system.js";
import {
  bubblewrapStatus,
  buildBubblewrapArguments,
  type CommandSandbox,
  findSecretPaths,
  type HiddenPath,
} from "./sandbox.js";

/** The default name of the command tool. */
export const RUN_COMMAND_TOOL_NAME = "run_command";

/** Default time a command may run when the model gives no `timeout_ms`: 30 seconds. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;

/** Default longest `timeout_ms` a model may ask for: 5 minutes. */
export const DEFAULT_MAX_COMMAND_TIMEOUT_MS = 300_000;

/** Default wait between SIGTERM and SIGKILL when a command is stopped: 2 seconds. */
export const DEFAULT_KILL_GRACE_MS = 2_000;

/** Default cap on the characters of output shown (stdout and stderr together): 30,000. */
export const DEFAULT_MAX_OUTPUT_CHARACTERS = 30_000;

/** Default cap on the characters shown of one output line: 2,000 (the rest is counted). */
export const DEFAULT_MAX_OUTPUT_LINE_CHARACTERS = 2_000;

/** Default cap on the bytes a command may write (both streams): 512 MiB; past it the command is stopped. */
export const DEFAULT_MAX_CAPTURED_BYTES = 512 * 1_048_576;

/** Default wait for a command's output after its process ended (background jobs may hold it): 1 s. */
export const DEFAULT_OUTPUT_DRAIN_MS = 1_000;

/** Default lines kept from the start of each stream: 200. */
export const DEFAULT_MAX_HEAD_LINES = 200;

/** Default lines kept from the end of each stream: 200. */
export const DEFAULT_MAX_TAIL_LINES = 200;

/** Environment variables passed to commands by default (when set in the host's environment). */
export const DEFAULT_ENVIRONMENT_ALLOWLIST: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "LC_MESSAGES",
  "TERM",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "NO_COLOR",
  "SYSTEMROOT",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
];

/** Names never passed on from the host's environment, even when allowlisted. */
export const SECRET_ENVIRONMENT_PATTERN: RegExp =
  /KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE/i;

/** Characters that mean something to a shell: a command string holding one is refused. */
export const SHELL_METACHARACTERS: RegExp = /[;|&$`<>(){}[\]*?~!'"\\\n\r]/;

/** Options of {@link createRunCommandTool}. */
export interface RunCommandToolOptions {
  /**
   * The executables the model may run: bare names (`"git"`, matched against argv[0] exactly)
   * or absolute paths (`"/usr/bin/git"`, which also admit the bare name `git` and run that exact
   * file). A path-like argv[0] (`./rm`, `/bin/rm`) is refused unless listed exactly. Empty =
   * refuse everything. Allowing an interpreter (`sh`, `bash`, `node`, `python`, `env`, `xargs`,
   * `find`) allows anything it can run.
   */
  allowedCommands: readonly string[];
  /**
   * The confined workspace the `cwd` argument is resolved in. Needs the Node seam unless `root`
   * is given too. Give `workspace` or `root` (or both).
   */
  workspace?: Workspace;
  /**
   * The workspace root on disk (absolute path). Without `workspace`, a Node workspace over it is
   * created with the default secret paths. Default: the workspace's `displayRoot` (Node seam).
   */
  root?: string;
  /** Host environment variables passed on (when set). Default {@link DEFAULT_ENVIRONMENT_ALLOWLIST}. Names matching {@link SECRET_ENVIRONMENT_PATTERN} are never passed on. */
  environmentAllowlist?: readonly string[];
  /** Fixed variables set for every command, as given (the host's choice; not filtered). */
  environment?: Record<string, string>;
  /** Timeout when the model gives none. Default {@link DEFAULT_COMMAND_TIMEOUT_MS} (30 s). */
  defaultTimeoutMs?: number;
  /** Longest `timeout_ms` allowed. Default {@link DEFAULT_MAX_COMMAND_TIMEOUT_MS} (5 min). */
  maxTimeoutMs?: number;
  /** Wait between SIGTERM and SIGKILL. Default {@link DEFAULT_KILL_GRACE_MS} (2 s). */
  killGraceMs?: number;
  /**
   * Most characters of output shown, stdout and stderr together (the first and last lines of
   * each stream; what lies between is counted). Default {@link DEFAULT_MAX_OUTPUT_CHARACTERS} (30,000).
   */
  maxOutputCharacters?: number;
  /** Most characters shown of one output line. Default {@link DEFAULT_MAX_OUTPUT_LINE_CHARACTERS} (2,000). */
  maxLineCharacters?: number;
  /** Most bytes a command may write (both streams); past it the command is stopped (`TOO_LARGE`). Default {@link DEFAULT_MAX_CAPTURED_BYTES} (512 MiB). */
  maxCapturedBytes?: number;
  /**
   * Names of the tools mounted beside this one: the default description names only these.
   * Default: none.
   */
  mountedTools?: readonly string[];
  /** Lines kept from the start of each stream. Default {@link DEFAULT_MAX_HEAD_LINES} (200). */
  maxHeadLines?: number;
  /** Lines kept from the end of each stream. Default {@link DEFAULT_MAX_TAIL_LINES} (200). */
  maxTailLines?: number;
  /** Refuse arguments that name a secret path (`.env`, `~/.ssh/id_rsa`, `--file=.npmrc`). Default `true`. */
  refuseSecretArguments?: boolean;
  /**
   * Where commands run. `"auto"` (default): in a bubblewrap sandbox where `bwrap` works (Linux
   * with bubblewrap installed), else on the host. `"bubblewrap"`: always sandboxed (a call is
   * refused with `DEPENDENCY_MISSING` where it cannot be). `"none"`: on the host, the explicit
   * choice to give up the sandbox — only the argument checks stand then, and they are not a boundary.
   */
  sandbox?: "auto" | "bubblewrap" | "none";
  /** Whether a sandboxed command may use the network. Default `false` (loopback only). */
  network?: boolean;
  /**
   * A check on every argv before it runs: return `{ refused, reason }` to refuse it (`BLOCKED`,
   * naming `refused`). Default {@link defaultArgumentPolicy} (git `-c`, rg `--pre`, tar
   * `--to-command`, sed `e`, find `-exec`, …); compose with it to add your own. Not a boundary.
   */
  argumentPolicy?: ArgumentPolicy;
  /** Replaces the tool's name (snake_case). Default `"run_command"`. */
  name?: string;
  /** Replaces the tool's description. */
  description?: string;
}

const optionsSchema = z.object({
  ...toolOverridesShape,
  allowedCommands: z.array(z.string().min(1)),
  workspace: workspaceOption.optional(),
  root: z
    .string()
    .refine((value) => isAbsolute(value), { error: "root must be an absolute path" })
    .optional(),
  environmentAllowlist: z.array(z.string().min(1)).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  defaultTimeoutMs: z.number().int().min(1).optional(),
  maxTimeoutMs: z.number().int().min(1).optional(),
  killGraceMs: z.number().int().min(0).max(60_000).optional(),
  maxOutputCharacters: z.number().int().min(1_000).max(10_000_000).optional(),
  maxLineCharacters: z.number().int().min(80).max(1_000_000).optional(),
  maxCapturedBytes: z
    .number()
    .int()
    .min(1_024)
    .max(64 * 1_073_741_824)
    .optional(),
  mountedTools: mountedToolsOption,
  maxHeadLines: z.number().int().min(1).max(100_000).optional(),
  maxTailLines: z.number().int().min(1).max(100_000).optional(),
  refuseSecretArguments: z.boolean().optional(),
  sandbox: z.enum(["auto", "bubblewrap", "none"]).optional(),
  network: z.boolean().optional(),
  argumentPolicy: z.custom<ArgumentPolicy>((value) => typeof value === "function").optional(),
});

function createInputSchema(defaultTimeoutMs: number, maxTimeoutMs: number) {
  return z.object({
    // Advertised as an argv array only: clients that turn JSON Schema back into zod
    // (@langchain/mcp-adapters, Mastra) flatten a union and refuse input. A plain string is still
    // accepted, silently, as a one-item array: `execute` splits it, or refuses it, as before.
    command: z
      .preprocess(
        (value) => (typeof value === "string" ? [value] : value),
        z.array(z.string()).min(1),
      )
      .describe(
        'The program and its arguments as an array, e.g. ["git", "status", "--short"]. There is no shell: pipes, redirects, globs, $VARIABLES, quotes and && do not work, and each array item reaches the program as written. A plain string is accepted only without shell characters (it is split on spaces); one with quotes or operators is refused with the array to send instead.',
      ),
    cwd: z
      .string()
      .optional()
      .describe("The working directory, relative to the workspace root. Default: the root."),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(maxTimeoutMs)
      .optional()
      .describe(
        `Stop the command (and everything it started) after this many milliseconds (60000 = one minute). Default ${defaultTimeoutMs}, at most ${maxTimeoutMs}.`,
      ),
  });
}

/**
 * Names models trained on other toolsets send for `run_command`'s fields, accepted silently (each
 * means exactly the field it maps to). `timeout` is not among them — its unit differs between
 * toolsets — so it gets a "did you mean timeout_ms" instead.
 */
export const RUN_COMMAND_ALIASES: Readonly<Record<string, string>> = Object.freeze({
  cmd: "command",
  working_directory: "cwd",
  workdir: "cwd",
});

/** The input schema of `run_command` (with the default limits in its descriptions). */
export const runCommandInputSchema = createInputSchema(
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
);

/** The input of `run_command`. */
export type RunCommandInput = z.output<typeof runCommandInputSchema>;

/** A line of output shortened to the line cap. */
export interface CommandCutLine {
  /** The line's number in its stream (1-based). */
  line: number;
  /** Characters left out at its end. */
  omitted_characters: number;
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
  /** Lines of `text` and `tail` shortened to the line cap. */
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

/** The `run_command` tool's type. */
export type RunCommandTool = Tool<typeof runCommandInputSchema, RunCommandToolData>;

/**
 * Splits a command string on whitespace, or explains why it cannot: shell characters mean the
 * model expects a shell, which this tool never uses.
 *
 * @param command - what the model sent
 * @returns the argv, or `undefined` when the string holds a shell metacharacter
 * @example
 * splitCommandString("git status --short"); // ["git", "status", "--short"]
 * splitCommandString("ls; rm -rf /"); // undefined
 */
export function splitCommandString(command: string): string[] | undefined {
  if (SHELL_METACHARACTERS.test(command)) return undefined;
  return command
    .trim()
    .split(/[ \t]+/)
    .filter((part) => part.length > 0);
}

const SHELL_OPERATOR = /[;|&$`<>(){}[\]*?~!\n\r]/;

/**
 * Reads a command string the way a shell would split it — quotes and backslashes only, nothing
 * expanded — to suggest the argv array to send instead. Never used to run anything.
 *
 * @param command - what the model sent
 * @returns the argv, or `undefined` when the string needs a shell (operators, globs, `$`, unclosed quotes)
 * @example
 * suggestArgv('git commit -m "fix the bug"'); // ["git", "commit", "-m", "fix the bug"]
 * suggestArgv("ls | wc -l"); // undefined
 */
export function suggestArgv(command: string): string[] | undefined {
  const argv: string[] = [];
  let current = "";
  let started = false;
  for (let index = 0; index < command.length; index += 1) {
    const character = command[index] as string;
    if (character === "'") {
      const close = command.indexOf("'", index + 1);
      if (close === -1) return undefined;
      current += command.slice(index + 1, close);
      started = true;
      index = close;
    } else if (character === '"') {
      let close = index + 1;
      let text = "";
      while (close < command.length && command[close] !== '"') {
        const inner = command[close] as string;
        if (inner === "$" || inner === "`") return undefined;
        if (inner === "\\" && close + 1 < command.length) {
          close += 1;
          text += command[close];
        } else text += inner;
        close += 1;
      }
      if (close >= command.length) return undefined;
      current += text;
      started = true;
      index = close;
    } else if (character === "\\") {
      if (index + 1 >= command.length) return undefined;
      index += 1;
      current += command[index];
      started = true;
    } else if (character === " " || character === "\t") {
      if (started) argv.push(current);
      current = "";
      started = false;
    } else if (SHELL_OPERATOR.test(character)) {
      return undefined;
    } else {
      current += character;
      started = true;
    }
  }
  if (started) argv.push(current);
  return argv.length === 0 ? undefined : argv;
}

function normalizeSegments(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "~") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

/** One line of a command's output, cleaned (ANSI codes stripped, `\r` rewrites collapsed). */
interface OutputLine {
  /** The line's text, cut to the line cap. */
  text: string;
  /** Characters cut from the end of the line. */
  omitted: number;
  /** Raw bytes the line took in the stream (its `\n`, escape codes and rewritten states included). */
  bytes: number;
}

enum Escape {
  None,
  Start,
  Intermediate,
  Csi,
  String,
  StringEscape,
}

/**
 * Reads one output stream as lines with bounded memory, whatever its size: the first
 * `maxHeadLines` and the last `maxTailLines` lines are kept (each cut to `maxLineCharacters`),
 * everything else is counted exactly. ANSI escape sequences (colours, cursor moves, OSC titles
 * and links) are stripped; a line rewritten with `\r` (a progress bar) keeps only its last state;
 * a final line without `\n` is kept.
 *
 * @internal
 */
export class CommandOutputCollector {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly head: OutputLine[] = [];
  private readonly tail: OutputLine[] = [];
  private tailStart = 0;
  /** Raw bytes of the stream. */
  bytes = 0;
  /** Lines of the stream (a final line without `\n` counts). */
  lines = 0;
  private gapLines = 0;
  private gapBytes = 0;
  private segment = "";
  private segmentLength = 0;
  private pendingCr = false;
  private lineBytes = 0;
  private escape = Escape.None;

  constructor(
    private readonly maxHeadLines: number,
    private readonly maxTailLines: number,
    private readonly maxLineCharacters: number,
  ) {}

  /** Adds a chunk of raw output. */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    let from = 0;
    let newline = chunk.indexOf(10);
    while (newline !== -1) {
      this.lineBytes += newline - from + 1;
      this.feed(this.decoder.decode(chunk.subarray(from, newline), { stream: true }));
      this.endLine();
      from = newline + 1;
      newline = chunk.indexOf(10, from);
    }
    if (from < chunk.length) {
      this.lineBytes += chunk.length - from;
      this.feed(this.decoder.decode(chunk.subarray(from), { stream: true }));
    }
  }

  /** Ends the stream: a last line without `\n` is kept. */
  finish(): void {
    this.feed(this.decoder.decode());
    if (this.lineBytes > 0) this.endLine();
  }

  private append(text: string): void {
    if (text.length === 0) return;
    if (this.pendingCr) {
      // A `\r` followed by more text rewrites the line: keep only its new state.
      this.segment = "";
      this.segmentLength = 0;
      this.pendingCr = false;
    }
    this.segmentLength += text.length;
    if (this.segment.length < this.maxLineCharacters) {
      this.segment += text.slice(0, this.maxLineCharacters - this.segment.length);
    }
  }

  /** Text without `\n`: strips escape sequences, collapses `\r` rewrites. */
  private feed(text: string): void {
    let run = 0;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (this.escape !== Escape.None) {
        run = index + 1;
        switch (this.escape) {
          case Escape.Start:
            if (code === 0x5b) this.escape = Escape.Csi;
            else if (
              code === 0x5d ||
              code === 0x50 ||
              code === 0x58 ||
              code === 0x5e ||
              code === 0x5f
            )
              this.escape = Escape.String;
            else if (code >= 0x20 && code <= 0x2f) this.escape = Escape.Intermediate;
            else this.escape = Escape.None;
            break;
          case Escape.Intermediate:
            if (code < 0x20 || code > 0x2f) this.escape = Escape.None;
            break;
          case Escape.Csi:
            if (code >= 0x40 && code <= 0x7e) this.escape = Escape.None;
            else if (code < 0x20 || code > 0x3f) {
              // Not a CSI after all: drop the sequence, keep this character.
              this.escape = Escape.None;
              run = index;
              index -= 1;
            }
            break;
          case Escape.String:
            if (code === 0x07) this.escape = Escape.None;
            else if (code === 0x1b) this.escape = Escape.StringEscape;
            break;
          case Escape.StringEscape:
            this.escape = code === 0x5c ? Escape.None : Escape.String;
            break;
        }
        continue;
      }
      if (code === 0x1b || code === 0x0d || code === 0x07) {
        this.append(text.slice(run, index));
        run = index + 1;
        if (code === 0x1b) this.escape = Escape.Start;
        else if (code === 0x0d) this.pendingCr = true;
      }
    }
    if (this.escape === Escape.None) this.append(text.slice(run));
  }

  private endLine(): void {
    // A `\r` right before the `\n` is a CRLF line ending, not a rewrite.
    this.pendingCr = false;
    this.escape = Escape.None;
    let text = this.segment;
    const last = text.charCodeAt(text.length - 1);
    if (text.length > 0 && last >= 0xd800 && last <= 0xdbff && this.segmentLength > text.length)
      text = text.slice(0, -1);
    const line: OutputLine = {
      text,
      omitted: this.segmentLength - text.length,
      bytes: this.lineBytes,
    };
    this.lines += 1;
    this.segment = "";
    this.segmentLength = 0;
    this.lineBytes = 0;
    if (this.head.length < this.maxHeadLines) {
      this.head.push(line);
      return;
    }
    if (this.tail.length < this.maxTailLines) {
      this.tail.push(line);
      return;
    }
    // The ring is full: the oldest tail line falls into the gap.
    const dropped = this.tail[this.tailStart] as OutputLine;
    this.gapLines += 1;
    this.gapBytes += dropped.bytes;
    this.tail[this.tailStart] = line;
    this.tailStart = (this.tailStart + 1) % this.maxTailLines;
  }

  private tailLines(): OutputLine[] {
    return [...this.tail.slice(this.tailStart), ...this.tail.slice(0, this.tailStart)];
  }

  /** What showing everything kept would cost, in characters (`Infinity` when lines were dropped). */
  cost(): number {
    if (this.gapLines > 0) return Number.POSITIVE_INFINITY;
    return [...this.head, ...this.tail].reduce((sum, line) => sum + lineCost(line), 0);
  }

  /**
   * The stream as shown within a character budget: the first lines (about half the budget) and
   * the last lines, with exact counts of what lies between.
   */
  arrange(budget: number): CommandOutputData {
    const lines = [...this.head, ...this.tailLines()];
    const headCount = this.head.length;
    let first = 0;
    let used = 0;
    const total = lines.reduce((sum, line) => sum + lineCost(line), 0);
    let last = lines.length;
    if (this.gapLines > 0 || total > budget) {
      const headBudget = Math.floor(budget / 2);
      while (first < headCount && used + lineCost(lines[first] as OutputLine) <= headBudget) {
        used += lineCost(lines[first] as OutputLine);
        first += 1;
      }
      const tailFloor = this.gapLines > 0 ? Math.max(first, headCount) : first;
      while (last > tailFloor && used + lineCost(lines[last - 1] as OutputLine) <= budget) {
        used += lineCost(lines[last - 1] as OutputLine);
        last -= 1;
      }
    } else {
      first = lines.length;
      last = lines.length;
    }
    const kept = lines.slice(0, first);
    const ending = lines.slice(last);
    const middle = lines.slice(first, last);
    const omittedLines = this.gapLines + middle.length;
    const omittedBytes = this.gapBytes + middle.reduce((sum, line) => sum + line.bytes, 0);
    const tailFirstLine = this.lines - ending.length + 1;
    const cutLines = [
      ...kept.map((line, index) => ({ line: index + 1, omitted_characters: line.omitted })),
      ...ending.map((line, index) => ({
        line: tailFirstLine + index,
        omitted_characters: line.omitted,
      })),
    ].filter((cut) => cut.omitted_characters > 0);
    const data: CommandOutputData = {
      text: kept.map((line) => line.text).join("\n"),
      tail: ending.map((line) => line.text).join("\n"),
      bytes: this.bytes,
      lines: this.lines,
      omitted_lines: omittedLines,
      omitted_bytes: omittedBytes,
      cut_lines: cutLines,
      truncated: omittedLines > 0 || cutLines.length > 0,
    };
    if (omittedLines > 0) data.tail_start_line = tailFirstLine;
    return data;
  }
}

/** Characters a line costs in the rendered output (with room for a cut line's marker). */
function lineCost(line: OutputLine): number {
  return line.text.length + 1 + (line.omitted > 0 ? 80 : 0);
}

/** Where a command's output goes while it runs, and how it is read back. */
interface OutputCapture {
  /** The stdout and stderr of `spawn`'s `stdio`. */
  stdio: [number | "pipe", number | "pipe"];
  /** Connects a spawned child's pipes to the collectors (pipe capture only). */
  attach(child: ChildProcess, stdout: CommandOutputCollector, stderr: CommandOutputCollector): void;
  /** Bytes written so far (both streams). */
  size(): Promise<number>;
  /**
   * Reads what the command wrote into the collectors and ends them; `false` when some output may
   * be missing (a pipe still held open by a background process).
   */
  drain(stdout: CommandOutputCollector, stderr: CommandOutputCollector): Promise<boolean>;
  /** Releases the files. */
  close(): Promise<void>;
}

const CAPTURE_CHUNK_BYTES = 262_144;

async function readCaptured(
  handle: FileHandle,
  end: number,
  collector: CommandOutputCollector,
): Promise<void> {
  const buffer = Buffer.alloc(Math.min(CAPTURE_CHUNK_BYTES, Math.max(1, end)));
  let position = 0;
  while (position < end) {
    const { bytesRead } = await handle.read(
      buffer,
      0,
      Math.min(buffer.length, end - position),
      position,
    );
    if (bytesRead === 0) break;
    collector.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  collector.finish();
}

/**
 * Makes the private directory (mode 0700) and the two capture files (mode 0600) in the first
 * temporary directory that lies outside the workspace — never inside it, where the model's file
 * tools could read another command's output while it runs (a `TMPDIR` under the root, or the root
 * being `/tmp` itself). `undefined` when none can be made.
 */
async function openCaptureFiles(
  workspaceRoots: readonly string[],
): Promise<{ directory: string; handles: FileHandle[] } | undefined> {
  const candidates = [tmpdir(), ...(process.platform === "win32" ? [] : ["/tmp", "/var/tmp"])];
  for (const candidate of new Set(candidates)) {
    let base: string;
    try {
      base = await realpath(candidate);
    } catch {
      continue;
    }
    if (workspaceRoots.some((workspaceRoot) => isInside(workspaceRoot, base))) continue;
    let directory: string | undefined;
    const handles: FileHandle[] = [];
    try {
      directory = await mkdtemp(join(base, "agentool-run-"));
      for (const name of ["stdout", "stderr"]) {
        handles.push(await open(join(directory, name), "w+", 0o600));
      }
      return { directory, handles };
    } catch {
      await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    }
  }
  return undefined;
}

/**
 * Output goes to two private temporary files, not pipes: a program that exits right after
 * writing (a Node child calling `process.exit`) loses nothing — writes to a file are complete
 * when they return, while pending writes to a pipe die with the process — and background jobs
 * holding the output open cannot keep the call waiting. The files live outside the workspace
 * roots given (see {@link openCaptureFiles}) and are removed by `close`. Falls back to pipes (drained after the
 * exit for up to {@link DEFAULT_OUTPUT_DRAIN_MS}) when no temporary file can be made.
 */
async function openCapture(workspaceRoots: readonly string[]): Promise<OutputCapture> {
  const files = await openCaptureFiles(workspaceRoots);
  if (files === undefined) return openPipeCapture();
  const { directory, handles } = files;
  const [out, err] = handles as [FileHandle, FileHandle];
  const root = directory;
  return {
    stdio: [out.fd, err.fd],
    attach: () => undefined,
    size: async () => {
      const [first, second] = await Promise.all([out.stat(), err.stat()]);
      return first.size + second.size;
    },
    drain: async (stdout, stderr) => {
      const [first, second] = await Promise.all([out.stat(), err.stat()]);
      await readCaptured(out, first.size, stdout);
      await readCaptured(err, second.size, stderr);
      return true;
    },
    close: async () => {
      await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
      await rm(root, { recursive: true, force: true });
    },
  };
}

function openPipeCapture(): OutputCapture {
  let pipes: Array<NodeJS.ReadableStream & { destroy(): void }> = [];
  let size = 0;
  let finished: Promise<boolean> = Promise.resolve(true);
  return {
    stdio: ["pipe", "pipe"],
    attach: (child, stdout, stderr) => {
      pipes = [child.stdout, child.stderr].filter(
        (pipe): pipe is NonNullable<typeof pipe> => pipe !== null,
      );
      child.stdout?.on("data", (chunk: Buffer) => {
        size += chunk.length;
        stdout.push(chunk);
      });
      child.stderr?.on("data", (chunk: Buffer) => {
        size += chunk.length;
        stderr.push(chunk);
      });
      finished = Promise.all(
        pipes.map((pipe) => new Promise<void>((resolve) => pipe.once("close", () => resolve()))),
      ).then(() => true);
    },
    size: async () => size,
    drain: async (stdout, stderr) => {
      let timer: NodeJS.Timeout | undefined;
      const complete = await Promise.race([
        finished,
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), DEFAULT_OUTPUT_DRAIN_MS);
        }),
      ]);
      clearTimeout(timer);
      if (!complete) for (const pipe of pipes) pipe.destroy();
      stdout.finish();
      stderr.finish();
      return complete;
    },
    close: async () => undefined,
  };
}

function quoteArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : JSON.stringify(argument);
}

function formatStream(label: string, output: CommandOutputData): string[] {
  if (output.lines === 0) return [];
  const cuts = new Map(output.cut_lines.map((cut) => [cut.line, cut.omitted_characters]));
  const show = (text: string, firstLine: number, count: number) =>
    count === 0
      ? []
      : text.split("\n").map((line, index) => {
          const omitted = cuts.get(firstLine + index);
          return omitted === undefined
            ? line
            : `${line} ${formatTruncationMarker({
                omitted,
                unit: "characters",
                next: `line ${firstLine + index} of ${label} is too long to show whole`,
              })}`;
        });
  if (output.omitted_lines === 0) return show(output.text, 1, output.lines);
  const tailStart = output.tail_start_line ?? output.lines + 1;
  const headCount = tailStart - 1 - output.omitted_lines;
  const marker = formatTruncationMarker({
    omitted: output.omitted_lines,
    unit: "lines",
    next: `${new Intl.NumberFormat("en-US").format(output.omitted_bytes)} bytes of ${label} left out after line ${headCount}; narrow what the command prints (a filter, a count or limit flag, a narrower path, a quieter mode) to see them`,
  });
  return [
    ...show(output.text, 1, headCount),
    marker,
    ...show(output.tail, tailStart, output.lines - tailStart + 1),
  ];
}

/**
 * Renders a finished command for the model: a header with the exit code (saying that a non-zero
 * code means the command ran and failed), then stdout and stderr — their first and last lines
 * with the standard marker between when the middle was left out, long lines cut with a marker.
 *
 * @param data - the command's result
 * @returns model-facing text
 */
export function formatCommandResult(data: RunCommandToolData): string {
  const shown = data.command.map(quoteArgument).join(" ");
  let status: string;
  if (data.signal !== null) status = `ended by signal ${data.signal}`;
  else if (data.exit_code === 0) status = "exit code 0";
  else
    status = `exit code ${data.exit_code} — the command ran and reported a failure; read its output below`;
  const lines = [`$ ${shown}`, `(cwd: ${data.cwd}; ${status}; ${data.duration_ms} ms)`];
  const stdout = formatStream("stdout", data.stdout);
  const stderr = formatStream("stderr", data.stderr);
  if (stdout.length === 0 && stderr.length === 0) lines.push("(no output)");
  if (stdout.length > 0) lines.push(...(stderr.length > 0 ? ["stdout:"] : []), ...stdout);
  if (stderr.length > 0) lines.push("stderr:", ...stderr);
  if (data.stopped_background) {
    lines.push(
      "(The command left processes running in the background; they were stopped, and output they would have written later is not shown.)",
    );
  }
  return lines.join("\n");
}

/** Programs that read whole directory trees whatever their flags. */
const RECURSIVE_PROGRAMS = new Set(["rg", "ripgrep", "tar", "zip", "rsync", "ag", "ack"]);

/** Where the gitattributes file of {@link gitEnvironment} appears inside the sandbox. */
const SANDBOX_GIT_ATTRIBUTES = "/run/agentool/gitattributes";

/** How long after SIGKILL a stopped command's call settles even without an exit event: 1 s. */
const HARD_SETTLE_MS = 1_000;

function isGit(file: string): boolean {
  const name = file.slice(file.lastIndexOf("/") + 1);
  return name === "git" || name === "git.exe";
}

/**
 * The temporary directories a sandboxed command gets empty (other commands' capture files and
 * whatever else the host keeps there stay out of sight); one inside the workspace is left alone.
 */
function privateTemporaryDirectories(rootReal: string): string[] {
  const directories: string[] = [];
  for (const candidate of [tmpdir(), "/tmp", "/var/tmp"]) {
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    if (real === "/" || isInside(rootReal, real) || directories.includes(real)) continue;
    directories.push(real);
  }
  return directories;
}

function isInside(root: string, candidate: string): boolean {
  const inside = relative(root, candidate);
  return inside === "" || !climbsOut(inside);
}

/**
 * Creates the `run_command` tool (Node only): a hardened command runner. argv array only (a
 * string is split only when it holds no shell metacharacter), executable allowlist required
 * (empty = refuse everything), `spawn` without a shell in its own process group, `cwd` confined
 * to the workspace root on its real path, environment scrubbed to an allowlist (never a variable
 * named like a key, token, secret, password, credential or auth), stdin closed, timeout and abort
 * killing the whole process group (SIGTERM, then SIGKILL after a grace period). Output goes to
 * private temporary files (nothing lost when a program exits right after writing; background
 * jobs holding it open cannot keep the call waiting), is cleaned (ANSI codes stripped, `\r`
 * rewrites collapsed) and shown within one character budget: the first and last lines of each
 * stream, long lines cut, exact counts of what was left out, the contract's marker. A non-zero
 * exit is a success envelope carrying `exit_code`; a refused or unstartable command is a failure
 * (`BLOCKED`, `DEPENDENCY_MISSING`, `PERMISSION_DENIED`), a command string that needs a shell is
 * `INVALID_INPUT`, a timeout is `TIMEOUT`.
 *
 * The root on disk comes from `root`, or from the workspace's Node seam (`displayRoot`).
 *
 * @param options - the allowlist, the workspace or root, limits and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid or no root on disk can be found
 * @example
 * const runCommand = createRunCommandTool({ root: "/home/me/project", allowedCommands: ["git", "npm", "ls"] });
 * await runCommand.run({ command: ["git", "status", "--short"] }); // data.exit_code === 0
 */
export function createRunCommandTool(options: RunCommandToolOptions): RunCommandTool {
  const parsed = parseOptions("createRunCommandTool", optionsSchema, options);
  let workspace = parsed.workspace;
  let rootDirectory = parsed.root;
  if (workspace === undefined && rootDirectory === undefined) {
    throw new AgentoolError(
      "createRunCommandTool: give `root` (the workspace directory on disk, absolute) or a `workspace` over the Node file system.",
    );
  }
  if (rootDirectory === undefined) {
    const fileSystem = (workspace as Workspace).fileSystem;
    if (fileSystem.kind !== "node") {
      throw new AgentoolError(
        `createRunCommandTool: the workspace's file system is "${fileSystem.kind}", which has no directory on disk; pass \`root\` too.`,
      );
    }
    rootDirectory = fileSystem.displayRoot;
  }
  if (workspace === undefined) {
    workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root: rootDirectory }) });
  }
  const confined = workspace;
  const root = resolve(rootDirectory);
  const allowed = [...parsed.allowedCommands];
  const environmentAllowlist = parsed.environmentAllowlist ?? DEFAULT_ENVIRONMENT_ALLOWLIST;
  const fixedEnvironment = parsed.environment ?? {};
  const defaultTimeoutMs = parsed.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
  const maxTimeoutMs = Math.max(parsed.maxTimeoutMs ?? DEFAULT_MAX_COMMAND_TIMEOUT_MS, 1);
  const killGraceMs = parsed.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const maxOutputCharacters = parsed.maxOutputCharacters ?? DEFAULT_MAX_OUTPUT_CHARACTERS;
  // A line never takes more than a quarter of the budget, so a cut output still shows both ends.
  const maxLineCharacters = Math.min(
    parsed.maxLineCharacters ?? DEFAULT_MAX_OUTPUT_LINE_CHARACTERS,
    Math.floor(maxOutputCharacters / 4),
  );
  const maxCapturedBytes = parsed.maxCapturedBytes ?? DEFAULT_MAX_CAPTURED_BYTES;
  const toolName = parsed.name ?? RUN_COMMAND_TOOL_NAME;
  const mounted = mountedTools(parsed.mountedTools);
  const maxHeadLines = parsed.maxHeadLines ?? DEFAULT_MAX_HEAD_LINES;
  const maxTailLines = parsed.maxTailLines ?? DEFAULT_MAX_TAIL_LINES;
  const refuseSecretArguments = parsed.refuseSecretArguments ?? true;
  const argumentPolicy = parsed.argumentPolicy ?? defaultArgumentPolicy;
  const sandboxChoice = parsed.sandbox ?? "auto";
  const network = parsed.network ?? false;
  const bubblewrap = sandboxChoice === "none" ? undefined : bubblewrapStatus();
  const sandboxed = sandboxChoice !== "none" && bubblewrap?.available === true;
  const input = createInputSchema(Math.min(defaultTimeoutMs, maxTimeoutMs), maxTimeoutMs);

  const allowedList =
    allowed.length === 0
      ? "none (the host allows no command)"
      : allowed.slice(0, 30).join(", ") +
        (allowed.length > 30 ? `, … (${allowed.length} in all)` : "");

  let searchPath: string[] = [];

  function resolveExecutable(executable: string): string | undefined {
    if (allowed.length === 0) return undefined;
    if (executable.includes("/") || executable.includes("\\")) {
      return allowed.includes(executable) ? executable : undefined;
    }
    if (allowed.includes(executable)) return executable;
    // A bare name admitted by an allowlisted absolute path runs that exact file.
    return allowed.find(
      (entry) => isAbsolute(entry) && entry.slice(entry.lastIndexOf("/") + 1) === executable,
    );
  }

  function buildEnvironment(): NodeJS.ProcessEnv {
    const environment: NodeJS.ProcessEnv = {};
    for (const name of environmentAllowlist) {
      const value = process.env[name];
      if (value === undefined || SECRET_ENVIRONMENT_PATTERN.test(name)) continue;
      environment[name] = value;
    }
    if (environment.PATH !== undefined) environment.PATH = searchPath.join(delimiter);
    for (const [name, value] of Object.entries(fixedEnvironment)) environment[name] = value;
    return environment;
  }

  /**
   * The host's PATH as commands see it and as argv[0] is looked up on: absolute entries only,
   * each on its real path, none inside the workspace (a file the model wrote must never shadow an
   * allowed command — through a symlinked entry either).
   */
  async function filteredPath(rootReal: string): Promise<string[]> {
    const entries: string[] = [];
    for (const entry of (process.env.PATH ?? "").split(delimiter)) {
      if (!isAbsolute(entry)) continue;
      const real = await realpath(entry).catch(() => undefined);
      if (real === undefined || isInside(rootReal, real) || isInside(root, real)) continue;
      if (!entries.includes(real)) entries.push(real);
    }
    return entries;
  }

  /**
   * argv[0] resolved in this process, never by the child: an allowlisted absolute path on its
   * real path, a bare name on the filtered PATH — never the cwd. `undefined` when not found;
   * `{ inside: true }` when the program lies inside the workspace (the model could have written it).
   */
  async function resolveProgram(
    name: string,
    rootReal: string,
  ): Promise<{ file: string; inside: boolean } | undefined> {
    const candidates = isAbsolute(name) ? [name] : searchPath.map((entry) => join(entry, name));
    for (const candidate of candidates) {
      try {
        const real = await realpath(candidate);
        const stats = await stat(real);
        if (!stats.isFile()) continue;
        await access(real, constants.X_OK);
        return { file: real, inside: isInside(rootReal, real) || isInside(root, real) };
      } catch {
        // not this one
      }
    }
    return undefined;
  }

  /**
   * Without the sandbox: a program told to read a directory recursively (`grep -r`, `cp -r`,
   * rg, tar, zip) would read the secret files inside it, so a directory argument (or the cwd,
   * when none is given) that holds a secret path is refused. Scans only those directories.
   */
  async function refusedRecursiveRead(
    argv: readonly string[],
    program: string,
    cwdAbsolute: string,
    rootReal: string,
  ): Promise<{ argument: string; why: string } | undefined> {
    const name = program.slice(program.lastIndexOf("/") + 1);
    const args = argv.slice(1);
    const recursive =
      RECURSIVE_PROGRAMS.has(name) ||
      args.some(
        (argument) =>
          argument === "--recursive" ||
          argument === "--dereference-recursive" ||
          argument.startsWith("--directories=recurse") ||
          /^-[a-zA-Z]*[rR]/.test(argument) ||
          (name === "cp" && /^-[a-zA-Z]*a/.test(argument)),
      );
    if (!recursive) return undefined;
    const directories: Array<[string, string]> = [];
    for (const argument of args) {
      const value =
        argument.startsWith("-") && argument.includes("=")
          ? argument.slice(argument.indexOf("=") + 1)
          : argument;
      if (value.startsWith("-") || value.length === 0) continue;
      const real = await realpath(resolve(cwdAbsolute, value)).catch(() => undefined);
      if (real === undefined || !isInside(rootReal, real)) continue;
      if ((await stat(real).catch(() => undefined))?.isDirectory())
        directories.push([argument, real]);
    }
    if (directories.length === 0) directories.push([".", cwdAbsolute]);
    for (const [argument, directory] of directories) {
      const base = relative(rootReal, directory).split("\\").join("/");
      const secrets = await findSecretPaths(directory, (path) =>
        confined.isSecret(base.length === 0 ? path : `${base}/${path}`),
      );
      if (secrets.length > 0) {
        const first = relative(rootReal, (secrets[0] as HiddenPath).path);
        return {
          argument,
          why: `is read recursively and holds secret paths (${first}${secrets.length > 1 ? ` and ${secrets.length - 1} more` : ""})`,
        };
      }
    }
    return undefined;
  }

  const DEVICE_ARGUMENTS = new Set(["/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "-"]);

  /**
   * Without the sandbox: every argument (and the value of `--option=value`) that names a path —
   * an existing one relative to cwd or absolute, or any with a `/` — on its real path: refused
   * when it leads out of the root or to a secret path. A convenience, not a boundary (a program
   * may read paths from its own config, stdin or a pattern).
   */
  async function refusedPathArgument(
    args: readonly string[],
    cwdAbsolute: string,
    rootReal: string,
  ): Promise<{ argument: string; why: string } | undefined> {
    for (const argument of args) {
      const values = [argument];
      const equals = argument.indexOf("=");
      if (argument.startsWith("-") && equals !== -1) values.push(argument.slice(equals + 1));
      for (const value of values) {
        if (value.length === 0 || value.includes("://") || DEVICE_ARGUMENTS.has(value)) continue;
        if (value.startsWith("-") && value === argument) continue;
        const target = resolve(cwdAbsolute, value);
        const pathLike = value.includes("/") || value === ".." || value.startsWith("~");
        let real: string | undefined;
        const exists = await lstat(target).then(
          () => true,
          () => false,
        );
        if (exists) {
          real = await realpath(target).catch(() => undefined);
          if (real === undefined) {
            return {
              argument,
              why: "is a symlink that leads nowhere (a write through it could land anywhere)",
            };
          }
        } else if (pathLike) {
          // Not there yet (an output file): its nearest existing ancestor decides.
          let ancestor = dirname(target);
          for (;;) {
            const found = await realpath(ancestor).catch(() => undefined);
            if (found !== undefined) {
              real = join(found, relative(ancestor, target));
              break;
            }
            const up = dirname(ancestor);
            if (up === ancestor) break;
            ancestor = up;
          }
        }
        if (real === undefined) continue;
        if (!isInside(rootReal, real)) {
          return { argument, why: "names a path outside the workspace" };
        }
        const inside = relative(rootReal, real).split("\\").join("/");
        if (inside.length > 0 && confined.isSecret(inside)) {
          return {
            argument,
            why: "leads to a secret path (credentials, keys or environment files)",
          };
        }
      }
    }
    return undefined;
  }

  function namesSecret(argument: string, cwd: string): boolean {
    const values = [argument];
    const equals = argument.indexOf("=");
    if (equals !== -1) values.push(argument.slice(equals + 1));
    for (const value of values) {
      if (value.length === 0 || value.includes("://")) continue;
      const slashed = value.replace(/\\/g, "/");
      const candidates = [normalizeSegments(slashed)];
      if (!slashed.startsWith("/") && !slashed.startsWith("~")) {
        candidates.push(normalizeSegments(cwd.length === 0 ? slashed : `${cwd}/${slashed}`));
      }
      if (candidates.some((candidate) => confined.isSecret(candidate))) return true;
    }
    return false;
  }

  let attributesFile: string | undefined;
  /**
   * A gitattributes file marking every secret path `binary`, so `git log -p`, `git show` and
   * `git grep` say "Binary files differ" instead of printing a committed `.env`.
   */
  function gitAttributesFile(): string {
    if (attributesFile !== undefined) return attributesFile;
    const directory = mkdtempSync(join(tmpdir(), "agentool-git-attributes-"));
    const file = join(directory, "attributes");
    const lines = confined.secretPaths.flatMap((glob) => [`${glob} binary`, `${glob}/** binary`]);
    writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600 });
    attributesFile = file;
    return file;
  }

  /**
   * Command-scope config for an allowed git (`GIT_CONFIG_COUNT` beats every config file, the
   * repository's own included): the contract's git-neutral configuration (no config-driven
   * program from a hostile repository, hooks off), and committed secret files shown as binary.
   */
  function gitEnvironment(inSandbox: boolean): Record<string, string> {
    const entries = gitNeutralConfig({
      extra: [["core.attributesFile", inSandbox ? SANDBOX_GIT_ATTRIBUTES : gitAttributesFile()]],
    });
    return { ...gitConfigEnvironment(entries), GIT_PAGER: "cat" };
  }

  /** What the sandbox hides: secret paths in the workspace, and in the user's home (two levels deep). */
  async function sandboxHiddenPaths(rootReal: string): Promise<HiddenPath[]> {
    const hidden = await findSecretPaths(rootReal, confined.isSecret);
    const home = await realpath(homedir()).catch(() => undefined);
    if (home !== undefined && home !== "/" && !isInside(rootReal, home)) {
      for (const entry of await findSecretPaths(home, confined.isSecret, 2)) {
        if (!isInside(rootReal, entry.path)) hidden.push(entry);
      }
    }
    return hidden;
  }

  function blocked(message: string, hint: string): ToolResult<RunCommandToolData> {
    return fail("BLOCKED", message, { hint });
  }

  async function execute(
    request: z.output<typeof input>,
    signal: AbortSignal,
  ): Promise<ToolResult<RunCommandToolData>> {
    let argv: string[];
    const raw = request.command;
    // One item with blanks or shell characters is a command line (a plain string arrives so).
    const only = raw.length === 1 ? (raw[0] ?? "") : undefined;
    const single =
      only !== undefined && (/\s/.test(only) || SHELL_METACHARACTERS.test(only)) ? only : undefined;
    if (single !== undefined) {
      const split = splitCommandString(single);
      if (split === undefined) {
        const suggested = suggestArgv(single);
        const shown = JSON.stringify(single.slice(0, 200));
        return fail(
          "INVALID_INPUT",
          suggested === undefined
            ? `Invalid input for ${toolName}: command ${shown} is one string that needs a shell (pipes, redirects, &&, ;, globs, $VARIABLES or backquotes), and this tool never runs a shell.`
            : `Invalid input for ${toolName}: command ${shown} is one string with quotes or backslashes; this tool never runs a shell, so it does not split them. Send the argv array instead: command=${JSON.stringify(suggested)}.`,
          {
            hint:
              suggested === undefined
                ? 'Pass the program and its arguments as an array, e.g. ["git", "log", "-n", "5"]; run separate commands in separate calls, and do without pipes, redirects and globs (filter the output with the program\'s own flags).'
                : `Call ${toolName} again with command=${JSON.stringify(suggested)}.`,
          },
        );
      }
      argv = split;
    } else argv = [...raw];
    if (argv.length === 0 || (argv[0] ?? "").length === 0) {
      return fail("INVALID_INPUT", "command is empty.", {
        hint: 'Pass the program and its arguments, e.g. ["ls", "-la"].',
      });
    }
    if (argv.some((argument) => argument.includes("\0"))) {
      return fail("INVALID_INPUT", "An argument of command contains a NUL byte.", {
        hint: "Remove the NUL byte.",
      });
    }
    const executable = argv[0] as string;
    const name = resolveExecutable(executable);
    if (name === undefined) {
      return blocked(
        allowed.length === 0
          ? "No command may run: the host's allowlist is empty."
          : `${JSON.stringify(executable)} is not an allowed command. Allowed: ${allowedList}.`,
        allowed.length === 0
          ? "Do the work with the file tools instead, or ask the user to run the command."
          : "Use one of the allowed commands (by its bare name), or ask the user to run this one.",
      );
    }

    const resolved = await confined.resolve(request.cwd, { argument: "cwd" });
    if (refuseSecretArguments) {
      const secret = argv.slice(1).find((argument) => namesSecret(argument, resolved.path));
      if (secret !== undefined) {
        return blocked(
          `The argument ${JSON.stringify(secret)} names a secret path (credentials, keys or environment files); no tool reads or passes it.`,
          "Work without it; ask the user to provide what you need from it.",
        );
      }
    }
    const cwdStat = await confined.fileSystem.stat(resolved.real);
    if (cwdStat === undefined) {
      return fail("FILE_NOT_FOUND", `cwd ${resolved.display} does not exist.`, {
        hint: mounted.has("create_directory")
          ? "Create it with create_directory or pick an existing directory."
          : `Pick an existing directory${mounted.has("list_directory") ? " (list_directory shows them)" : ""}, or leave cwd out to run in the workspace root.`,
      });
    }
    if (cwdStat.type !== "directory") {
      return fail("INVALID_PATH", `cwd ${resolved.display} is a file, not a directory.`, {
        hint: "Pass the directory that holds it.",
      });
    }
    const rootReal = await realpath(root);
    const cwdAbsolute = await realpath(
      resolved.real.length === 0 ? rootReal : join(rootReal, ...resolved.real.split("/")),
    );
    if (!isInside(rootReal, cwdAbsolute)) {
      return fail("INVALID_PATH", `cwd ${resolved.display} resolves outside the workspace.`, {
        hint: "Use a directory inside the workspace root.",
      });
    }
    if (sandboxChoice === "bubblewrap" && !sandboxed) {
      return fail(
        "DEPENDENCY_MISSING",
        `${toolName} must run commands in a bubblewrap sandbox, and it is not available: ${bubblewrap?.reason ?? "unknown reason"}.`,
        { hint: "Ask the user to install bubblewrap (apt-get install bubblewrap)." },
      );
    }
    searchPath = await filteredPath(rootReal);
    const program = await resolveProgram(name, rootReal);
    if (program === undefined) {
      return fail(
        "DEPENDENCY_MISSING",
        `${executable} is allowed but could not be found (not installed or not on PATH).`,
        { hint: "Ask the user to install it, or use another allowed command." },
      );
    }
    if (program.inside) {
      return blocked(
        `${JSON.stringify(executable)} resolves to ${program.file}, inside the workspace; a program the model could have written never runs.`,
        "Ask the user to install the program outside the workspace.",
      );
    }
    const verdict = argumentPolicy(argv, program.file);
    if (verdict !== undefined) {
      return blocked(
        `${JSON.stringify(verdict.refused)} is refused for ${executable}: it ${verdict.reason}.`,
        "Do it without that option, with the file tools, or ask the user to run the command.",
      );
    }
    if (refuseSecretArguments && isGit(program.file)) {
      // rev:path names a file in git's history (git show HEAD:.env).
      const secret = argv.slice(1).find((argument) => {
        const colon = argument.indexOf(":");
        return (
          colon !== -1 &&
          !argument.includes("://") &&
          namesSecret(argument.slice(colon + 1), resolved.path)
        );
      });
      if (secret !== undefined) {
        return blocked(
          `The argument ${JSON.stringify(secret)} names a secret path (credentials, keys or environment files); no tool reads or passes it.`,
          "Work without it; ask the user to provide what you need from it.",
        );
      }
    }
    if (!sandboxed) {
      const refused =
        (await refusedPathArgument(argv.slice(1), cwdAbsolute, rootReal)) ??
        (await refusedRecursiveRead(argv, program.file, cwdAbsolute, rootReal));
      if (refused !== undefined) {
        return blocked(
          `The argument ${JSON.stringify(refused.argument)} ${refused.why}; commands run on the host (no sandbox) may only name paths inside the workspace.`,
          "Name a path inside the workspace (relative to cwd), or ask the user to run the command.",
        );
      }
    }
    const timeoutMs = Math.min(request.timeout_ms ?? defaultTimeoutMs, maxTimeoutMs);
    signal.throwIfAborted();
    const environment = buildEnvironment();
    if (isGit(program.file)) Object.assign(environment, gitEnvironment(sandboxed));
    let spawnFile = program.file;
    let spawnArgs = argv.slice(1);
    if (sandboxed) {
      let hidden: HiddenPath[];
      try {
        hidden = await sandboxHiddenPaths(rootReal);
      } catch (error) {
        return fail(
          "TOO_LARGE",
          `The workspace is too large to scan for secret paths before sandboxing the command (${error instanceof Error ? error.message : String(error)}).`,
          { hint: "Ask the user to narrow the workspace root." },
        );
      }
      spawnFile = bubblewrap?.path as string;
      spawnArgs = buildBubblewrapArguments({
        root: rootReal,
        cwd: cwdAbsolute,
        hidden,
        network,
        file: program.file,
        args: argv.slice(1),
        extraTmpfs: privateTemporaryDirectories(rootReal),
        binds: isGit(program.file) ? [[gitAttributesFile(), SANDBOX_GIT_ATTRIBUTES]] : [],
      });
    }

    const capture = await openCapture([rootReal, root]);
    try {
      return await runChild(capture, {
        file: spawnFile,
        args: spawnArgs,
        argv,
        executable,
        cwdAbsolute,
        environment,
        timeoutMs,
        signal,
        cwdDisplay: resolved.display,
      });
    } finally {
      await capture.close();
    }
  }

  /** Collects both streams and shares the character budget between them. */
  function arrangeOutput(stdout: CommandOutputCollector, stderr: CommandOutputCollector) {
    const half = Math.floor(maxOutputCharacters / 2);
    const outCost = stdout.cost();
    const errCost = stderr.cost();
    let outBudget = half;
    if (outCost <= half) outBudget = outCost;
    else if (errCost <= half) outBudget = maxOutputCharacters - errCost;
    return {
      stdout: stdout.arrange(outBudget),
      stderr: stderr.arrange(maxOutputCharacters - Math.min(outBudget, outCost)),
    };
  }

  function runChild(
    capture: OutputCapture,
    run: {
      file: string;
      args: string[];
      argv: string[];
      executable: string;
      cwdAbsolute: string;
      environment: NodeJS.ProcessEnv;
      timeoutMs: number;
      signal: AbortSignal;
      cwdDisplay: string;
    },
  ): Promise<ToolResult<RunCommandToolData>> {
    const { executable, timeoutMs, signal } = run;
    return new Promise((settle) => {
      const started = Date.now();
      let child: ChildProcess;
      try {
        child = spawn(run.file, run.args, {
          cwd: run.cwdAbsolute,
          env: run.environment,
          shell: false,
          detached: true,
          stdio: ["ignore", capture.stdio[0], capture.stdio[1]],
          windowsHide: true,
        });
      } catch (error) {
        settle(
          fail(
            "INVALID_INPUT",
            `${executable} could not be started: ${error instanceof Error ? error.message : String(error)}.`,
            {
              hint: "Check the command and its arguments.",
            },
          ),
        );
        return;
      }
      const stdout = new CommandOutputCollector(maxHeadLines, maxTailLines, maxLineCharacters);
      const stderr = new CommandOutputCollector(maxHeadLines, maxTailLines, maxLineCharacters);
      capture.attach(child, stdout, stderr);
      let stoppedBy: "timeout" | "abort" | "output" | undefined;
      let settled = false;
      let graceTimer: NodeJS.Timeout | undefined;

      const signalGroup = (name: NodeJS.Signals): boolean => {
        if (child.pid === undefined) return false;
        try {
          process.kill(-child.pid, name);
          return true;
        } catch {
          try {
            return child.kill(name);
          } catch {
            return false;
          }
        }
      };
      const groupAlive = (): boolean => {
        if (child.pid === undefined) return false;
        try {
          process.kill(-child.pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      let hardTimer: NodeJS.Timeout | undefined;
      const stop = (reason: "timeout" | "abort" | "output") => {
        if (stoppedBy !== undefined || settled) return;
        stoppedBy = reason;
        signalGroup("SIGTERM");
        graceTimer = setTimeout(() => signalGroup("SIGKILL"), killGraceMs);
        // The call settles even if no exit is ever seen (a process stuck in the kernel, a
        // handle held by a grandchild): the exit event or this timer, whichever comes first.
        hardTimer = setTimeout(() => {
          signalGroup("SIGKILL");
          child.stdout?.destroy();
          child.stderr?.destroy();
          void finish(null, "SIGKILL");
        }, killGraceMs + HARD_SETTLE_MS);
        hardTimer.unref();
      };
      const timer = setTimeout(() => stop("timeout"), timeoutMs);
      const watcher = setInterval(() => {
        void capture.size().then((size) => {
          if (size > maxCapturedBytes) stop("output");
        });
      }, 250);
      const onAbort = () => stop("abort");
      signal.addEventListener("abort", onAbort, { once: true });

      const cleanUp = () => {
        settled = true;
        clearTimeout(timer);
        clearInterval(watcher);
        if (graceTimer !== undefined) clearTimeout(graceTimer);
        if (hardTimer !== undefined) clearTimeout(hardTimer);
        signal.removeEventListener("abort", onAbort);
      };

      child.on("error", (error: NodeJS.ErrnoException) => {
        if (settled || child.pid !== undefined) return;
        cleanUp();
        if (error.code === "ENOENT") {
          settle(
            fail(
              "DEPENDENCY_MISSING",
              `${executable} is allowed but could not be found (not installed or not on PATH).`,
              {
                hint: "Ask the user to install it, or use another allowed command.",
              },
            ),
          );
        } else if (error.code === "EACCES") {
          settle(
            fail("PERMISSION_DENIED", `${executable} could not be run: permission denied.`, {
              hint: "Ask the user to check the program's permissions.",
            }),
          );
        } else {
          settle(
            fail("INTERNAL", `${executable} could not be started: ${error.message}.`, {
              hint: "Check the command, or ask the user to run it.",
            }),
          );
        }
      });

      const finish = async (code: number | null, exitSignal: NodeJS.Signals | null) => {
        if (settled) return;
        const reason = stoppedBy;
        cleanUp();
        // Whatever the command left running in its group (background jobs) is stopped too.
        const leftBehind = reason === undefined && groupAlive();
        if (reason !== undefined) signalGroup("SIGKILL");
        else if (leftBehind) {
          signalGroup("SIGTERM");
          setTimeout(() => signalGroup("SIGKILL"), killGraceMs).unref();
        }
        const durationMs = Date.now() - started;
        let streamsComplete: boolean;
        try {
          streamsComplete = await capture.drain(stdout, stderr);
        } catch (error) {
          settle(
            fail(
              "INTERNAL",
              `The output of ${executable} could not be read back: ${error instanceof Error ? error.message : String(error)}.`,
            ),
          );
          return;
        }
        const { stdout: out, stderr: errors } = arrangeOutput(stdout, stderr);
        if (reason === "timeout" || reason === "output") {
          const lastOf = (stream: CommandOutputData) =>
            stream.omitted_lines > 0 ? stream.tail : stream.text;
          const tail = `${lastOf(out)}\n${lastOf(errors)}`.trim().slice(-2000);
          const lastOutput = tail.length > 0 ? ` Last output:\n${tail}` : "";
          settle(
            reason === "timeout"
              ? fail(
                  "TIMEOUT",
                  `${executable} was still running after ${timeoutMs} ms and was stopped with its whole process group.${lastOutput}`,
                  {
                    hint:
                      timeoutMs < 1_000
                        ? timeoutMs * 1_000 <= maxTimeoutMs
                          ? `timeout_ms is in milliseconds: ${timeoutMs} is ${timeoutMs / 1_000} s. For ${timeoutMs} seconds pass timeout_ms=${timeoutMs * 1_000} (at most ${maxTimeoutMs}).`
                          : `timeout_ms is in milliseconds: ${timeoutMs} is ${timeoutMs / 1_000} s. ${timeoutMs} seconds is more than allowed: pass at most timeout_ms=${maxTimeoutMs} (${maxTimeoutMs / 1_000} s), or run something that finishes sooner.`
                        : `Pass a larger timeout_ms (at most ${maxTimeoutMs}), or run something that finishes sooner.`,
                  },
                )
              : fail(
                  "TOO_LARGE",
                  `${executable} wrote more than ${maxCapturedBytes} bytes of output and was stopped with its whole process group.${lastOutput}`,
                  {
                    hint: "Run something that prints less: a filter, a count or limit flag, a narrower path or a quieter mode.",
                  },
                ),
          );
          return;
        }
        if (reason === "abort") {
          settle(
            fail(
              "ABORTED",
              `${executable} was cancelled and stopped with its whole process group.`,
              { retryable: true },
            ),
          );
          return;
        }
        settle(
          ok({
            command: run.argv,
            cwd: run.cwdDisplay,
            exit_code: code,
            signal: exitSignal,
            duration_ms: durationMs,
            stdout: out,
            stderr: errors,
            truncated: out.truncated || errors.truncated,
            stopped_background: leftBehind || !streamsComplete,
            sandbox: sandboxed ? "bubblewrap" : "none",
          }),
        );
      };
      child.on("exit", (code, exitSignal) => {
        void finish(code, exitSignal);
      });
    });
  }

  const fileTools = ["read_file", "grep_search", "list_directory"].filter((tool) =>
    mounted.has(tool),
  );
  return defineTool({
    name: toolName,
    description:
      parsed.description ??
      joinDescription([
        `Run one program in the workspace and get its exit code and output (stdout and stderr, ANSI colours stripped; long output keeps the first and last lines, about ${new Intl.NumberFormat("en-US").format(maxOutputCharacters)} characters in all, and says how many lines were left out).`,
        'Pass argv as an array, e.g. ["npm", "test"] or ["git", "diff", "--stat"]: there is no shell, so pipes, redirects, globs, $VARIABLES and && do not work; run one command per call.',
        `Allowed programs: ${allowedList}. Others are refused (BLOCKED).`,
        `cwd defaults to the workspace root; the command is stopped after timeout_ms milliseconds (default ${defaultTimeoutMs}). A non-zero exit code is reported as a result (the command ran), not as a tool error.`,
        sandboxed
          ? `Commands run in a sandbox (bubblewrap): only the workspace is writable, secret files in it are hidden, ${network ? "the network is available" : "there is no network"}, and everything a command starts is stopped when it ends.`
          : "Commands run without a sandbox: arguments naming paths outside the workspace or secret files are refused, as are options that run other programs (git -c, rg --pre, tar --to-command, sed e, find -exec).",
        fileTools.length > 0 &&
          `Prefer the file tools (${fileTools.join(", ")}) for reading and searching files.`,
      ]),
    input,
    aliases: RUN_COMMAND_ALIASES,
    annotations: { title: "Run command", destructive: true, openWorld: false, idempotent: false },
    tags: ["shell"],
    timeoutMs: maxTimeoutMs + killGraceMs + 5_000,
    execute: (request, context) => guardFileSystem(() => execute(request, context.signal)),
    render: formatCommandResult,
  });
}
