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
  createGeminiToolDispatcher,
  type GeminiToolDispatcher,
} from "./create-gemini-tool-dispatcher.js";
export type {
  GeminiDispatchResult,
  GeminiErrorResponse,
  GeminiFunctionCall,
  GeminiFunctionDeclaration,
  GeminiFunctionResponsePart,
  GeminiSuccessResponse,
  GeminiTool,
} from "./gemini-types.js";
export { toGeminiTools } from "./to-gemini-tools.js";
