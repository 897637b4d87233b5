import { realpath } from "node:fs/promises";
import { join } from "node:path";
import {
  defineTool,
  fail,
  formatCount,
  joinSentences,
  type Tool,
  type ToolFailure,
  type ToolResult,
} from "@agentool/contract";
import type { Workspace } from "../workspace.js";
import { CommandCgroup } from "./run-command/command-cgroup.js";
import { buildCommandEnvironment } from "./run-command/command-environment.js";
import { formatCommandResult } from "./run-command/format-command-result.js";
import { removeCreatedControlFiles } from "./run-command/git-control-mounts.js";
import {
  GitSecretAttributes,
  gitEnvironment,
  SANDBOX_GIT_ATTRIBUTES,
} from "./run-command/git-environment.js";
import { isInside } from "./run-command/is-inside.js";
import { namesSecret, secretRevisionArgument } from "./run-command/names-secret.js";
import { openCapture } from "./run-command/output-capture.js";
import { readArgv } from "./run-command/read-argv.js";
import { refusedPathArgument } from "./run-command/refused-path-argument.js";
import { refusedRecursiveRead } from "./run-command/refused-recursive-read.js";
import {
  filteredPath,
  isGit,
  resolveExecutable,
  resolveProgram,
} from "./run-command/resolve-program.js";
import { runChild } from "./run-command/run-child.js";
import type { RunCommandToolData } from "./run-command/run-command-data.js";
import {
  createInputSchema,
  RUN_COMMAND_ALIASES,
  type RunCommandInput,
  type runCommandInputSchema,
} from "./run-command/run-command-input.js";
import {
  type RunCommandSettings,
  type RunCommandToolOptions,
  resolveRunCommandSettings,
} from "./run-command/run-command-options.js";
import { sandboxedSpawn } from "./run-command/sandboxed-spawn.js";

/** The `run_command` tool's type. */
export type RunCommandTool = Tool<typeof runCommandInputSchema, RunCommandToolData>;

/** The argv and working directory of a call, checked. */
interface CommandCall {
  /** The argv to run. */
  readonly argv: string[];
  /** argv[0] as sent. */
  readonly executable: string;
  /** The working directory as a workspace path, and as the model reads it. */
  readonly cwd: string;
  readonly cwdDisplay: string;
  /** The workspace root and the working directory on their real paths. */
  readonly rootReal: string;
  readonly cwdAbsolute: string;
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
  const settings = resolveRunCommandSettings(options);
  const { defaultTimeoutMs, maxTimeoutMs } = settings;
  const input = createInputSchema(Math.min(defaultTimeoutMs, maxTimeoutMs), maxTimeoutMs);
  const gitAttributes = new GitSecretAttributes(settings.workspace.secretPaths);
  return defineTool({
    name: settings.toolName,
    description: settings.description ?? describeRunCommand(settings),
    input,
    aliases: RUN_COMMAND_ALIASES,
    annotations: { title: "Run command", destructive: true, openWorld: false, idempotent: false },
    tags: ["shell"],
    timeoutMs: maxTimeoutMs + settings.killGraceMs + 5_000,
    execute: (request, context) => executeCommand(settings, gitAttributes, request, context.signal),
    render: formatCommandResult,
  });
}

/** The default description: the workflow, the allowlist, the limits and where commands run. */
function describeRunCommand(settings: RunCommandSettings): string {
  const { mounted, network } = settings;
  const fileTools = ["read_file", "grep_search", "list_directory"].filter((tool) =>
    mounted.has(tool),
  );
  return joinSentences(
    [
      `Run one program in the workspace; get its exit code and output (stdout and stderr; long output keeps the first and last lines, about ${formatCount(settings.maxOutputCharacters)} characters).`,
      "There is no shell: no pipes, redirects, globs, $VARIABLES or &&; one command per call.",
      `Allowed programs: ${settings.allowedList}; others are refused (BLOCKED). A non-zero exit is a result, not a tool error.`,
      settings.sandboxed
        ? `Commands run in a sandbox (bubblewrap): only the workspace is writable, secret files are hidden, ${network ? "the network is available" : "no network"}; everything a command starts is stopped when it ends.`
        : "Commands run without a sandbox: arguments naming paths outside the workspace or secret files are refused, as are options that run other programs (git -c, rg --pre, tar --to-command, sed e, find -exec).",
      fileTools.length > 0 &&
        `Prefer the file tools (${fileTools.join(", ")}) for reading and searching files.`,
    ],
    "\n",
  );
}

