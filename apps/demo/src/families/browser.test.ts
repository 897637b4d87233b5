import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toLangChainTool } from "@agentool/adapters/langchain";
import { createBrowserTool } from "@agentool/tools-preview/browser";
import { createGuardedTransport } from "@agentool/tools-web/node";
import { ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { runDemo } from "../run-demo.js";
import { browserFamily } from "./browser.js";
import { coreFamily } from "./core.js";

describe("browser family", () => {
  it("signs in on the account site through the guarded transport and reads the protected page", async () => {
    const run = await runDemo({ families: [coreFamily, browserFamily] });
    expect(run.summary.toolErrors).toBe(0);
    expect(run.summary.toolCallsByName).toMatchObject({ browser: 3 });
    const texts = run.events.flatMap((event) =>
      event.type === "tool_result" && event.name === "browser" ? [event.content] : [],
    );
    // Not signed in: the account page sent the browser to the form.
    expect(texts[0]).toContain("http://account.tally.example/login");
    expect(texts[0]).toContain('textbox "User"');
    expect(texts[1]).toContain("Done 3 of 3 actions.");
    expect(texts[1]).toContain("http://account.tally.example/account");
    expect(texts[2]).toContain(
      '#report: "Tally usage this month: 1,284 invoices, 3 seats, plan Team."',
    );
  });

  it("a browser shot reaches LangChain as an image block in the ToolMessage", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><title>Shot</title><h1 style='color:red'>Shot</h1>");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const transport = createGuardedTransport({ allowHosts: [new URL(origin).host] });
    const browser = createBrowserTool({ transport });
    try {
      const tool = toLangChainTool(browser);
      const config = { configurable: { thread_id: "lc" } };
      await tool.invoke(
        {
          type: "tool_call",
          id: "1",
          name: "browser",
          args: { op: "navigate", url: `${origin}/` },
        },
        config,
      );
      const message = (await tool.invoke(
        { type: "tool_call", id: "2", name: "browser", args: { op: "shot" } },
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
      await browser.dispose();
      await transport.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
