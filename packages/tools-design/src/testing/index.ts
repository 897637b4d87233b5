export {
  RECORDED_FIGMA_FILES,
  RECORDED_FIGMA_TOKEN,
  type RecordedFigmaFile,
  readRecordedFigmaFile,
} from "./recorded-figma-files.js";
export {
  RECORDED_RENDER_PNG,
  type RecordedFigmaRequest,
  type RecordedFigmaServer,
  type RecordedFigmaServerOptions,
  startRecordedFigmaServer,
} from "./recorded-figma-server.js";
