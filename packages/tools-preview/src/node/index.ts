export {
  ARTIFACT_ORIGIN,
  CHROMIUM_NO_EGRESS_ARGS,
  CHROMIUM_PREVIEW_ARGS,
  type ChromiumBackendOptions,
  createChromiumBackend,
  DEFAULT_CHROMIUM_PATH,
} from "./chromium-backend.js";
export {
  CHROMIUM_RENDER_ARGS,
  type ChromiumRenderedPage,
  type ChromiumRenderer,
  type ChromiumRendererOptions,
  type ChromiumRenderFunction,
  createChromiumRenderer,
  DEFAULT_RENDER_BLOCKED_RESOURCE_TYPES,
  DEFAULT_RENDER_BUDGET_MS,
  DEFAULT_RENDER_IDLE_MS,
  DEFAULT_RENDER_SETTLE_MS,
  type RendererContext,
  type RendererFetchRequest,
  type RendererFetchResponse,
} from "./chromium-renderer.js";
export {
  type ChromiumPreviewToolOptions,
  createChromiumPreviewTool,
} from "./create-chromium-preview-tool.js";
export { createRootReader } from "./root-reader.js";
export { launchedPreviewBrowsers } from "./shared-browser.js";
