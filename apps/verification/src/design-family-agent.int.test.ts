// The design family through LangChain as a host runs it: `createDesignTools` with the host's
// Figma token, wrapped by `toLangChainTools` in a real `createAgent` driven by a scripted
// `fakeModel()`, against tools-design's recorded Figma server (`@agentool/tools-design/testing`,
// the shop's checkout). The model reads a frame with design_read, then the file's tokens with
// design_tokens.
import { toLangChainTools } from "@agentool/adapters/langchain";
import { createDesignTools } from "@agentool/tools-design";
import {
  RECORDED_FIGMA_FILES,
  type RecordedFigmaServer,
  startRecordedFigmaServer,
} from "@agentool/tools-design/testing";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SHOP = RECORDED_FIGMA_FILES.shopCheckout;
const TOKEN = "figd_host-token";

let figma: RecordedFigmaServer;
const transport = createGuardedTransport({ allowHosts: ["127.0.0.1"] });

beforeAll(async () => {
  // 403 without the token, 404 for an unknown file, as Figma answers.
  figma = await startRecordedFigmaServer({ token: TOKEN });
});

afterAll(async () => {
  await transport.close();
  await figma?.close();
});

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

describe("the design family in a LangChain agent (createAgent + fakeModel) on a recorded Figma file", () => {
  it("design_read of the Summary card frame, then design_tokens; the token never appears in a tool schema", async () => {
    const fileKey = SHOP.fileKey;
    const model = fakeModel()
      .respondWithTools([
        {
          id: "frame",
          name: "design_read",
          args: { file_key: fileKey, node_id: SHOP.nodes.summaryCard },
        },
      ])
      .respondWithTools([{ id: "tokens", name: "design_tokens", args: { file_key: fileKey } }])
      .respond(new AIMessage("The card is a 448×320 column with 16 px gaps on Surface/Default."));
    const tools = toLangChainTools(
      createDesignTools({
        root: process.cwd(),
        figmaToken: TOKEN,
        baseUrl: figma.origin,
        transport,
      }),
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
    expect(figma.requests.length).toBeGreaterThanOrEqual(4);
    for (const request of figma.requests) expect(request.headers["x-figma-token"]).toBe(TOKEN);
    expect(state.messages.at(-1)?.content).toBe(
      "The card is a 448×320 column with 16 px gaps on Surface/Default.",
    );
  }, 60_000);
});
