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
export type {
  AnthropicDispatchResult,
  AnthropicImageBlock,
  AnthropicTextBlock,
  AnthropicTool,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from "./anthropic-types.js";
export {
  type AnthropicToolDispatcher,
  createAnthropicToolDispatcher,
} from "./create-anthropic-tool-dispatcher.js";
export { toAnthropicTools } from "./to-anthropic-tools.js";
