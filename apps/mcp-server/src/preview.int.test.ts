import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, expect, it } from "vitest";
import { requireBuiltCli, startStdioSession } from "./test-support/spawn-server.js";

beforeAll(requireBuiltCli);

it("--families preview serves preview over stdio; a shot arrives as MCP image content", async () => {
  const root = mkdtempSync(join(tmpdir(), "mcp-preview-"));
  writeFileSync(
    join(root, "red.html"),
    `<!doctype html><title>Red</title><canvas id="c" width="40" height="30"></canvas><script>const c = document.getElementById("c").getContext("2d"); c.fillStyle = "#f00"; c.fillRect(0, 0, 40, 30); console.log("drawn");</script>`,
  );
  const session = await startStdioSession(["--root", root, "--families", "preview"]);
  try {
    const names = (await session.client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["preview"]);
    const opened = (await session.client.callTool({
      name: "preview",
      arguments: { op: "open", path: "red.html" },
    })) as CallToolResult;
    expect(opened.isError).toBeFalsy();
    const openedText = opened.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join("\n");
    expect(openedText).toContain("Opened red.html");
    expect(openedText).toContain("[log] drawn");
    const shot = (await session.client.callTool({
      name: "preview",
      arguments: { op: "shot" },
    })) as CallToolResult;
    const image = shot.content.find((block) => block.type === "image");
    expect(image).toMatchObject({ type: "image", mimeType: "image/png" });
    expect(
      Buffer.from((image as { data: string }).data, "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    expect(
      shot.content.some((block) => block.type === "text" && block.text.includes("40×30 PNG")),
    ).toBe(true);
  } finally {
    await session.close();
  }
});
