export {
  AGENTOOL_TOOL_NAMES,
  findAbsentToolNames,
  findForeignMarkers,
  findMarkers,
  findNonSnakeCaseKeys,
} from "./boundary-rules.js";
export {
  assertConformance,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceViolation,
  checkConformance,
} from "./check-conformance.js";
export { MAX_WALKED_PAGES, type PagingWalkContext, walkPages } from "./paging-walk.js";
export {
  type Provider,
  validateAnthropicInputSchema,
  validateGeminiSchema,
  validateOpenAiStrictSchema,
  validateToolName,
} from "./provider-rules.js";
export { sampleFromSchema } from "./sample-input.js";
export { findPageDataKeys, findSchemaUnions, PAGE_INFO_DATA_KEYS } from "./schema-rules.js";
