import { type ChildProcess, spawn } from "node:child_process";
import { realpath } from "node:fs/promises";
import { delimiter, isAbsolute, join, relative, resolve } from "node:path";
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
import { z } from "zod";
import { guardFileSystem, workspaceOption } from "../internal/tool-support.js";
import { createWorkspace, type Workspace } from "../workspace.js";
import { createNodeFileSystem } from "./node-file-system.js";

/** The default name of the command tool. */
export const RUN_COMMAND_TOOL_NAME = "run_command";

/** Default time a command may run when the model gives no `timeout_ms`: 30 seconds. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;

/** Default longest `timeout_ms` a model may ask for: 5 minutes. */
export const DEFAULT_MAX_COMMAND_TIMEOUT_MS = 300_000;

/** Default wait between SIGTERM and SIGKILL when a command is stopped: 2 seconds. */
export const DEFAULT_KILL_GRACE_MS = 2_000;

/** Default cap on the output kept per stream (stdout, stderr): 100 KB, half head, half tail. */
export const DEFAULT_MAX_OUTPUT_BYTES = 100_000;

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
  /** Output kept per stream in bytes (half from the start, half from the end). Default {@link DEFAULT_MAX_OUTPUT_BYTES}. */
  maxOutputBytes?: number;
  /** Lines kept from the start of each stream. Default {@link DEFAULT_MAX_HEAD_LINES} (200). */
  maxHeadLines?: number;
  /** Lines kept from the end of each stream. Default {@link DEFAULT_MAX_TAIL_LINES} (200). */
  maxTailLines?: number;
  /** Refuse arguments that name a secret path (`.env`, `~/.ssh/id_rsa`, `--file=.npmrc`). Default `true`. */
  refuseSecretArguments?: boolean;
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
  maxOutputBytes: z
    .number()
    .int()
    .min(256)
    .max(100 * 1024 * 1024)
    .optional(),
  maxHeadLines: z.number().int().min(1).max(100_000).optional(),
  maxTailLines: z.number().int().min(1).max(100_000).optional(),
  refuseSecretArguments: z.boolean().optional(),
});

function createInputSchema(defaultTimeoutMs: number, maxTimeoutMs: number) {
  return z.object({
    command: z
      .union([z.array(z.string()).min(1), z.string().min(1)])
      .describe(
        'The program and its arguments as an array, e.g. ["git", "status", "--short"]. There is no shell: pipes, redirects, globs, $VARIABLES, quotes and && do not work, and each array item reaches the program as written. A plain string is accepted only without shell characters and is split on spaces.',
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
        `Stop the command (and everything it started) after this many milliseconds. Default ${defaultTimeoutMs}, at most ${maxTimeoutMs}.`,
      ),
  });
}

/** The input schema of `run_command` (with the default limits in its descriptions). */
export const runCommandInputSchema = createInputSchema(
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
);

/** The input of `run_command`. */
export type RunCommandInput = z.output<typeof runCommandInputSchema>;

