// The design family through LangChain as a host runs it: `createDesignTools` with the host's
// Figma token, wrapped by `toLangChainTools` in a real `createAgent` driven by a scripted
// `fakeModel()`, against a local server answering Figma's REST API from the recorded file the demo
// reads (apps/demo/figma/shop-checkout.json, recorded from tools-design's local Figma API). The
// model reads a frame with design_read, then the file's tokens with design_tokens.
import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { toLangChainTools } from "@agentool/adapters/langchain";
import { createDesignTools } from "@agentool/tools-design";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const RECORDING = JSON.parse(
  readFileSync(
    fileURLToPath(new URL("../../demo/figma/shop-checkout.json", import.meta.url)),
    "utf8",
  ),
) as { file_key: string; responses: Record<string, unknown> };
const TOKEN = "figd_host-token";

let server: Server;
let origin = "";
const seen: Array<{ path: string; headers: IncomingHttpHeaders }> = [];
const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });

beforeAll(async () => {
  // Figma's answers as recorded; 403 without the token, 404 for a path not recorded.
  server = createServer((request, response) => {
    const path = request.url ?? "/";
    seen.push({ path, headers: request.headers });
    const body =
      request.headers["x-figma-token"] !== TOKEN
        ? { status: 403, err: "Invalid token" }
        : (RECORDING.responses[path] ?? { status: 404, err: "Not found" });
    const status = (body as { status?: number }).status ?? 200;
    response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(body).replaceAll("{origin}", origin));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await transport.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("the design family in a LangChain agent (createAgent + fakeModel) on a recorded Figma file", () => {
  it("design_read of the Summary card frame, then design_tokens; the token never appears in a tool schema", async () => {
    const fileKey = RECORDING.file_key;
    const model = fakeModel()
      .respondWithTools([
        { id: "frame", name: "design_read", args: { file_key: fileKey, node_id: "1:8" } },
      ])
      .respondWithTools([{ id: "tokens", name: "design_tokens", args: { file_key: fileKey } }])
      .respond(new AIMessage("The card is a 448×320 column with 16 px gaps on Surface/Default."));
    const tools = toLangChainTools(
      createDesignTools({ root: process.cwd(), figmaToken: TOKEN, baseUrl: origin, transport }),
    );
    expect(tools.map((tool) => tool.name)).toEqual([
      "svg_read",
      "design_read",
      "design_tokens",
      "design_export",
    ]);
    for (const tool of tools) expect(JSON.stringify(tool.schema)).not.toContain(TOKEN);
    const agent = createAgent({ model, tools });
    const state = await agent.invoke({
      messages: [new HumanMessage("Build the order summary card from the Figma frame 1:8.")],
    });
    const [frame, tokens] = toolMessages(state.messages);
    expect([frame?.tool_call_id, tokens?.tool_call_id]).toEqual(["frame", "tokens"]);
    for (const message of [frame, tokens]) {
      expect(message?.status, String(message?.content)).toBe("success");
    }
    const frameText = String(frame?.content);
    expect(frameText).toContain('frame "Summary card" #1:8 @0,0 448×320');
    expect(frameText).toMatch(/column gap=16 pad=24,24,24,24/);
    expect(frameText).toContain("Surface/Default");
    const tokensText = String(tokens?.content);
    expect(tokensText).toContain("--color-brand-primary: #2563eb;");
    expect(tokensText).toContain('[data-mode="theme-dark"]');

    // The model's second call saw the frame; the token went only as X-Figma-Token to the API.
    const secondCall = toolMessages(model.calls[1]?.messages ?? []);
    expect(String(secondCall[0]?.content)).toContain("Summary card");
    expect(seen.length).toBeGreaterThanOrEqual(4);
    for (const request of seen) expect(request.headers["x-figma-token"]).toBe(TOKEN);
    expect(state.messages.at(-1)?.content).toBe(
      "The card is a 448×320 column with 16 px gaps on Surface/Default.",
    );
  }, 60_000);
});
