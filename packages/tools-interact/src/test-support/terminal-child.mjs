// Runs in a child process: asks the questions given as JSON in argv[2] through the terminal
// handler (stdin/stdout), then prints `RESULT <json>` on stderr. The handler is not closed, so
// the process exits only if the handler does not keep it alive.
import { createInteractTools } from "../../dist/index.js";
import { createTerminalHandler } from "../../dist/node/index.js";

const { questions, abortAfterMs, viaTools } = JSON.parse(process.argv[2] ?? "{}");
const handler = createTerminalHandler();
const results = [];
if (viaTools) {
  const tools = createInteractTools({ handler });
  for (const { tool, input } of questions) {
    const found = tools.find((candidate) => candidate.name === tool);
    const result = await found.run(input);
    results.push({ result, rendered: found.renderResult(result) });
  }
} else {
  for (const question of questions) {
    const controller = new AbortController();
    if (abortAfterMs !== undefined) setTimeout(() => controller.abort(), abortAfterMs);
    const answer = await handler.ask(question, {
      signal: controller.signal,
      toolCallId: undefined,
      threadId: undefined,
      timeoutMs: 0,
    });
    results.push(answer === undefined ? null : answer);
  }
  handler.notify({ type: "notify", message: "all asked", level: "info" }, {});
}
process.stderr.write(`RESULT ${JSON.stringify(results)}\n`);
