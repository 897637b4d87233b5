// @agentool/adapters/anthropic in the browser: tools as Anthropic tool definitions, and a
// model's tool_use blocks dispatched to them.
import { createAnthropicToolDispatcher, toAnthropicTools } from "@agentool/adapters/anthropic";
import { createCoreTools } from "@agentool/tools-core";

/**
 * Converts the core tools and dispatches a `think` tool_use block.
 *
 * @returns the tool names offered and the dispatcher's answers
 */
export default async function run(): Promise<{ offered: string[]; answers: unknown[] }> {
  const tools = createCoreTools();
  const answers = await createAnthropicToolDispatcher(tools).dispatchAll([
    { type: "tool_use", id: "toolu_1", name: "think", input: { thought: "Plan before acting." } },
  ]);
  return { offered: toAnthropicTools(tools).map((tool) => tool.name), answers };
}
