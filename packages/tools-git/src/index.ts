export { createGitTools, type GitToolsMode, type GitToolsOptions } from "./create-git-tools.js";
export {
  createGitAddTool,
  formatGitAdd,
  GIT_ADD_TOOL_NAME,
  type GitAddTool,
  type GitAddToolData,
  gitAddInputSchema,
  MAX_ADD_FILES,
} from "./git-add.js";
export {
  createGitBranchTool,
  formatGitBranch,
  GIT_BRANCH_TOOL_NAME,
  type GitBranchCreateData,
  type GitBranchListData,
  type GitBranchSummary,
  type GitBranchTool,
  type GitBranchToolData,
  type GitBranchToolOptions,
  gitBranchInputSchema,
} from "./git-branch.js";
export {
  createGitCommitTool,
  formatGitCommit,
  GIT_COMMIT_TOOL_NAME,
  type GitAuthor,
  type GitCommitTool,
  type GitCommitToolData,
  type GitCommitToolOptions,
  gitCommitInputSchema,
  MAX_COMMIT_MESSAGE_CHARACTERS,
} from "./git-commit.js";
export {
  createGitDiffTool,
  DEFAULT_CONTEXT_LINES,
  type DiffFile,
  formatGitDiff,
  GIT_DIFF_TOOL_NAME,
  type GitDiffTool,
  type GitDiffToolData,
  gitDiffInputSchema,
} from "./git-diff.js";
export {
  createGitLogTool,
  DEFAULT_LOG_LIMIT,
  DEFAULT_MAX_LOG_LIMIT,
  formatGitLog,
  GIT_LOG_TOOL_NAME,
  type GitCommitSummary,
  type GitLogTool,
  type GitLogToolData,
  type GitLogToolOptions,
  gitLogInputSchema,
} from "./git-log.js";
export {
  createGitShowTool,
  formatGitShow,
  GIT_SHOW_TOOL_NAME,
  type GitShowCommit,
  type GitShowDirectory,
  type GitShowFile,
  type GitShowTool,
  type GitShowToolData,
  gitShowInputSchema,
} from "./git-show.js";
export {
  type ChangeStatus,
  createGitStatusTool,
  type FileChange,
  formatGitStatus,
  GIT_STATUS_TOOL_NAME,
  type GitStatusTool,
  type GitStatusToolData,
  type GitToolOptions,
  gitStatusInputSchema,
} from "./git-status.js";
