// @agentool/tools-interact root in the browser: ask_user, confirm and notify answered by a host
// handler (a page would show a dialog; this one answers at once and keeps what it was asked).
import { createInteractTools, type UserQuestion } from "@agentool/tools-interact";
import { type BrowserToolCall, callTool, findTool } from "./call-tool.js";

/**
 * Asks a question with options, asks for a confirmation and sends a notification.
 *
 * @returns the calls (`ask`, `confirm`, `notify`) and what the handler received (`asked`, `notified`)
 */
export default async function run(): Promise<{
  calls: Record<string, BrowserToolCall>;
  asked: UserQuestion[];
  notified: string[];
}> {
  const asked: UserQuestion[] = [];
  const notified: string[] = [];
  const tools = createInteractTools({
    handler: {
      ask: (question) => {
        asked.push(question);
        return question.type === "ask_user" ? "Blue" : true;
      },
      notify: (notification) => {
        notified.push(`${notification.level}: ${notification.message}`);
      },
    },
  });
  const calls = {
    ask: await callTool(findTool(tools, "ask_user"), {
      question: "Which colour should the button be?",
      options: [{ label: "Blue" }, { label: "Green", description: "Matches the logo" }],
    }),
    confirm: await callTool(findTool(tools, "confirm"), { message: "Delete the draft?" }),
    notify: await callTool(findTool(tools, "notify"), { message: "Build finished" }),
  };
  return { calls, asked, notified };
}
