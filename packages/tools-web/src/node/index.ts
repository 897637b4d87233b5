export {
  type AddressVerdict,
  BLOCKED_HOST_NAMES,
  CLOUD_METADATA_ADDRESSES,
  createHostMatcher,
  isBlockedHostName,
  judgeAddress,
} from "./address-policy.js";
export { createWorkerConverters, type WorkerConverterOptions } from "./converter-runner.js";
export {
  createNodeWebFetchTool,
  createNodeWebTools,
  type NodeWebFetchToolOptions,
  type NodeWebToolsOptions,
} from "./create-node-web-tools.js";
export {
  createDirectorySaver,
  formatSavedDocument,
  type SaveDirectory,
  savedFileName,
} from "./directory-saver.js";
export {
  createGuardedTransport,
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_MAX_REDIRECTS,
  type GuardedTransportOptions,
  type ResolvedAddress,
  type Resolver,
} from "./guarded-transport.js";
