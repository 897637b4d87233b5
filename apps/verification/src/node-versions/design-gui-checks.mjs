// The design and gui families' steps of runtime-check.mjs (same rules: plain ESM, real calls,
// what a model and a host see kept in the report). `exported` and `call` are runtime-check's.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * tools-design: design_read and design_tokens against the recorded Figma server of
 * `@agentool/tools-design/testing` (so that entry runs here too), and svg_read on a local SVG.
 *
 * @param {(key: string, name: string) => any} exported - an imported entry's export
 * @param {(tools: unknown[], name: string, input: object) => Promise<{ result: unknown, text: string }>} call - runs one tool
 * @param {string} workspace - a temporary folder
 * @returns {Promise<{ frame: unknown, tokens: unknown, svg: unknown }>} the three calls
 */
export async function designTools(exported, call, workspace) {
  const root = join(workspace, "design");
  mkdirSync(root);
  writeFileSync(
    join(root, "card.svg"),
    '<svg xmlns="http://www.w3.org/2000/svg" width="320" height="120"><rect width="320" height="120" rx="12" fill="#ffffff"/><text x="24" y="40" font-size="20" fill="#111827">Order summary</text></svg>',
  );
  const testing = "@agentool/tools-design/testing";
  const files = exported(testing, "RECORDED_FIGMA_FILES");
  const figma = await exported(testing, "startRecordedFigmaServer")();
  const transport = exported(
    "@agentool/tools-web/node",
    "createGuardedTransport",
  )({
    allowHosts: [new URL(figma.origin).host],
  });
  try {
    const tools = exported(
      "@agentool/tools-design",
      "createDesignTools",
    )({
      root,
      figmaToken: exported(testing, "RECORDED_FIGMA_TOKEN"),
      baseUrl: figma.origin,
      transport,
    });
    const shop = files.shopCheckout;
    return {
      frame: await call(tools, "design_read", {
        file_key: shop.fileKey,
        node_id: shop.nodes.summaryCard,
      }),
      tokens: await call(tools, "design_tokens", { file_key: shop.fileKey }),
      svg: await call(tools, "svg_read", { path: "card.svg" }),
    };
  } finally {
    await transport.close();
    await figma.close();
  }
}

/**
 * tools-gui: a 320×200 Xvfb the tool's package starts, computer's screenshot of it, then close();
 * the image itself stays out of the report (its size in bytes is kept).
 *
 * @param {(key: string, name: string) => any} exported - an imported entry's export
 * @param {(tools: unknown[], name: string, input: object) => Promise<{ result: any, text: unknown }>} call - runs one tool
 * @returns {Promise<unknown>} the screenshot's text and envelope, and whether Xvfb was gone after close()
 */
export async function guiTools(exported, call) {
  const display = await exported(
    "@agentool/tools-gui/node",
    "startXvfbDisplay",
  )({
    width: 320,
    height: 200,
  });
  const serverPid = display.serverPid;
  let shot;
  try {
    const computer = exported("@agentool/tools-gui", "createComputerTool")({ display });
    shot = await call([computer], "computer", { action: "screenshot" });
  } finally {
    await display.close();
  }
  const { image_base64: image, ...data } = shot.result.data ?? {};
  const blocks = Array.isArray(shot.text) ? shot.text : [{ type: "text", text: shot.text }];
  let serverAlive = serverPid !== undefined;
  try {
    if (serverPid !== undefined) process.kill(serverPid, 0);
  } catch {
    serverAlive = false;
  }
  return {
    success: shot.result.success,
    data,
    imageBytes: image === undefined ? 0 : Buffer.from(image, "base64").length,
    text: blocks
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("\n"),
    serverAlive,
  };
}
