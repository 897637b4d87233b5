// Preload for the Framelink MCP server (`node --import ./figma-api-redirect.mjs …`): its Figma
// base URL is fixed to https://api.figma.com, and its requests go through the global `fetch`, so
// this sends them to the recorded-file server named by FIGMA_RECORDED_ORIGIN
// (http://127.0.0.1:<port>) instead — their server runs unchanged. Any other address is refused,
// so nothing leaves the machine (telemetry is also switched off by the caller).
const target = process.env.FIGMA_RECORDED_ORIGIN;
if (target === undefined || !target.startsWith("http://127.0.0.1:")) {
  throw new Error("figma-api-redirect: set FIGMA_RECORDED_ORIGIN=http://127.0.0.1:<port>");
}
const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.origin !== "https://api.figma.com" && url.origin !== target) {
    return Promise.reject(new Error(`figma-api-redirect: refused ${url.origin}`));
  }
  const redirected = new URL(`${url.pathname}${url.search}`, target);
  return originalFetch(redirected, input instanceof Request ? input : init);
};
