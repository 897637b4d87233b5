export { createPreviewTool, type PreviewToolOptions } from "./create-preview-tool.js";
export {
  ARTIFACT_CONTENT_SECURITY_POLICY,
  artifactContentSecurityPolicy,
} from "./engine/artifact-document.js";
export {
  type PreviewEngineOptions,
  type PreviewFileSource,
  type PreviewReadFunction,
  previewEngineOptionsShape,
} from "./engine/engine-options.js";
export { formatPreviewResult } from "./engine/format-preview-result.js";
export {
  DEFAULT_MAX_ARTIFACT_BYTES,
  DEFAULT_MAX_PREVIEW_SESSIONS,
  DEFAULT_PREVIEW_IDLE_MS,
  DEFAULT_PREVIEW_TIMEOUT_MS,
  MAX_CONSOLE_ENTRIES,
  MAX_EVAL_VALUE_CHARACTERS,
  MAX_PREVIEW_ACTIONS,
  MAX_PREVIEW_CODE_CHARACTERS,
  MAX_PREVIEW_QUERIES,
  MAX_READ_ANSWER_CHARACTERS,
  MAX_READ_MATCHES,
  PREVIEW_ACTION_ALLOWANCE_MS,
  PREVIEW_DEADLINE_MARGIN_MS,
  PREVIEW_TOOL_NAME,
} from "./engine/limits.js";
export type {
  PreviewReadAnswer,
  PreviewSessionData,
  PreviewToolData,
} from "./engine/preview-data.js";
export { previewInputSchema } from "./engine/preview-input.js";
export {
  createIframeBackend,
  type IframeBackendOptions,
  PREVIEW_FRAME_SANDBOX,
  type PreviewFrameFactory,
} from "./iframe-backend.js";
export { createPreviewToolFromBackend, type PreviewTool } from "./preview.js";
export {
  type PreviewAction,
  type PreviewActOutcome,
  type PreviewBackend,
  type PreviewBackendSession,
  type PreviewConsoleEntry,
  type PreviewDriverMethod,
  PreviewError,
  type PreviewOpenRequest,
  type PreviewViewportImage,
  raceSignal,
} from "./preview-backend.js";
