// Entry points that must run in any JS runtime: no `node:` import and no Node built-in anywhere in
// their built import graph (Node-only code lives on `./node` subpaths or Node-only packages).
// Read by scripts/check-packages.mjs (import graphs of the built files) and by
// apps/verification/src/browser-bundles.int.test.ts (each one bundled and run in headless Chromium).
/** @type {Readonly<Record<string, readonly string[]>>} */
export const RUNTIME_NEUTRAL_ENTRIES = {
  "@agentool/contract": [".", "./testing", "./policy"],
  "@agentool/tools-core": ["."],
  "@agentool/tools-fs": ["."],
  "@agentool/tools-web": ["."],
  "@agentool/tools-interact": ["."],
  "@agentool/tools-preview": ["."],
  "@agentool/tools-gui": ["."],
  "@agentool/tools-knowledge": [".", "./pgvector", "./search", "./memory", "./skills"],
  "@agentool/adapters": ["./mcp", "./openai", "./anthropic", "./gemini"],
};
