// @agentool/tools-office — documents an editing agent meets: Word, Excel, PowerPoint,
// OpenDocument, PDF, notebooks and images, read as Markdown, written and edited in place.
export {
  createOfficeTools,
  OFFICE_READ_TOOL_NAMES,
  OFFICE_WRITE_TOOL_NAMES,
  type OfficeToolsMode,
  type OfficeToolsOptions,
} from "./create-office-tools.js";
export type { OfficeReadToolOptions } from "./internal/read-support.js";
export {
  createReadDocumentTool,
  DEFAULT_DOCUMENT_LIMITS,
  DEFAULT_MAX_PAGE_CHARS,
  type DocumentImage,
  formatReadDocument,
  MAX_DOCUMENT_LIMIT,
  READ_DOCUMENT_ALIASES,
  READ_DOCUMENT_TOOL_NAME,
  type ReadDocumentFormatOptions,
  type ReadDocumentTool,
  type ReadDocumentToolData,
  type ReadDocumentToolOptions,
  type ReadDocumentUnit,
  readDocumentInputSchema,
  type SheetInfo,
} from "./read-document.js";
export {
  createReadImageTool,
  DEFAULT_MAX_EDGE,
  DEFAULT_MAX_IMAGE_FILE_BYTES,
  formatReadImage,
  MAX_IMAGE_OUTPUT_BYTES,
  READ_IMAGE_TOOL_NAME,
  type ReadImageTool,
  type ReadImageToolData,
  type ReadImageToolOptions,
  readImageInputSchema,
} from "./read-image.js";
