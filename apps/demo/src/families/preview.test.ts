import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { toLangChainTool } from "@agentool/adapters/langchain";
import { createChromiumPreviewTool } from "@agentool/tools-preview/node";
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import { coreFamily } from "./core.js";
import { createPreviewFamily, PREVIEW_ARTIFACT_HTML } from "./preview.js";

describe("preview family", () => {
  it("opens the artifact, acts, prints the console output and saves the shot as a PNG", async () => {
    const shot = join(mkdtempSync(join(tmpdir(), "demo-preview-")), "shot.png");
    const run = await runDemo({ families: [coreFamily, createPreviewFamily(shot)] });
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.toolCallsByName).toMatchObject({ preview: 4 });
    const results = run.events.filter(
      (event) => event.type === "tool_result" && event.name === "preview",
    );
    const texts = results.map((event) => (event.type === "tool_result" ? event.content : ""));
    expect(texts[0]).toContain("[log] game ready");
    expect(texts[1]).toContain("[log] moved to x=50");
    expect(texts[1]).toContain("[log] moved to x=90");
    expect(texts[2]).toContain('#moves: "moves: 2"');
    expect(texts[3]).toContain("Shot of the largest canvas (canvas#board");
    expect(readFileSync(shot).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  });

  it("a shot reaches LangChain as an image block in the ToolMessage", async () => {
    const preview = createChromiumPreviewTool({ read: async () => PREVIEW_ARTIFACT_HTML });
    try {
      const tool = toLangChainTool(preview);
      const config = { configurable: { thread_id: "lc" } };
      await tool.invoke(
        { type: "tool_call", id: "1", name: "preview", args: { op: "open", path: "game.html" } },
        config,
      );
      const message = (await tool.invoke(
        { type: "tool_call", id: "2", name: "preview", args: { op: "shot" } },
        config,
      )) as ToolMessage;
      expect(message).toBeInstanceOf(ToolMessage);
      const blocks = message.content as Array<{ type: string; mimeType?: string; data?: string }>;
      expect(blocks.map((block) => block.type)).toEqual(["text", "image"]);
      expect(blocks[1]).toMatchObject({ type: "image", mimeType: "image/png" });
      expect(
        Buffer.from(blocks[1]?.data ?? "", "base64")
          .subarray(1, 4)
          .toString(),
      ).toBe("PNG");
    } finally {
      await preview.dispose();
    }
  });
});
