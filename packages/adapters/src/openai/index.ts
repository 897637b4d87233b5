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
  type OpenAiDispatcherOptions,
  type OpenAiToolDispatcher,
} from "./create-open-ai-tool-dispatcher.js";
export { MAX_COMPUTER_STEPS_PER_CALL } from "./dispatch-open-ai-computer-call.js";
export {
  fromOpenAiComputerAction,
  OPENAI_SCROLL_PIXELS_PER_CLICK,
} from "./open-ai-computer-action.js";
export type {
  OpenAiChatDispatchResult,
  OpenAiChatTool,
  OpenAiChatToolCall,
  OpenAiChatToolMessage,
  OpenAiComputerAction,
  OpenAiComputerCall,
  OpenAiComputerCallOutput,
  OpenAiComputerDispatchResult,
  OpenAiComputerSafetyCheck,
  OpenAiComputerTool,
  OpenAiInputImage,
  OpenAiInputText,
  OpenAiResponsesDispatchResult,
  OpenAiResponsesFunctionCall,
  OpenAiResponsesFunctionCallOutput,
  OpenAiResponsesTool,
} from "./open-ai-types.js";
export {
  type OpenAiComputerToolOptions,
  toOpenAiComputerTool,
} from "./to-open-ai-computer-tool.js";
export { type ToOpenAiToolsOptions, toOpenAiTools } from "./to-open-ai-tools.js";