/** What `run_command` returns when the command ran (whatever its exit code). */
export interface RunCommandToolData {
  /** The argv that ran. */
  command: string[];
  /** The working directory, as a workspace path. */
  cwd: string;
  /** The exit code; `null` when a signal ended it. Non-zero means the command ran and failed. */
  exitCode: number | null;
  /** The signal that ended it (e.g. `"SIGSEGV"`), or `null`. */
  signal: string | null;
  /** Wall time in milliseconds. */
  durationMs: number;
  /** Standard output, head and tail kept with an omitted-lines marker between when long. */
  stdout: string;
  /** Standard error, capped the same way. */
  stderr: string;
  /** Bytes the command wrote to stdout. */
  stdoutBytes: number;
  /** Bytes the command wrote to stderr. */
  stderrBytes: number;
  /** Whether stdout or stderr was cut. */
  truncated: boolean;
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

function normalizeSegments(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === "." || segment === "~") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

/**
 * Keeps the first and last part of a stream within a byte budget while counting everything, so
 * a command printing gigabytes costs a bounded amount of memory.
 */
class OutputCollector {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  totalBytes = 0;
  private newlines = 0;
  private lastByte = -1;

  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number,
  ) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.totalBytes += chunk.length;
    let index = chunk.indexOf(10);
    while (index !== -1) {
      this.newlines += 1;
      index = chunk.indexOf(10, index + 1);
    }
    this.lastByte = chunk[chunk.length - 1] as number;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const take = Math.min(rest.length, this.headLimit - this.headBytes);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tailBytes > this.tailLimit && this.tail.length > 0) {
      const first = this.tail[0] as Buffer;
      const excess = this.tailBytes - this.tailLimit;
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
      }
    }
  }

  finish(maxHeadLines: number, maxTailLines: number): { text: string; truncated: boolean } {
    const decoder = new TextDecoder("utf-8");
    const dropped = this.totalBytes - this.headBytes - this.tailBytes;
    const totalLines = this.newlines + (this.totalBytes > 0 && this.lastByte !== 10 ? 1 : 0);
    const toLines = (text: string) => {
      const lines = text.split("\n");
      if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
      return lines;
    };
    let headLines: string[];
    let tailLines: string[];
    if (dropped === 0) {
      const all = toLines(decoder.decode(Buffer.concat([...this.head, ...this.tail])));
      if (all.length <= maxHeadLines + maxTailLines) {
        return { text: all.join("\n"), truncated: false };
      }
      headLines = all.slice(0, maxHeadLines);
      tailLines = all.slice(all.length - maxTailLines);
    } else {
      headLines = toLines(decoder.decode(Buffer.concat(this.head))).slice(0, maxHeadLines);
      // The first tail line was cut at its start: drop it.
      const tailAll = toLines(decoder.decode(Buffer.concat(this.tail))).slice(1);
      tailLines = tailAll.slice(Math.max(0, tailAll.length - maxTailLines));
    }
    const omittedLines = Math.max(0, totalLines - headLines.length - tailLines.length);
    const marker = formatTruncationMarker({
      omitted: omittedLines > 0 ? omittedLines : dropped,
      unit: omittedLines > 0 ? "lines" : "bytes",
      next: `the middle of this output (${this.totalBytes} bytes, ${totalLines} lines in all) was left out; narrow what the command prints (a filter, a count or limit flag, a narrower path) to see it`,
    });
    return { text: [...headLines, marker, ...tailLines].join("\n"), truncated: true };
  }
}

function quoteArgument(argument: string): string {
  return /^[\w@%+=:,./-]+$/.test(argument) ? argument : JSON.stringify(argument);
}

/**
 * Renders a finished command for the model: a header with the exit code (saying that a non-zero
 * code means the command ran and failed), then stdout and stderr.
 *
 * @param data - the command's result
 * @returns model-facing text
 */
export function formatCommandResult(data: RunCommandToolData): string {
  const shown = data.command.map(quoteArgument).join(" ");
  let status: string;
  if (data.signal !== null) status = `ended by signal ${data.signal}`;
  else if (data.exitCode === 0) status = "exit code 0";
  else
    status = `exit code ${data.exitCode} — the command ran and reported a failure; read its output below`;
  const lines = [`$ ${shown}`, `(cwd: ${data.cwd}; ${status}; ${data.durationMs} ms)`];
  if (data.stdout.length === 0 && data.stderr.length === 0) {
    lines.push("(no output)");
    return lines.join("\n");
  }
  if (data.stdout.length > 0) {
    lines.push(data.stderr.length > 0 ? "stdout:" : "", data.stdout);
  }
  if (data.stderr.length > 0) lines.push("stderr:", data.stderr);
  return lines.filter((line, index) => index < 2 || line.length > 0).join("\n");
}

function isInside(root: string, candidate: string): boolean {
  const inside = relative(root, candidate);
  return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside));
}

