import { type CallToolResult, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { expect } from "vitest";
import { parseCommandLine, UsageError } from "../command-line.js";
import type { StdioSession } from "./spawn-server.js";

/**
 * The text blocks of a tool result, one per line (other blocks as empty lines).
 *
 * @param result - a `tools/call` result
 * @returns its text
 */
export function resultText(result: unknown): string {
  return (result as CallToolResult).content
    .map((block) => (block.type === "text" ? block.text : ""))
    .join("\n");
}

/**
 * The blocks of a tool result, one per line: text as is, any other block as `[<type>]`.
 *
 * @param result - a `tools/call` result
 * @returns its text with markers
 */
export function resultTextWithMarkers(result: CallToolResult): string {
  return result.content
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join("\n");
}

/**
 * Calls a tool over a stdio session and checks the result's shape.
 *
 * @param session - the session
 * @param name - the tool
 * @param args - its arguments
 * @returns the result
 */
export async function callTool(
  session: StdioSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return CallToolResultSchema.parse(
    await session.client.callTool({ name, arguments: args }),
  ) as CallToolResult;
}

/**
 * A `SKILL.md` with front matter.
 *
 * @param name - the skill's name
 * @param description - its description
 * @param body - the text after the front matter
 * @returns the file's content
 */
export function skillFile(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}`;
}

/**
 * The message of the {@link UsageError} a command line is refused with (fails the test when it
 * is accepted).
 *
 * @param argv - the command line
 * @returns the message
 */
export function usageError(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}
