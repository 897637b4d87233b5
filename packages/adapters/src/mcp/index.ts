export { clientSupportsElicitation } from "./client-supports-elicitation.js";
export {
  createMcpInteractionHandler,
  MCP_NOTIFICATION_LOGGER,
  type McpAskUserQuestion,
  type McpConfirmQuestion,
  type McpInteractionContext,
  type McpInteractionHandler,
  type McpQuestionOption,
  type McpUserAnswer,
  type McpUserNotification,
  type McpUserQuestion,
} from "./create-mcp-interaction-handler.js";
export { type RegisteredTools, registerTools } from "./register-tools.js";
export type {
  McpLowLevelServerLike,
  McpRequestExtra,
  McpServerLike,
  RegisterToolsOptions,
  StructuredContentMode,
} from "./register-tools-options.js";
export { toMcpCallToolResult } from "./to-mcp-call-tool-result.js";
export {
  type McpObjectSchema,
  type McpToolAnnotations,
  type McpToolDefinition,
  toMcpAnnotations,
  toMcpTitle,
  toMcpToolDefinition,
} from "./to-mcp-tool-definition.js";
