export {
  ARTIFACT_ORIGIN,
  CHROMIUM_PREVIEW_ARGS,
  type ChromiumBackendOptions,
  createChromiumBackend,
  DEFAULT_CHROMIUM_PATH,
  launchedPreviewBrowsers,
} from "./chromium-backend.js";
export {
  type ChromiumPreviewToolOptions,
  createChromiumPreviewTool,
  createRootReader,
} from "./create-chromium-preview-tool.js";
