export {
  type ApprovalCandidate,
  type ApprovalRequest,
  type ApproveFunction,
  defaultRequireApproval,
  type RequireApprovalFunction,
} from "../approval.js";
export {
  createInterruptHandler,
  type InterruptAnswer,
  type InterruptHandler,
  type InterruptHandlerContext,
  type InterruptHandlerOptions,
  type InterruptNotification,
  type InterruptQuestion,
  NOTIFICATION_EVENT_NAME,
} from "./create-interrupt-handler.js";
export type {
  LangChainImageBlock,
  LangChainTextBlock,
  LangChainToolContent,
} from "./lang-chain-content.js";
export {
  type LangChainArtifactMode,
  type LangChainProgressEvent,
  type LangChainTool,
  PROGRESS_EVENT_NAME,
  type ToLangChainToolOptions,
  type ToLangChainToolsOptions,
  toLangChainTool,
  toLangChainTools,
} from "./to-lang-chain-tool.js";
