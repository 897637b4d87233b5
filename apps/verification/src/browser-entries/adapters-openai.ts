// @agentool/adapters/openai in the browser: tools as OpenAI function tools, and a model's tool
// calls (Chat Completions and Responses shapes) dispatched to them.
import { createOpenAiToolDispatcher, toOpenAiTools } from "@agentool/adapters/openai";
import { createCoreTools } from "@agentool/tools-core";

/**
 * Converts the core tools and dispatches a `think` call in both API shapes.
 *
 * @returns the tool names offered, the chat answer and the responses answer
 */
export default async function run(): Promise<{
  offered: string[];
  chat: unknown;
  responses: unknown;
}> {
  const tools = createCoreTools();
  const dispatcher = createOpenAiToolDispatcher(tools);
  const chat = await dispatcher.dispatch({
    id: "call_1",
    type: "function",
    function: { name: "think", arguments: JSON.stringify({ thought: "Plan before acting." }) },
  });
  const responses = await dispatcher.dispatch({
    type: "function_call",
    call_id: "call_2",
    name: "update_plan",
    arguments: JSON.stringify({ plan: [{ step: "Answer the user", status: "in_progress" }] }),
  });
  return {
    offered: toOpenAiTools(tools).map((tool) => tool.function.name),
    chat,
    responses,
  };
}
