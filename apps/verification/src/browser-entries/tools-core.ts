// @agentool/tools-core root in the browser: think and update_plan from createCoreTools.
import { createCoreTools } from "@agentool/tools-core";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";

/**
 * Records a thought and sets a three-step plan.
 *
 * @returns the calls: `think`, `plan`
 */
export default async function run(): Promise<Record<string, BrowserToolCall>> {
  const tools = createCoreTools();
  return {
    think: await callTool(findTool(tools, "think"), {
      thought: "The page has no file system of its own; use the memory one.",
    }),
    plan: await callTool(findTool(tools, "update_plan"), {
      plan: [
        { step: "Read the notes", status: "completed" },
        { step: "Fix the typo", status: "in_progress" },
        { step: "Search for TODOs", status: "pending" },
      ],
    }),
  };
}
