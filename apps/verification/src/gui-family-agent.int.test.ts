// The gui family through LangChain as a host runs it: `createComputerTool` on a real Xvfb with
// tools-gui's Tk test app, wrapped by `toLangChainTools` (with an approval hook: the tool is
// destructive) in a real `createAgent` driven by a scripted `fakeModel()`. The model takes a
// screenshot, clicks the entry, types, presses Apply and sees the result; the screenshots reach
// the model as image content parts of its tool messages.
import { toLangChainTools } from "@agentool/adapters/langchain";
import { createComputerTool } from "@agentool/tools-gui";
import type { XvfbDisplay } from "@agentool/tools-gui/node";
import { countColorPixels, startTkTestApp, x11TestSkipReason } from "@agentool/tools-gui/testing";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const X11_MISSING = x11TestSkipReason("verification gui agent test");

let display: XvfbDisplay | undefined;

beforeAll(async () => {
  if (X11_MISSING !== undefined) return;
  display = await startTkTestApp(1024, 768);
}, 30_000);

afterAll(async () => {
  await display?.close();
});

function toolMessages(messages: readonly unknown[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

/** The image part of a tool message's content, decoded: its size and its count of pure green pixels. */
async function imageOf(message: ToolMessage | undefined) {
  const parts = Array.isArray(message?.content) ? message.content : [];
  const image = parts.find((part) => (part as { type?: string }).type === "image") as
    | { type: "image"; mimeType: string; data: string }
    | undefined;
  if (image === undefined)
    throw new Error(`no image part in ${JSON.stringify(parts).slice(0, 200)}`);
  const { width, height, count } = await countColorPixels(image.data, [0, 255, 0]);
  return { mimeType: image.mimeType, width, height, green: count };
}

describe.skipIf(X11_MISSING !== undefined)(
  "the gui family in a LangChain agent (createAgent + fakeModel) on Xvfb",
  () => {
    it("screenshot, click the entry, type, press Apply: each call approved, each screenshot an image part the model reads", async () => {
      if (display === undefined) throw new Error("no display");
      const model = fakeModel()
        .respondWithTools([{ id: "look", name: "computer", args: { action: "screenshot" } }])
        .respondWithTools([
          { id: "click", name: "computer", args: { action: "left_click", coordinate: [40, 22] } },
        ])
        .respondWithTools([
          { id: "type", name: "computer", args: { action: "type", text: "hello agent" } },
        ])
        .respondWithTools([{ id: "focus", name: "computer", args: { action: "key", key: "Tab" } }])
        .respondWithTools([
          { id: "apply", name: "computer", args: { action: "key", key: "space" } },
        ])
        .respond(new AIMessage("Applied: the label now reads hello agent on green."));
      const approved: string[] = [];
      const computer = createComputerTool({
        display,
        maxScreenshotWidth: 800,
        maxScreenshotHeight: 600,
      });
      const tools = toLangChainTools([computer], {
        approve: (call) => {
          approved.push(JSON.stringify(call.input));
          return true;
        },
      });
      const agent = createAgent({ model, tools });
      const state = await agent.invoke({
        messages: [new HumanMessage("Type 'hello agent' into the field and apply it.")],
      });
      const messages = toolMessages(state.messages);
      expect(messages.map((message) => message.tool_call_id)).toEqual([
        "look",
        "click",
        "type",
        "focus",
        "apply",
      ]);
      for (const message of messages)
        expect(message.status, String(message.content)).toBe("success");
      expect(approved).toHaveLength(5);
      expect(approved[1]).toContain('"left_click"');

      // 1024×768 scaled into 800×600: the text says so, the image is that size.
      const [first] = messages;
      const firstParts = first?.content as Array<{ type: string; text?: string }>;
      expect(firstParts[0]?.text).toBe(
        "Screenshot taken. Screen 1024×768, screenshot 800×600 (scale 0.7813).",
      );
      const before = await imageOf(first);
      expect(before).toMatchObject({ mimeType: "image/png", width: 800, height: 600, green: 0 });

      // The model's second call saw the screenshot as an image part of the tool message.
      const seen = toolMessages(model.calls[1]?.messages ?? []);
      expect(seen.map((message) => message.tool_call_id)).toEqual(["look"]);
      expect((await imageOf(seen[0])).width).toBe(800);

      // After Apply the label is pure green (#00ff00) in the screenshot that came back.
      const after = await imageOf(messages.at(-1));
      expect(after.green).toBeGreaterThan(300);
      expect(state.messages.at(-1)?.content).toBe(
        "Applied: the label now reads hello agent on green.",
      );
    }, 60_000);
  },
);