function blocked(message: string, hint: string): ToolFailure {
  return fail("BLOCKED", message, { hint });
}

function secretArgumentRefusal(argument: string): ToolFailure {
  return blocked(
    `The argument ${JSON.stringify(argument)} names a secret path (credentials, keys or environment files); no tool reads or passes it.`,
    "Work without it; ask the user to provide what you need from it.",
  );
}

function isFailure(value: object): value is ToolFailure {
  return "success" in value;
}

/**
 * One call, step by step: the argv, the allowlist, the working directory, the program, the
 * refusals, then the environment and the sandbox, then the run itself.
 */
async function executeCommand(
  settings: RunCommandSettings,
  gitAttributes: GitSecretAttributes,
  request: RunCommandInput,
  signal: AbortSignal,
): Promise<ToolResult<RunCommandToolData>> {
  const call = await checkCall(settings, request);
  if (isFailure(call)) return call;
  const { argv, executable, rootReal, cwdAbsolute } = call;
  if (settings.sandboxChoice === "bubblewrap" && !settings.sandboxed) {
    return fail(
      "DEPENDENCY_MISSING",
      `${settings.toolName} must run commands in a bubblewrap sandbox, and it is not available: ${settings.bubblewrap?.reason ?? "unknown reason"}.`,
      { hint: "Ask the user to install bubblewrap (apt-get install bubblewrap)." },
    );
  }
  const searchPath = await filteredPath(rootReal, settings.root);
  const name = resolveExecutable(executable, settings.allowed) as string;
  const program = await resolveProgram(name, searchPath, rootReal, settings.root);
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
  const refusal = await refuseArguments(settings, call, program.file);
  if (refusal !== undefined) return refusal;
  const timeoutMs = Math.min(
    request.timeout_ms ?? settings.defaultTimeoutMs,
    settings.maxTimeoutMs,
  );
  signal.throwIfAborted();
  const environment = buildCommandEnvironment(
    settings.environmentAllowlist,
    settings.fixedEnvironment,
    searchPath,
  );
  const git = isGit(program.file);
  if (git) {
    Object.assign(
      environment,
      gitEnvironment(settings.sandboxed ? SANDBOX_GIT_ATTRIBUTES : gitAttributes.file()),
    );
  }
  let spawned = { file: program.file, args: argv.slice(1) };
  let absentGitControlFiles: string[] = [];
  const cgroup = settings.sandboxed ? await CommandCgroup.create(settings.limits) : undefined;
  if (settings.sandboxed) {
    const wrapped = await sandboxedSpawn({
      bubblewrapPath: settings.bubblewrap?.path as string,
      rootReal,
      cwdAbsolute,
      isSecret: (path) => settings.workspace.isSecret(path),
      network: settings.network,
      file: program.file,
      args: argv.slice(1),
      binds: git ? [[gitAttributes.file(), SANDBOX_GIT_ATTRIBUTES]] : [],
      limits: settings.limits,
      sizedTmpfs: settings.bubblewrap?.sizedTmpfs === true,
      memoryCapped: cgroup?.capsMemory === true,
    });
    if (isFailure(wrapped)) {
      await cgroup?.remove();
      return wrapped;
    }
    spawned = cgroup?.wrap(wrapped.file, wrapped.args) ?? {
      file: wrapped.file,
      args: wrapped.args,
    };
    absentGitControlFiles = wrapped.absentGitControlFiles;
  }
  const capture = await openCapture([rootReal, settings.root]);
  try {
    return await runChild(
      capture,
      {
        ...spawned,
        argv,
        executable,
        cwdAbsolute,
        cwdDisplay: call.cwdDisplay,
        environment,
        timeoutMs,
        signal,
      },
      settings,
    );
  } finally {
    await capture.close();
    await cgroup?.remove();
    await removeCreatedControlFiles(absentGitControlFiles);
  }
}