/**
 * Creates the `run_command` tool (Node only): a hardened command runner. argv array only (a
 * string is split only when it holds no shell metacharacter), executable allowlist required
 * (empty = refuse everything), `spawn` without a shell in its own process group, `cwd` confined
 * to the workspace root on its real path, environment scrubbed to an allowlist (never a variable
 * named like a key, token, secret, password, credential or auth), stdin closed, timeout and abort
 * killing the whole process group (SIGTERM, then SIGKILL after a grace period), output capped
 * head + tail per stream. A non-zero exit is a success envelope carrying `exitCode`; a refused
 * or unstartable command is a failure (`BLOCKED`, `DEPENDENCY_MISSING`, `PERMISSION_DENIED`),
 * a timeout is `TIMEOUT`.
 *
 * The root on disk comes from `root`, or from the workspace's Node seam (`displayRoot`).
 *
 * @param options - the allowlist, the workspace or root, limits and overrides
 * @returns the tool
 * @throws AgentoolError when the options are invalid or no root on disk can be found
 * @example
 * const runCommand = createRunCommandTool({ root: "/home/me/project", allowedCommands: ["git", "npm", "ls"] });
 * await runCommand.run({ command: ["git", "status", "--short"] }); // data.exitCode === 0
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
  const maxOutputBytes = parsed.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const maxHeadLines = parsed.maxHeadLines ?? DEFAULT_MAX_HEAD_LINES;
  const maxTailLines = parsed.maxTailLines ?? DEFAULT_MAX_TAIL_LINES;
  const refuseSecretArguments = parsed.refuseSecretArguments ?? true;
  const input = createInputSchema(Math.min(defaultTimeoutMs, maxTimeoutMs), maxTimeoutMs);

  const allowedList =
    allowed.length === 0
      ? "none (the host allows no command)"
      : allowed.slice(0, 30).join(", ") +
        (allowed.length > 30 ? `, … (${allowed.length} in all)` : "");

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

  function buildEnvironment(rootReal: string): NodeJS.ProcessEnv {
    const environment: NodeJS.ProcessEnv = {};
    for (const name of environmentAllowlist) {
      const value = process.env[name];
      if (value === undefined || SECRET_ENVIRONMENT_PATTERN.test(name)) continue;
      environment[name] = value;
    }
    if (environment.PATH !== undefined) {
      // Relative and empty entries (".", "") and directories inside the workspace would let a
      // file the model wrote shadow an allowed command.
      environment.PATH = environment.PATH.split(delimiter)
        .filter(
          (entry) =>
            isAbsolute(entry) &&
            !isInside(rootReal, resolve(entry)) &&
            !isInside(root, resolve(entry)),
        )
        .join(delimiter);
    }
    for (const [name, value] of Object.entries(fixedEnvironment)) environment[name] = value;
    return environment;
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

  function blocked(message: string, hint: string): ToolResult<RunCommandToolData> {
    return fail("BLOCKED", message, { hint });
  }

  async function execute(
    request: z.output<typeof input>,
    signal: AbortSignal,
  ): Promise<ToolResult<RunCommandToolData>> {
    let argv: string[];
    const raw = request.command;
    const single =
      typeof raw === "string"
        ? raw
        : raw.length === 1 && /\s/.test(raw[0] ?? "")
          ? raw[0]
          : undefined;
    if (single !== undefined) {
      const split = splitCommandString(single);
      if (split === undefined) {
        return blocked(
          `The command ${JSON.stringify(single.slice(0, 200))} contains shell characters (such as ; | & $ \` < > ( ) * ? ~ ! quotes or a newline); this tool never runs a shell.`,
          'Pass the program and its arguments as an array, e.g. ["git", "log", "-n", "5"]; run separate commands in separate calls, and do without pipes, redirects and globs.',
        );
      }
      argv = split;
    } else argv = [...(raw as string[])];
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
    const file = resolveExecutable(executable);
    if (file === undefined) {
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
        hint: "Create it with create_directory or pick an existing directory.",
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
    const timeoutMs = Math.min(request.timeout_ms ?? defaultTimeoutMs, maxTimeoutMs);
    signal.throwIfAborted();

    return new Promise((settle) => {
      const started = Date.now();
      let child: ChildProcess;
      try {
        child = spawn(file, argv.slice(1), {
          cwd: cwdAbsolute,
          env: buildEnvironment(rootReal),
          shell: false,
          detached: true,
          stdio: ["ignore", "pipe", "pipe"],
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
      const half = Math.floor(maxOutputBytes / 2);
      const stdout = new OutputCollector(half, maxOutputBytes - half);
      const stderr = new OutputCollector(half, maxOutputBytes - half);
      child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
      let stoppedBy: "timeout" | "abort" | undefined;
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
      const stop = (reason: "timeout" | "abort") => {
        if (stoppedBy !== undefined || settled) return;
        stoppedBy = reason;
        signalGroup("SIGTERM");
        graceTimer = setTimeout(() => signalGroup("SIGKILL"), killGraceMs);
      };
      const timer = setTimeout(() => stop("timeout"), timeoutMs);
      const onAbort = () => stop("abort");
      signal.addEventListener("abort", onAbort, { once: true });

      const cleanUp = () => {
        settled = true;
        clearTimeout(timer);
        if (graceTimer !== undefined) clearTimeout(graceTimer);
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

      child.on("close", (code, closeSignal) => {
        if (settled) return;
        const reason = stoppedBy;
        cleanUp();
        // Whatever the command left running in its group (background jobs) is stopped too.
        if (reason !== undefined) signalGroup("SIGKILL");
        else if (child.pid !== undefined) {
          try {
            process.kill(-child.pid, 0);
            signalGroup("SIGTERM");
            setTimeout(() => signalGroup("SIGKILL"), killGraceMs).unref();
          } catch {
            // The group is gone: nothing left behind.
          }
        }
        const out = stdout.finish(maxHeadLines, maxTailLines);
        const errors = stderr.finish(maxHeadLines, maxTailLines);
        const durationMs = Date.now() - started;
        if (reason === "timeout") {
          const tail = `${out.text}\n${errors.text}`.trim().slice(-2000);
          settle(
            fail(
              "TIMEOUT",
              `${executable} was still running after ${timeoutMs} ms and was stopped with its whole process group.${tail.length > 0 ? ` Last output:\n${tail}` : ""}`,
              {
                hint: `Pass a larger timeout_ms (at most ${maxTimeoutMs}), or run something that finishes sooner.`,
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
            command: argv,
            cwd: resolved.display,
            exitCode: code,
            signal: closeSignal,
            durationMs,
            stdout: out.text,
            stderr: errors.text,
            stdoutBytes: stdout.totalBytes,
            stderrBytes: stderr.totalBytes,
            truncated: out.truncated || errors.truncated,
          }),
        );
      });
    });
  }

  return defineTool({
    name: parsed.name ?? RUN_COMMAND_TOOL_NAME,
    description:
      parsed.description ??
      [
        "Run one program in the workspace and get its exit code and output (stdout and stderr; long output keeps the first and last lines).",
        'Pass argv as an array, e.g. ["npm", "test"] or ["git", "diff", "--stat"]: there is no shell, so pipes, redirects, globs, $VARIABLES and && do not work; run one command per call.',
        `Allowed programs: ${allowedList}. Others are refused (BLOCKED).`,
        `cwd defaults to the workspace root; the command is stopped after timeout_ms (default ${defaultTimeoutMs} ms). A non-zero exit code is reported as a result (the command ran), not as a tool error.`,
        "Prefer the file tools (read_file, grep_search, list_directory) for reading and searching files.",
      ].join("\n"),
    input,
    annotations: { title: "Run command", destructive: true, openWorld: false, idempotent: false },
    tags: ["shell"],
    timeoutMs: maxTimeoutMs + killGraceMs + 5_000,
    execute: (request, context) => guardFileSystem(() => execute(request, context.signal)),
    render: formatCommandResult,
  });
}
