// @agentool/tools-preview root in the browser: the preview tool on its iframe backend opens an
// HTML artifact in a sandboxed iframe of this page, reads its DOM, runs code in it and closes it.
import { createPreviewTool } from "@agentool/tools-preview";
import { type BrowserToolCall, callTool } from "./call-tool.js";

const COUNTER_HTML = `<!doctype html><html><head><title>Counter</title></head><body>
<h1 id="count">0</h1><button id="more">more</button>
<script>
let count = 0;
document.getElementById("more").addEventListener("click", () => {
  count += 1;
  document.getElementById("count").textContent = String(count);
});
console.log("counter ready");
</script></body></html>`;

/**
 * Opens the counter artifact, clicks it twice, reads the count and evaluates a value.
 *
 * @returns the calls: `open`, `act`, `read`, `evaluate`, `close`
 */
export default async function run(): Promise<Record<string, BrowserToolCall>> {
  const artifacts: Record<string, string> = { "counter.html": COUNTER_HTML };
  const tool = createPreviewTool({
    read: async (path) => {
      const html = artifacts[path];
      if (html === undefined)
        throw Object.assign(new Error(`${path} is missing`), { code: "FILE_NOT_FOUND" });
      return html;
    },
    timeoutMs: 8_000,
  });
  const thread = { threadId: "browser-entries" };
  return {
    open: await callTool(tool, { op: "open", path: "counter.html" }, thread),
    act: await callTool(
      tool,
      {
        op: "act",
        actions: [
          { type: "click", selector: "#more" },
          { type: "click", selector: "#more" },
        ],
      },
      thread,
    ),
    read: await callTool(tool, { op: "read", queries: [{ css: "#count" }] }, thread),
    evaluate: await callTool(tool, { op: "eval", code: "return count * 10" }, thread),
    close: await callTool(tool, { op: "close" }, thread),
  };
}
