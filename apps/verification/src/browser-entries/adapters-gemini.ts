// @agentool/adapters/gemini in the browser: tools as Gemini function declarations, and a model's
// function calls dispatched to them.
import { createGeminiToolDispatcher, toGeminiTools } from "@agentool/adapters/gemini";
import { createCoreTools } from "@agentool/tools-core";

/**
 * Converts the core tools and dispatches an `update_plan` function call.
 *
 * @returns the tool names offered and the dispatcher's answers
 */
export default async function run(): Promise<{ offered: string[]; answers: unknown[] }> {
  const tools = createCoreTools();
  const answers = await createGeminiToolDispatcher(tools).dispatchAll([
    {
      id: "call_1",
      name: "update_plan",
      args: { plan: [{ step: "Answer the user", status: "in_progress" }] },
    },
  ]);
  return {
    offered: toGeminiTools(tools).functionDeclarations.map((declaration) => declaration.name),
    answers,
  };
}
