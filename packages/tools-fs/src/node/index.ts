export {
  type ArgumentPolicy,
  type ArgumentPolicyVerdict,
  defaultArgumentPolicy,
  sedScriptDanger,
} from "./argument-policy.js";
export { createNodeFsTools, type NodeFsToolsOptions } from "./create-node-fs-tools.js";
export { createNodeFileSystem, type NodeFileSystemOptions } from "./node-file-system.js";
export {
  createRipgrepLister,
  createRipgrepSearcher,
  type RipgrepSearchOptions,
} from "./ripgrep-search.js";
export {
  type CommandCutLine,
  type CommandOutputData,
  createRunCommandTool,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_ENVIRONMENT_ALLOWLIST,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_CAPTURED_BYTES,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_HEAD_LINES,
  DEFAULT_MAX_OUTPUT_CHARACTERS,
  DEFAULT_MAX_OUTPUT_LINE_CHARACTERS,
  DEFAULT_MAX_TAIL_LINES,
  DEFAULT_OUTPUT_DRAIN_MS,
  formatCommandResult,
  RUN_COMMAND_ALIASES,
  RUN_COMMAND_TOOL_NAME,
  type RunCommandInput,
  type RunCommandTool,
  type RunCommandToolData,
  type RunCommandToolOptions,
  runCommandInputSchema,
  SECRET_ENVIRONMENT_PATTERN,
  SHELL_METACHARACTERS,
  splitCommandString,
  suggestArgv,
} from "./run-command.js";
export { type BubblewrapStatus, bubblewrapStatus, type CommandSandbox } from "./sandbox.js";
