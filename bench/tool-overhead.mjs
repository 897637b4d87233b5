// Per-call overhead of the contract and of the LangChain adapter (issue 2, section 7).
//
// Section 1 — the contract: execute() called directly vs tool.run() (sync tool, async tool,
// async tool with a caller signal). Target: run() adds under 5 µs per call over execute().
// Section 2 — LangChain: toLangChainTool(tool).invoke() over tool.run(), side by side with
// LangChain's own tool() over a plain async function (the baseline the issue names).
// Target: the adapter adds no more than LangChain's tool() adds.
//
// Cases of a section run in interleaved batches (round-robin), so drift in machine load hits
// them alike; a figure is the median over batches. Run: pnpm bench (builds first).
import { toLangChainTool } from "@agentool/adapters/langchain";
import { defineTool, ok } from "@agentool/contract";
import { tool as langChainTool } from "@langchain/core/tools";
import { z } from "zod";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 41);
const input = { text: "hello", times: 2 };
const inputSchema = z.object({
  text: z.string().describe("Text to repeat."),
  times: z.number().int().min(1).max(10).optional().describe("How often."),
});
const definition = {
  name: "echo_text",
  description: "Repeats the text; a benchmark probe.",
  input: inputSchema,
  render: ({ text }) => text,
};
const syncEcho = defineTool({
  ...definition,
  execute: ({ text, times }) => ok({ text: text.repeat(times ?? 1) }),
});
// Most real tools are async: their run() also arms the timeout and watches the caller's signal.
const asyncEcho = defineTool({
  ...definition,
  execute: async ({ text, times }) => ok({ text: text.repeat(times ?? 1) }),
});
const context = {
  signal: new AbortController().signal,
  toolCallId: undefined,
  threadId: undefined,
  progress() {},
  metadata: {},
};
const callerSignal = new AbortController().signal;
const plainFunction = async ({ text, times }) => text.repeat(times ?? 1);
const adapted = toLangChainTool(asyncEcho);
const langChainBaseline = langChainTool(plainFunction, {
  name: "echo_text",
  description: "Repeats the text; a benchmark probe.",
  schema: inputSchema,
});

async function measure(cases, callsPerBatch) {
  for (const [, call] of cases) {
    for (let index = 0; index < callsPerBatch * 5; index += 1) await call();
  }
  const samples = new Map(cases.map(([label]) => [label, []]));
  for (let batch = 0; batch < BATCHES; batch += 1) {
    for (const [label, call] of cases) {
      const started = process.hrtime.bigint();
      for (let index = 0; index < callsPerBatch; index += 1) await call();
      samples.get(label).push(Number(process.hrtime.bigint() - started) / callsPerBatch);
    }
  }
  const medians = {};
  for (const [label, values] of samples) {
    const sorted = [...values].sort((a, b) => a - b);
    medians[label] = sorted[Math.floor(sorted.length / 2)];
  }
  return { medians, samples };
}

const format = (nanoseconds) => `${Math.round(nanoseconds).toLocaleString("en-US")} ns`;
const row = (label, value, verdict = "") =>
  console.log(`${label.padEnd(60)}${value.padStart(12)}  ${verdict}`);

console.log(`Node ${process.version}, ${BATCHES} interleaved batches per case, median per call\n`);

const contract = await measure(
  [
    ["execute() directly, sync tool", () => syncEcho.execute(input, context)],
    ["tool.run(), sync tool", () => syncEcho.run(input)],
    ["execute() directly, async tool", () => asyncEcho.execute(input, context)],
    ["tool.run(), async tool", () => asyncEcho.run(input)],
    [
      "tool.run(), async tool + caller signal",
      () => asyncEcho.run(input, { signal: callerSignal }),
    ],
  ],
  5_000,
);
console.log("1. the contract");
for (const [label, value] of Object.entries(contract.medians)) row(label, format(value));
const runOverheads = [
  ["run() over execute(), sync tool", "tool.run(), sync tool", "execute() directly, sync tool"],
  ["run() over execute(), async tool", "tool.run(), async tool", "execute() directly, async tool"],
  [
    "run() over execute(), async tool + caller signal",
    "tool.run(), async tool + caller signal",
    "execute() directly, async tool",
  ],
];
for (const [label, slow, fast] of runOverheads) {
  const overhead = contract.medians[slow] - contract.medians[fast];
  row(
    label,
    format(overhead),
    overhead < 5_000 ? "ok (target < 5,000 ns)" : "OVER TARGET (< 5,000 ns)",
  );
}

const langChain = await measure(
  [
    ["plain async function", () => plainFunction(input)],
    ["LangChain tool() over the plain function", () => langChainBaseline.invoke(input)],
    ["tool.run(), async tool", () => asyncEcho.run(input)],
    ["toLangChainTool(tool).invoke()", () => adapted.invoke(input)],
  ],
  1_000,
);
console.log("\n2. LangChain");
for (const [label, value] of Object.entries(langChain.medians)) row(label, format(value));
const baselineOverhead =
  langChain.medians["LangChain tool() over the plain function"] -
  langChain.medians["plain async function"];
const adapterOverhead =
  langChain.medians["toLangChainTool(tool).invoke()"] - langChain.medians["tool.run(), async tool"];
row("LangChain tool() over a plain function (baseline)", format(baselineOverhead));
row("adapter invoke() over tool.run()", format(adapterOverhead));
// The same ratio per batch (adjacent batches share the machine's state), to show the noise.
const baselineSamples = langChain.samples.get("LangChain tool() over the plain function");
const adapterSamples = langChain.samples.get("toLangChainTool(tool).invoke()");
const pairRatios = adapterSamples
  .map(
    (adapter, index) =>
      (adapter - langChain.medians["tool.run(), async tool"]) /
      (baselineSamples[index] - langChain.medians["plain async function"]),
  )
  .sort((a, b) => a - b);
const ratio = adapterOverhead / baselineOverhead;
const lowerQuartile = pairRatios[Math.floor(pairRatios.length / 4)];
const upperQuartile = pairRatios[Math.floor((pairRatios.length * 3) / 4)];
const verdict =
  ratio <= 1
    ? "ok (target ≤ 1)"
    : lowerQuartile <= 1
      ? "within noise of the target (1 is inside the interquartile range)"
      : "OVER TARGET (≤ 1)";
row("ratio adapter / baseline (of the medians above)", ratio.toFixed(2), verdict);
row(
  "  interquartile range of the per-batch ratios",
  `${lowerQuartile.toFixed(2)}–${upperQuartile.toFixed(2)}`,
);
