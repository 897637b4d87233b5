export {
  createDesignTools,
  DESIGN_FIGMA_TOOL_NAMES,
  DESIGN_OFFLINE_TOOL_NAMES,
  type DesignToolsOptions,
} from "./create-design-tools.js";
export {
  createDesignExportTool,
  DEFAULT_EXPORT_DIRECTORY,
  DEFAULT_MAX_IMAGE_BYTES,
  DESIGN_EXPORT_TOOL_NAME,
  type DesignExportTool,
  type DesignExportToolData,
  type DesignExportToolOptions,
  designExportInputSchema,
  type ExportedImage,
  formatDesignExport,
  MAX_EXPORT_NODES,
  MAX_SHOWN_IMAGES,
} from "./design-export.js";
export {
  createDesignReadTool,
  DEFAULT_DESIGN_LAYER_LIMIT,
  DESIGN_READ_TOOL_NAME,
  type DesignReadTool,
  type DesignReadToolData,
  type DesignReadToolOptions,
  designReadInputSchema,
  formatDesignRead,
  MAX_DESIGN_LAYER_LIMIT,
} from "./design-read.js";
export {
  createDesignTokensTool,
  DESIGN_TOKENS_TOOL_NAME,
  type DesignTokensTool,
  type DesignTokensToolData,
  type DesignTokensToolOptions,
  designTokensInputSchema,
  formatDesignTokens,
  MAX_STYLE_NODES,
} from "./design-tokens.js";
export { FIGMA_API_ORIGIN } from "./internal/figma/figma-client.js";
export {
  DEFAULT_FIGMA_MAX_RESPONSE_BYTES,
  DEFAULT_FIGMA_REQUEST_TIMEOUT_MS,
  type FigmaToolOptions,
} from "./internal/figma/figma-options.js";
export { type FigmaReference, readFigmaReference } from "./internal/figma/figma-reference.js";
export type { TokenValue } from "./internal/figma/figma-variables.js";
export type {
  AutoLayout,
  DesignLayer,
  SpecTokens,
  TextStyleToken,
} from "./internal/layer-spec.js";
export {
  createSvgReadTool,
  DEFAULT_MAX_SVG_BYTES,
  DEFAULT_MAX_SVG_DEPTH,
  DEFAULT_MAX_SVG_ELEMENTS,
  DEFAULT_SVG_LAYER_LIMIT,
  formatSvgRead,
  MAX_SVG_LAYER_LIMIT,
  SVG_READ_TOOL_NAME,
  type SvgReadTool,
  type SvgReadToolData,
  type SvgReadToolOptions,
  svgReadInputSchema,
} from "./svg-read.js";
