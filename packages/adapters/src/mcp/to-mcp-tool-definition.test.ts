import { defineTool, ok, toJsonSchema, toOutputJsonSchema } from "@agentool/contract";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contextTool, echoTool, searchTool } from "../test-fixtures.js";
import { toMcpAnnotations, toMcpTitle, toMcpToolDefinition } from "./to-mcp-tool-definition.js";

const countTool = defineTool({
  name: "count_items",
  description: "Counts items.",
  input: z.object({}),
  output: z.object({ count: z.number().int().describe("How many.") }),
  annotations: { title: "Count the items", readOnly: true, openWorld: false },
  execute: () => ok({ count: 1 }),
});

describe("toMcpToolDefinition", () => {
  it("builds an entry the SDK's Tool schema accepts, with the contract's schemas", () => {
    const definition = toMcpToolDefinition(searchTool);
    expect(ToolSchema.safeParse(definition).success).toBe(true);
    expect(definition).toEqual({
      name: "search_notes",
      title: "Search notes",
      description: searchTool.description,
      inputSchema: toJsonSchema(searchTool),
      annotations: { readOnlyHint: true, openWorldHint: false },
    });
  });

  it("lists outputSchema for a tool with output, unless outputSchemas is false or structuredContent is never", () => {
    expect(toMcpToolDefinition(countTool, { outputSchemas: false }).outputSchema).toBeUndefined();
    expect(toMcpToolDefinition(countTool).outputSchema).toEqual(toOutputJsonSchema(countTool));
    expect(toMcpToolDefinition(countTool, { structuredContent: "always" }).outputSchema).toEqual(
      toOutputJsonSchema(countTool),
    );
    expect(
      toMcpToolDefinition(countTool, { structuredContent: "never" }).outputSchema,
    ).toBeUndefined();
    expect(
      toMcpToolDefinition(echoTool, { structuredContent: "always" }).outputSchema,
    ).toBeUndefined();
  });

  it("refuses unknown options", () => {
    expect(() => toMcpToolDefinition(echoTool, { output: true } as never)).toThrow(
      /toMcpToolDefinition: invalid options/,
    );
  });
});

describe("toMcpAnnotations", () => {
  it("titles: the tool's title, or one made from its name, at the top level only", () => {
    expect(toMcpTitle(countTool)).toBe("Count the items");
    expect(toMcpTitle(contextTool)).toBe("Show context");
    expect(toMcpToolDefinition(countTool).title).toBe("Count the items");
    expect(toMcpAnnotations(countTool).title).toBeUndefined();
  });

  it("sends every meaningful hint (a missing flag is false, unlike MCP's defaults); read-only sends readOnlyHint and openWorldHint only", () => {
    expect(toMcpAnnotations(countTool)).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(toMcpAnnotations(contextTool)).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
    const writer = defineTool({
      name: "write_note",
      description: "Writes a note.",
      input: z.object({}),
      annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
      execute: () => ok({}),
    });
    expect(toMcpAnnotations(writer)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    const appender = defineTool({
      name: "append_note",
      description: "Appends to a note.",
      input: z.object({}),
      annotations: { destructive: false },
      execute: () => ok({}),
    });
    expect(toMcpAnnotations(appender)).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    });
  });
});
