export {
  type ApprovalCandidate,
  type ApprovalRequest,
  type ApproveFunction,
  defaultRequireApproval,
  type RequireApprovalFunction,
} from "../approval.js";
export type {
  DispatcherOptions,
  DispatchProgress,
  DispatchRunOptions,
} from "../dispatcher-options.js";
export {
  fromAnthropicComputerInput,
  toAnthropicComputerInput,
} from "./anthropic-computer-input.js";
export type {
  AnthropicComputerInput,
  AnthropicComputerTool,
  AnthropicComputerToolVersion,
  AnthropicDispatchResult,
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from "./anthropic-types.js";
export {
  type AnthropicDispatcherOptions,
  type AnthropicToolDispatcher,
  createAnthropicToolDispatcher,
} from "./create-anthropic-tool-dispatcher.js";
export {
  ANTHROPIC_COMPUTER_BETAS,
  type AnthropicComputerToolOptions,
  toAnthropicComputerTool,
} from "./to-anthropic-computer-tool.js";
export { type ToAnthropicToolsOptions, toAnthropicTools } from "./to-anthropic-tools.js";
