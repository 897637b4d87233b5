import { defineTool, fail, ok } from "@agentool/contract";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { echoTool, PIXEL_PNG, readNoteTool, screenshotTool } from "../test-fixtures.js";
import { toMcpCallToolResult } from "./to-mcp-call-tool-result.js";

const countTool = defineTool({
  name: "count_items",
  description: "Counts items.",
  input: z.object({}),
  output: z.object({ count: z.number().int().describe("How many.") }),
  execute: () => ok({ count: 2 }),
  render: ({ count }) => `${count} items.`,
});

const plainTool = defineTool({
  name: "plain_data",
  description: "Returns data without a renderer.",
  input: z.object({}),
  execute: () => ok({ answer: 42 }),
});

const listTool = defineTool({
  name: "list_words",
  description: "Returns a list as data.",
  input: z.object({}),
  execute: () => ok(["a", "b"]),
  render: (words) => words.join(" "),
});

describe("toMcpCallToolResult", () => {
  it("turns rendered text into one text block", () => {
    const result = toMcpCallToolResult(echoTool, ok({ text: "hi" }));
    expect(result).toEqual({ content: [{ type: "text", text: "hi" }] });
    expect(CallToolResultSchema.safeParse(result).success).toBe(true);
  });

  it("turns blocks into text and image content", () => {
    const result = toMcpCallToolResult(screenshotTool, ok({ width: 1, height: 1 }));
    expect(result.content).toEqual([
      { type: "text", text: "Screenshot 1×1" },
      { type: "image", data: PIXEL_PNG, mimeType: "image/png" },
    ]);
    expect(CallToolResultSchema.safeParse(result).success).toBe(true);
  });

  it("declared (default): structuredContent only for tools with output", () => {
    expect(toMcpCallToolResult(countTool, ok({ count: 2 }))).toEqual({
      content: [{ type: "text", text: "2 items." }],
      structuredContent: { count: 2 },
    });
    expect(toMcpCallToolResult(echoTool, ok({ text: "hi" })).structuredContent).toBeUndefined();
  });

  it("always: structuredContent for object data, but not when the text already is its JSON", () => {
    const options = { structuredContent: "always" } as const;
    expect(toMcpCallToolResult(echoTool, ok({ text: "hi" }), options).structuredContent).toEqual({
      text: "hi",
    });
    expect(toMcpCallToolResult(plainTool, ok({ answer: 42 }), options)).toEqual({
      content: [{ type: "text", text: '{\n  "answer": 42\n}' }],
    });
    // MCP's structuredContent is an object: other data is left to the text.
    expect(toMcpCallToolResult(listTool, ok(["a", "b"]), options)).toEqual({
      content: [{ type: "text", text: "a b" }],
    });
  });

  it("never: no structuredContent, even for tools with output", () => {
    expect(
      toMcpCallToolResult(countTool, ok({ count: 2 }), { structuredContent: "never" }),
    ).toEqual({ content: [{ type: "text", text: "2 items." }] });
  });

  it("turns a failure into isError with the Error [CODE] text and hint, nothing else", () => {
    const result = toMcpCallToolResult(
      readNoteTool,
      fail("FILE_NOT_FOUND", "There is no note titled x.", { hint: "Call list_notes." }),
    );
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: "Error [FILE_NOT_FOUND]: There is no note titled x.\nHint: Call list_notes.",
        },
      ],
    });
    const declared = toMcpCallToolResult(countTool, fail("TIMEOUT", "Too slow."));
    expect(declared.structuredContent).toBeUndefined();
  });

  it("refuses unknown options", () => {
    expect(() => toMcpCallToolResult(echoTool, ok({ text: "x" }), { mode: 1 } as never)).toThrow(
      /toMcpCallToolResult: invalid options/,
    );
  });
});
