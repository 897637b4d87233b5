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
  createOpenAiToolDispatcher,
  type OpenAiToolDispatcher,
} from "./create-open-ai-tool-dispatcher.js";
export type {
  OpenAiChatDispatchResult,
  OpenAiChatTool,
  OpenAiChatToolCall,
  OpenAiChatToolMessage,
  OpenAiInputImage,
  OpenAiInputText,
  OpenAiResponsesDispatchResult,
  OpenAiResponsesFunctionCall,
  OpenAiResponsesFunctionCallOutput,
  OpenAiResponsesTool,
} from "./open-ai-types.js";
export { type ToOpenAiToolsOptions, toOpenAiTools } from "./to-open-ai-tools.js";
