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
