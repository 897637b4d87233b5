export { createNodeFsTools, type NodeFsToolsOptions } from "./create-node-fs-tools.js";
export { createNodeFileSystem, type NodeFileSystemOptions } from "./node-file-system.js";
export {
  createRipgrepLister,
  createRipgrepSearcher,
  type RipgrepSearchOptions,
} from "./ripgrep-search.js";
export {
  createRunCommandTool,
  DEFAULT_COMMAND_TIMEOUT_MS,
  DEFAULT_ENVIRONMENT_ALLOWLIST,
  DEFAULT_KILL_GRACE_MS,
  DEFAULT_MAX_COMMAND_TIMEOUT_MS,
  DEFAULT_MAX_HEAD_LINES,
  DEFAULT_MAX_OUTPUT_BYTES,
  DEFAULT_MAX_TAIL_LINES,
  formatCommandResult,
  RUN_COMMAND_TOOL_NAME,
  type RunCommandInput,
  type RunCommandTool,
  type RunCommandToolData,
  type RunCommandToolOptions,
  runCommandInputSchema,
  SECRET_ENVIRONMENT_PATTERN,
  SHELL_METACHARACTERS,
  splitCommandString,
} from "./run-command.js";
