// @agentool/contract/testing in the browser: the conformance check over a well-formed tool.
import { defineTool, ok, toOpenAiStrictSchema } from "@agentool/contract";
import { checkConformance, validateOpenAiStrictSchema } from "@agentool/contract/testing";
import { z } from "zod";

/**
 * Runs checkConformance and the OpenAI strict-schema rule on one tool.
 *
 * @returns the conformance report and the provider rule's problems
 */
export default async function run(): Promise<{ report: unknown; strictProblems: unknown }> {
  const echo = defineTool({
    name: "echo_text",
    description: "Returns the text it is given, unchanged. Use it to check the tool pipeline.",
    input: z.object({ text: z.string().describe("The text to return.") }),
    annotations: { readOnly: true, idempotent: true },
    execute: ({ text }) => ok({ text }),
  });
  return {
    report: await checkConformance([echo]),
    strictProblems: validateOpenAiStrictSchema(toOpenAiStrictSchema(echo)),
  };
}
