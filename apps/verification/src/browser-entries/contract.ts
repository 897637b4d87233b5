// @agentool/contract root in the browser: a tool defined with defineTool, called through run
// (valid input and a refused one), and its JSON Schema.
import { defineTool, ok, toJsonSchema } from "@agentool/contract";
import { z } from "zod";
import { type BrowserToolCall, callTool } from "./call-tool.js";

/**
 * Defines `add_numbers` and calls it twice.
 *
 * @returns `sum` (a success), `refused` (bad input) and the tool's `schema`
 */
export default async function run(): Promise<{
  sum: BrowserToolCall;
  refused: BrowserToolCall;
  schema: unknown;
}> {
  const addNumbers = defineTool({
    name: "add_numbers",
    description: "Adds two numbers.",
    input: z.object({ a: z.number(), b: z.number() }),
    annotations: { readOnly: true },
    execute: ({ a, b }) => ok({ sum: a + b }),
  });
  return {
    sum: await callTool(addNumbers, { a: 2, b: 40 }),
    refused: await callTool(addNumbers, { a: "two", b: 40 }),
    schema: toJsonSchema(addNumbers),
  };
}
