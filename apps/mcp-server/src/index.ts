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
export {
  BoundedEventStore,
  type BoundedEventStoreOptions,
  DEFAULT_MAX_STORED_EVENT_BYTES,
  DEFAULT_MAX_STORED_EVENTS,
} from "./event-store.js";
export { FAMILY_NAMES, type FamilyName, isFamilyName } from "./family-names.js";
export {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  DEFAULT_SSE_RETRY_MS,
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
export { isLoopbackHost } from "./loopback.js";
export {
  checkOptionalDependencies,
  DependencyMissingError,
  type ModuleImporter,
  PREVIEW_DEPENDENCY,
  PREVIEW_DEPENDENCY_INSTALL,
} from "./optional-dependencies.js";
export { type PromptSkillSource, registerSkillPrompts, skillPrompt } from "./prompts.js";
export {
  buildToolSet,
  isGitRepositoryRoot,
  SEARCH_MEMORY_TOOL_NAME,
  type ServedKnowledgeFolder,
  type ToolSet,
  type ToolSetConfiguration,
  type ToolSetState,
} from "./tool-sets.js";
