export {
  type CommandLine,
  type CommandLineOptions,
  DEFAULT_HTTP_HOST,
  FLAGS,
  type FlagDescription,
  formatHelp,
  MODES,
  parseCommandLine,
  type ServerMode,
  UsageError,
} from "./command-line.js";
export {
  AGENTOOL_MCP_SERVER_VERSION,
  type AgentoolMcpServer,
  type AgentoolMcpServerOptions,
  createAgentoolMcpServer,
  DEFAULT_ROOTS_TIMEOUT_MS,
  resolveRoot,
} from "./create-agentool-mcp-server.js";
export { FAMILY_NAMES, type FamilyName, isFamilyName } from "./family-names.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  type HttpServerOptions,
  MCP_PATH,
  type RunningHttpServer,
  startHttpServer,
} from "./http-server.js";
export {
  createWebPagesSaver,
  type KnowledgeCacheEnvironment,
  type KnowledgeFolder,
  knowledgeCacheDirectory,
  normalizeKnowledgeDir,
  resolveKnowledgeFolder,
  rootRelativeSource,
  WEB_PAGES_FOLDER,
} from "./knowledge-folder.js";
export { createKnowledgeResources, type KnowledgeResources } from "./knowledge-resources.js";
export {
  buildToolSet,
  isGitRepositoryRoot,
  SEARCH_MEMORY_TOOL_NAME,
  type ServedKnowledgeFolder,
  type ToolSet,
  type ToolSetConfiguration,
  type ToolSetState,
} from "./tool-sets.js";
