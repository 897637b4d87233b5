export { AgentoolError } from "./agentool-error.js";
export {
  type ClosestNamesOptions,
  closestNames,
  editDistance,
  errorMessage,
  formatCount,
  givenCallArguments,
  joinSentences,
  listWords,
  type MountedTools,
  mountedTools,
  mountedToolsOption,
  nextCallArguments,
  type RetryOptions,
  raceSignal,
  retryWithBackoff,
  sleep,
  ToolFailureError,
  type ToolFailureErrorOptions,
  type ToolOptions,
  toolOptionsShape,
} from "./authoring/index.js";
export {
  type ContentBlock,
  contentToText,
  type ImageContentBlock,
  type TextContentBlock,
  type ToolContent,
} from "./content.js";
export {
  type AnyTool,
  DEFAULT_MAX_INPUT_BYTES,
  DEFAULT_TIMEOUT_MS,
  defineTool,
  formatToolError,
  isTool,
  type RunOptions,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolAnnotations,
  type ToolContext,
  type ToolDefinition,
  type ToolInputSchema,
  type ToolOverrides,
  type ToolProgress,
} from "./define-tool.js";
export { ERROR_CODES, type ErrorCode, isErrorCode } from "./error-codes.js";
export {
  createSecretPathMatcher,
  DEFAULT_SECRET_EXCEPTIONS,
  DEFAULT_SECRET_PATHS,
  globToRegExp,
  matchesAny,
  type SecretPathOptions,
  secretGlobAnywhere,
} from "./glob.js";
export {
  GEMINI_SCHEMA_KEYWORDS,
  GEMINI_STRING_FORMATS,
  GEMINI_TYPES,
  type JsonSchema,
  type JsonValue,
  OPENAI_STRICT_FORMATS,
  OPENAI_STRICT_KEYWORDS,
  toGeminiSchema,
  toJsonSchema,
  toOpenAiStrictSchema,
  toOutputJsonSchema,
} from "./json-schema.js";
export { parseOptions, toolOverridesShape } from "./options.js";
export {
  formatNextCall,
  formatPageMarker,
  type ItemPage,
  isOffsetPastEnd,
  NEXT_CALL_PATTERN,
  type NextCallValue,
  type OffsetPastEndOptions,
  offsetPastEnd,
  type PageInfo,
  type PageMarkerOptions,
  type PageRequest,
  type PagingInputOptions,
  pageItems,
  pagingInputShape,
  parseNextCall,
} from "./paging.js";
export {
  containsPrivateKey,
  createPrivateKeyLineScanner,
  findPrivateKeys,
  PRIVATE_KEY_REDACTION,
  type PrivateKeySpan,
  redactPrivateKeys,
} from "./private-key.js";
export {
  type NormalizedRelativePath,
  type NormalizeRelativePathOptions,
  normalizeRelativePath,
} from "./relative-path.js";
export {
  type FailOptions,
  fail,
  isToolResult,
  ok,
  type ToolError,
  type ToolFailure,
  type ToolResult,
  type ToolSuccess,
} from "./result.js";
export { type SelectToolsOptions, selectTools } from "./select-tools.js";
export {
  formatTruncationMarker,
  singularUnit,
  TRUNCATION_MARKER_PATTERN,
  type TruncatedList,
  type TruncatedText,
  type TruncateTextOptions,
  type TruncationCut,
  type TruncationMarkerOptions,
  truncateList,
  truncateText,
} from "./truncate.js";
