export type { ApprovalRequest, ApproveFunction } from "../approval.js";
export type {
  LangChainImageBlock,
  LangChainTextBlock,
  LangChainToolContent,
} from "./lang-chain-content.js";
export {
  type LangChainProgressEvent,
  type LangChainTool,
  PROGRESS_EVENT_NAME,
  type ToLangChainToolOptions,
  type ToLangChainToolsOptions,
  toLangChainTool,
  toLangChainTools,
} from "./to-lang-chain-tool.js";