/**
 * The argv (read and allowed), and the working directory (confined, existing, a directory, inside
 * the root on its real path); a secret-naming argument is refused on the way.
 */
async function checkCall(
  settings: RunCommandSettings,
  request: RunCommandInput,
): Promise<CommandCall | ToolFailure> {
  const argv = readArgv(request.command, settings.toolName);
  if (!Array.isArray(argv)) return argv;
  const executable = argv[0] as string;
  if (resolveExecutable(executable, settings.allowed) === undefined) {
    const none = settings.allowed.length === 0;
    return blocked(
      none
        ? "No command may run: the host's allowlist is empty."
        : `${JSON.stringify(executable)} is not an allowed command. Allowed: ${settings.allowedList}.`,
      none
        ? "Do the work with the file tools instead, or ask the user to run the command."
        : "Use one of the allowed commands (by its bare name), or ask the user to run this one.",
    );
  }
  const workspace: Workspace = settings.workspace;
  const resolved = await workspace.resolve(request.cwd, { argument: "cwd" });
  if (settings.refuseSecretArguments) {
    const isSecret = (path: string) => workspace.isSecret(path);
    const secret = argv.slice(1).find((argument) => namesSecret(argument, resolved.path, isSecret));
    if (secret !== undefined) return secretArgumentRefusal(secret);
  }
  const cwdStat = await workspace.fileSystem.stat(resolved.real);
  if (cwdStat === undefined) {
    const { mounted } = settings;
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
  const rootReal = await realpath(settings.root);
  const cwdAbsolute = await realpath(
    resolved.real.length === 0 ? rootReal : join(rootReal, ...resolved.real.split("/")),
  );
  if (!isInside(rootReal, cwdAbsolute)) {
    return fail("INVALID_PATH", `cwd ${resolved.display} resolves outside the workspace.`, {
      hint: "Use a directory inside the workspace root.",
    });
  }
  return {
    argv,
    executable,
    cwd: resolved.path,
    cwdDisplay: resolved.display,
    rootReal,
    cwdAbsolute,
  };
}

/**
 * The host's refusals of an argv about to run: the argument policy, a git `rev:path` naming a
 * secret, and — without the sandbox — paths outside the workspace or to secrets, and recursive
 * reads of directories holding secrets. Not a boundary (the sandbox is).
 */
async function refuseArguments(
  settings: RunCommandSettings,
  call: CommandCall,
  program: string,
): Promise<ToolFailure | undefined> {
  const { argv, executable } = call;
  const isSecret = (path: string) => settings.workspace.isSecret(path);
  const verdict = settings.argumentPolicy(argv, program);
  if (verdict !== undefined) {
    return blocked(
      `${JSON.stringify(verdict.refused)} is refused for ${executable}: it ${verdict.reason}.`,
      "Do it without that option, with the file tools, or ask the user to run the command.",
    );
  }
  if (settings.refuseSecretArguments && isGit(program)) {
    const secret = secretRevisionArgument(argv.slice(1), call.cwd, isSecret);
    if (secret !== undefined) return secretArgumentRefusal(secret);
  }
  if (settings.sandboxed) return undefined;
  const refused =
    (await refusedPathArgument(argv.slice(1), call.cwdAbsolute, call.rootReal, isSecret)) ??
    (await refusedRecursiveRead(argv, program, call.cwdAbsolute, call.rootReal, isSecret));
  if (refused === undefined) return undefined;
  return blocked(
    `The argument ${JSON.stringify(refused.argument)} ${refused.why}; commands run on the host (no sandbox) may only name paths inside the workspace.`,
    "Name a path inside the workspace (relative to cwd), or ask the user to run the command.",
  );
}
