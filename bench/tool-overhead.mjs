// Per-call overhead of the contract and the LangChain adapter.
// Prints, side by side: execute() directly, tool.run(), the adapter's invoke(), a plain async
// function, and LangChain's own tool() over that plain function (the baseline the issue names).
// Run: pnpm bench   (builds first; needs nothing else)
import { toLangChainTool } from "@agentool/adapters/langchain";
import { defineTool, ok } from "@agentool/contract";
import { tool as langChainTool } from "@langchain/core/tools";
import { z } from "zod";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 30);
const input = { text: "hello", times: 2 };

const inputSchema = z.object({
  text: z.string().describe("Text to repeat."),
  times: z.number().int().min(1).max(10).optional().describe("How often."),
});
const echo = defineTool({
  name: "echo_text",
  description: "Repeats the text; a benchmark probe.",
  input: inputSchema,
  execute: ({ text, times }) => ok({ text: text.repeat(times ?? 1) }),
  render: ({ text }) => text,
});
const context = {
  signal: new AbortController().signal,
  toolCallId: undefined,
  threadId: undefined,
  progress() {},
  metadata: {},
};
const plainFunction = async ({ text, times }) => text.repeat(times ?? 1);
const adapted = toLangChainTool(echo);
const langChainBaseline = langChainTool(plainFunction, {
  name: "echo_text",
  description: "Repeats the text; a benchmark probe.",
  schema: inputSchema,
});

const cases = [
  ["execute() directly", () => echo.execute(inputSchema.parse(input), context), 200_000],
  ["tool.run()", () => echo.run(input), 100_000],
  ["plain async function", () => plainFunction(input), 200_000],
  ["LangChain tool() over the plain function", () => langChainBaseline.invoke(input), 5_000],
  ["toLangChainTool(tool).invoke()", () => adapted.invoke(input), 5_000],
];

async function measure(call, callsPerBatch) {
  for (let index = 0; index < Math.min(callsPerBatch, 2_000); index += 1) await call();
  const perCall = [];
  for (let batch = 0; batch < BATCHES; batch += 1) {
    globalThis.gc?.();
    const started = process.hrtime.bigint();
    for (let index = 0; index < callsPerBatch; index += 1) await call();
    perCall.push(Number(process.hrtime.bigint() - started) / callsPerBatch);
  }
  perCall.sort((a, b) => a - b);
  return perCall[Math.floor(perCall.length / 2)];
}

const medians = {};
for (const [label, call, callsPerBatch] of cases) {
  medians[label] = await measure(call, Math.max(200, Math.floor(callsPerBatch / BATCHES)));
}

const format = (nanoseconds) => `${Math.round(nanoseconds).toLocaleString("en-US")} ns`;
console.log(`Node ${process.version}, ${BATCHES} batches, median ns per call\n`);
console.log(`${"path".padEnd(44)}${"median".padStart(14)}`);
for (const [label] of cases)
  console.log(`${label.padEnd(44)}${format(medians[label]).padStart(14)}`);

const runOverhead = medians["tool.run()"] - medians["execute() directly"];
const adapterOverhead = medians["toLangChainTool(tool).invoke()"] - medians["tool.run()"];
const langChainOverhead =
  medians["LangChain tool() over the plain function"] - medians["plain async function"];
console.log("\noverheads");
console.log(
  `${"run() over execute() (target < 5,000 ns)".padEnd(58)}${format(runOverhead).padStart(14)}  ${runOverhead < 5_000 ? "ok" : "OVER TARGET"}`,
);
console.log(`${"adapter invoke() over run()".padEnd(58)}${format(adapterOverhead).padStart(14)}`);
console.log(
  `${"LangChain tool() over a plain function (baseline)".padEnd(58)}${format(langChainOverhead).padStart(14)}`,
);
const ratio = adapterOverhead / langChainOverhead;
console.log(
  `${"ratio adapter / LangChain baseline (target ≤ 1.00)".padEnd(58)}${ratio.toFixed(2).padStart(14)}  ${ratio <= 1 ? "ok" : "OVER TARGET"}`,
);
console.log(
  `${"ratio run() / execute()".padEnd(58)}${(medians["tool.run()"] / medians["execute() directly"]).toFixed(2).padStart(14)}`,
);
