// Per-call overhead of the contract and of the LangChain adapter (issue 2, section 7).
//
// Section 1 — the contract: execute() called directly vs tool.run() (sync tool, async tool,
// async tool with a caller signal). Target: run() adds under 5 µs per call over execute().
// Section 2 — LangChain: toLangChainTool(tool).invoke() over tool.run(), side by side with
// LangChain's own tool() over a plain async function (the baseline the issue names).
// Target: the adapter adds no more than LangChain's tool() adds.
//
// Benchmark discipline (issue 29, bench/lib/discipline.mjs): each comparison interleaves a batch
// of one case with a batch of its baseline, BENCH_BATCHES pairs a round (default 15), rounds
// repeating until the ratio's spread is under 10%; a round during which another process used over
// 20% of a core is refused (BENCH_ALLOW_LOAD=1 keeps it, marked LOADED). Per-call figures are the
// medians of the last three rounds divided by the batch size. The LangChain target (adapter
// overhead ≤ LangChain's own) is decided on one in-run ratio: (adapter invoke + plain function) /
// (LangChain tool() + tool.run()), which is ≤ 1 exactly when the adapter adds no more.
// Run: pnpm bench (builds first).
import { toLangChainTool } from "@agentool/adapters/langchain";
import { defineTool, ok } from "@agentool/contract";
import { tool as langChainTool } from "@langchain/core/tools";
import { z } from "zod";
import { benchHeader, formatRatio, measureRatio } from "./lib/discipline.mjs";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 15);
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

/** `call` repeated `size` times, as one timed unit. */
const batchOf =
  (size, ...calls) =>
  async () => {
    for (let index = 0; index < size; index += 1) for (const call of calls) await call();
  };

/** Warms both sides, then times batches of `ours` against batches of `baseline`, in one run. */
async function compare(size, ours, baseline) {
  await batchOf(size * 5, ...ours)();
  await batchOf(size * 5, ...baseline)();
  const result = await measureRatio({
    ours: batchOf(size, ...ours),
    baseline: batchOf(size, ...baseline),
    callsPerRound: BATCHES,
  });
  // per call, nanoseconds
  const perCall = (milliseconds) => (milliseconds * 1e6) / size;
  return result.refused
    ? { result }
    : { result, ours: perCall(result.ours), baseline: perCall(result.baseline) };
}

const format = (nanoseconds) => `${Math.round(nanoseconds).toLocaleString("en-US")} ns`;
const row = (label, value, verdict = "") =>
  console.log(`${label.padEnd(60)}${value.padStart(12)}  ${verdict}`);

console.log(`${benchHeader("per-call overhead of the contract and the LangChain adapter")}\n`);
console.log(`${BATCHES} interleaved batch pairs a round, median per call\n`);

console.log("1. the contract: run() over execute()");
const contractCases = [
  ["sync tool", () => syncEcho.run(input), () => syncEcho.execute(input, context)],
  ["async tool", () => asyncEcho.run(input), () => asyncEcho.execute(input, context)],
  [
    "async tool + caller signal",
    () => asyncEcho.run(input, { signal: callerSignal }),
    () => asyncEcho.execute(input, context),
  ],
];
for (const [label, run, execute] of contractCases) {
  const measured = await compare(5_000, [run], [execute]);
  if (measured.result.refused) {
    row(`run() over execute(), ${label}`, "", formatRatio(measured.result));
    continue;
  }
  row(`execute() directly, ${label}`, format(measured.baseline));
  row(`tool.run(), ${label}`, format(measured.ours), formatRatio(measured.result));
  const overhead = measured.ours - measured.baseline;
  row(
    `run() over execute(), ${label}`,
    format(overhead),
    overhead < 5_000 ? "ok (target < 5,000 ns)" : "OVER TARGET (< 5,000 ns)",
  );
}

console.log("\n2. LangChain");
const plain = () => plainFunction(input);
const viaLangChain = () => langChainBaseline.invoke(input);
const viaRun = () => asyncEcho.run(input);
const viaAdapter = () => adapted.invoke(input);
const baselineSide = await compare(1_000, [viaLangChain], [plain]);
const adapterSide = await compare(1_000, [viaAdapter], [viaRun]);
if (!baselineSide.result.refused) {
  row("plain async function", format(baselineSide.baseline));
  row("LangChain tool() over the plain function", format(baselineSide.ours));
  row(
    "LangChain tool() over a plain function (baseline)",
    format(baselineSide.ours - baselineSide.baseline),
    formatRatio(baselineSide.result),
  );
} else
  row("LangChain tool() over a plain function (baseline)", "", formatRatio(baselineSide.result));
if (!adapterSide.result.refused) {
  row("tool.run(), async tool", format(adapterSide.baseline));
  row("toLangChainTool(tool).invoke()", format(adapterSide.ours));
  row(
    "adapter invoke() over tool.run()",
    format(adapterSide.ours - adapterSide.baseline),
    formatRatio(adapterSide.result),
  );
} else row("adapter invoke() over tool.run()", "", formatRatio(adapterSide.result));
if (!baselineSide.result.refused && !adapterSide.result.refused) {
  const overheadRatio =
    (adapterSide.ours - adapterSide.baseline) / (baselineSide.ours - baselineSide.baseline);
  row("ratio adapter / baseline overhead (two runs, for reading)", overheadRatio.toFixed(2));
}
// The target in one run: (adapter + plain) / (LangChain tool() + run()) ≤ 1 ⟺ the adapter's
// overhead over run() ≤ LangChain tool()'s overhead over the plain function.
const balanced = await compare(1_000, [viaAdapter, plain], [viaLangChain, viaRun]);
const verdict = balanced.result.refused
  ? ""
  : balanced.result.ratio <= 1
    ? "ok (target ≤ 1)"
    : balanced.result.ratioMin <= 1
      ? "within noise of the target (1 is inside the min–max)"
      : "OVER TARGET (≤ 1)";
row(
  "(adapter + plain) / (LangChain tool() + run()), one run",
  balanced.result.refused ? "" : balanced.result.ratio.toFixed(3),
  `${formatRatio(balanced.result)} ${verdict}`,
);
