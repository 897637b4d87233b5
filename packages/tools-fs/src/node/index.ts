export { createNodeFsTools, type NodeFsToolsOptions } from "./create-node-fs-tools.js";
export { createNodeFileSystem, type NodeFileSystemOptions } from "./node-file-system.js";
export {
  checkWorkspaceFile,
  type ReadWorkspaceFileOptions,
  readWorkspaceFile,
  type WorkspaceFile,
} from "./read-workspace-file.js";
export {
  createRipgrepLister,
  createRipgrepSearcher,
  type RipgrepSearchOptions,
} from "./ripgrep/index.js";
export {
  type ArgumentPolicy,
  type ArgumentPolicyVerdict,
  defaultArgumentPolicy,
  sedScriptDanger,
} from "./run-command/argument-policy.js";
export {
  type BubblewrapStatus,
  bubblewrapStatus,
  type CommandSandbox,
} from "./run-command/bubblewrap-status.js";
export {
  DEFAULT_ENVIRONMENT_ALLOWLIST,
  SECRET_ENVIRONMENT_PATTERN,
} from "./run-command/command-environment.js";
export { formatCommandResult } from "./run-command/format-command-result.js";
export { DEFAULT_RESOURCE_LIMITS, type ResourceLimits } from "./run-command/resource-limits.js";
export type {
  CommandCutLine,
  CommandOutputData,
  RunCommandToolData,
} from "./run-command/run-command-data.js";
export {
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_CAPTURED_BYTES,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_HEAD_LINES,
  DEFAULT_MAX_OUTPUT_CHARACTERS,
  DEFAULT_MAX_OUTPUT_LINE_CHARACTERS,
  DEFAULT_MAX_TAIL_LINES,
  DEFAULT_OUTPUT_DRAIN_MS,
  RUN_COMMAND_TOOL_NAME,
} from "./run-command/run-command-defaults.js";
export {
  RUN_COMMAND_ALIASES,
  type RunCommandInput,
  runCommandInputSchema,
} from "./run-command/run-command-input.js";
export type { RunCommandToolOptions } from "./run-command/run-command-options.js";
export { SHELL_METACHARACTERS, splitCommandString } from "./run-command/split-command-string.js";
export { suggestArgv } from "./run-command/suggest-argv.js";
export { createRunCommandTool, type RunCommandTool } from "./run-command.js";
export {
  type WorkspaceOptionsInput,
  workspaceFromOptions,
  workspaceOptionsShape,
} from "./workspace-options.js";
