import { isAbsolute, resolve } from "node:path";
import {
  AgentoolError,
  type MountedTools,
  mountedTools,
  mountedToolsOption,
  parseOptions,
  toolOverridesShape,
} from "@agentool/contract";
import { z } from "zod";
import { workspaceOption } from "../../internal/tool-support.js";
import { createWorkspace, type Workspace } from "../../workspace.js";
import { createNodeFileSystem } from "../node-file-system.js";
import { type ArgumentPolicy, defaultArgumentPolicy } from "./argument-policy.js";
import { type BubblewrapStatus, bubblewrapStatus } from "./bubblewrap-status.js";
import { DEFAULT_ENVIRONMENT_ALLOWLIST } from "./command-environment.js";
import {
  DEFAULT_RESOURCE_LIMITS,
  type ResourceLimits,
  resourceLimitsSchema,
} from "./resource-limits.js";
import {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_CAPTURED_BYTES,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_HEAD_LINES,
  DEFAULT_MAX_OUTPUT_CHARACTERS,
  DEFAULT_MAX_OUTPUT_LINE_CHARACTERS,
  DEFAULT_MAX_TAIL_LINES,
  RUN_COMMAND_TOOL_NAME,
} from "./run-command-defaults.js";

/** Options of `createRunCommandTool`. */
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
  /** Host environment variables passed on (when set). Default {@link DEFAULT_ENVIRONMENT_ALLOWLIST}. Names matching `SECRET_ENVIRONMENT_PATTERN` are never passed on. */
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
  /** Most characters shown of one output line: a longer one shows its first and last half. Default {@link DEFAULT_MAX_OUTPUT_LINE_CHARACTERS} (2,000). */
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
   * What a sandboxed command may use of the host, each field optional: `memoryBytes` (the whole
   * sandbox under a cgroup where one can be made, else each process's address space; default 4 GiB),
   * `processes` (at once; default 256), `fileBytes` (one file written; default 1 GiB), `tmpBytes`
   * (each temporary directory's tmpfs; default 512 MiB). See {@link DEFAULT_RESOURCE_LIMITS}.
   */
  limits?: Partial<ResourceLimits>;
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
  limits: resourceLimitsSchema.optional(),
  argumentPolicy: z.custom<ArgumentPolicy>((value) => typeof value === "function").optional(),
});

/** The options of `createRunCommandTool` checked, with every default filled in. */
export interface RunCommandSettings {
  /** The confined workspace `cwd` is resolved in. */
  readonly workspace: Workspace;
  /** The workspace root on disk, as given (absolute). */
  readonly root: string;
  readonly allowed: readonly string[];
  /** The allowlist as the description and refusals name it (at most 30 entries). */
  readonly allowedList: string;
  readonly environmentAllowlist: readonly string[];
  readonly fixedEnvironment: Readonly<Record<string, string>>;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly killGraceMs: number;
  readonly maxOutputCharacters: number;
  /** At most a quarter of `maxOutputCharacters`. */
  readonly maxLineCharacters: number;
  readonly maxCapturedBytes: number;
  readonly maxHeadLines: number;
  readonly maxTailLines: number;
  readonly toolName: string;
  readonly description: string | undefined;
  readonly mounted: MountedTools;
  readonly refuseSecretArguments: boolean;
  readonly argumentPolicy: ArgumentPolicy;
  readonly sandboxChoice: "auto" | "bubblewrap" | "none";
  readonly network: boolean;
  /** What a sandboxed command may use of the host. */
  readonly limits: ResourceLimits;
  /** What bubblewrap detection found (`undefined` under `sandbox: "none"`). */
  readonly bubblewrap: BubblewrapStatus | undefined;
  /** Whether commands run in the sandbox. */
  readonly sandboxed: boolean;
}

/**
 * Checks the options of `createRunCommandTool` and fills in the defaults; the root on disk
 * comes from `root`, or from the workspace's Node seam (`displayRoot`).
 *
 * @param options - the factory's options
 * @returns the settings
 * @throws AgentoolError when the options are invalid or no root on disk can be found
 */
export function resolveRunCommandSettings(options: RunCommandToolOptions): RunCommandSettings {
  const parsed = parseOptions("createRunCommandTool", optionsSchema, options);
  const { workspace, root } = resolveWorkspace(parsed.workspace, parsed.root);
  const allowed = [...parsed.allowedCommands];
  const maxOutputCharacters = parsed.maxOutputCharacters ?? DEFAULT_MAX_OUTPUT_CHARACTERS;
  const sandboxChoice = parsed.sandbox ?? "auto";
  const bubblewrap = sandboxChoice === "none" ? undefined : bubblewrapStatus();
  return {
    workspace,
    root,
    allowed,
    allowedList:
      allowed.length === 0
        ? "none (the host allows no command)"
        : allowed.slice(0, 30).join(", ") +
          (allowed.length > 30 ? `, … (${allowed.length} in all)` : ""),
    environmentAllowlist: parsed.environmentAllowlist ?? DEFAULT_ENVIRONMENT_ALLOWLIST,
    fixedEnvironment: parsed.environment ?? {},
    defaultTimeoutMs: parsed.defaultTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    maxTimeoutMs: Math.max(parsed.maxTimeoutMs ?? DEFAULT_MAX_COMMAND_TIMEOUT_MS, 1),
    killGraceMs: parsed.killGraceMs ?? DEFAULT_KILL_GRACE_MS,
    maxOutputCharacters,
    // A line never takes more than a quarter of the budget, so a cut output still shows both ends.
    maxLineCharacters: Math.min(
      parsed.maxLineCharacters ?? DEFAULT_MAX_OUTPUT_LINE_CHARACTERS,
      Math.floor(maxOutputCharacters / 4),
    ),
    maxCapturedBytes: parsed.maxCapturedBytes ?? DEFAULT_MAX_CAPTURED_BYTES,
    maxHeadLines: parsed.maxHeadLines ?? DEFAULT_MAX_HEAD_LINES,
    maxTailLines: parsed.maxTailLines ?? DEFAULT_MAX_TAIL_LINES,
    toolName: parsed.name ?? RUN_COMMAND_TOOL_NAME,
    description: parsed.description,
    mounted: mountedTools(parsed.mountedTools),
    refuseSecretArguments: parsed.refuseSecretArguments ?? true,
    argumentPolicy: parsed.argumentPolicy ?? defaultArgumentPolicy,
    sandboxChoice,
    network: parsed.network ?? false,
    limits: { ...DEFAULT_RESOURCE_LIMITS, ...parsed.limits },
    bubblewrap,
    sandboxed: sandboxChoice !== "none" && bubblewrap?.available === true,
  };
}

function resolveWorkspace(
  given: Workspace | undefined,
  rootOption: string | undefined,
): { workspace: Workspace; root: string } {
  if (given === undefined && rootOption === undefined) {
    throw new AgentoolError(
      "createRunCommandTool: give `root` (the workspace directory on disk, absolute) or a `workspace` over the Node file system.",
    );
  }
  let rootDirectory = rootOption;
  if (rootDirectory === undefined) {
    const fileSystem = (given as Workspace).fileSystem;
    if (fileSystem.kind !== "node") {
      throw new AgentoolError(
        `createRunCommandTool: the workspace's file system is "${fileSystem.kind}", which has no directory on disk; pass \`root\` too.`,
      );
    }
    rootDirectory = fileSystem.displayRoot;
  }
  const workspace =
    given ?? createWorkspace({ fileSystem: createNodeFileSystem({ root: rootDirectory }) });
  return { workspace, root: resolve(rootDirectory) };
}
