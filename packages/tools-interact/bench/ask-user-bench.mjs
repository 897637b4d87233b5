// Overhead of ask_user / confirm around an answer that is already there (the handler resolves at
// once): validation, the wait with timer and abort wiring, trimming and capping. The issue sets no
// baseline; the figure to compare with is a bare `await handler.ask(question)` on the same machine.
// Each row times a batch of BENCH_ASK_BATCH calls (default 2,000) against a batch of bare
// handler.ask calls, interleaved batch by batch (bench/lib/discipline.mjs): rounds of 9 pairs until
// the ratio's spread is under 10%, refused while another process uses over 20% of a core
// (BENCH_ALLOW_LOAD=1 keeps such rounds, marked LOADED).
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";
import { createAskUserTool, createConfirmTool } from "../dist/index.js";

const handler = { ask: async (question) => (question.type === "confirm" ? true : "  Staging  ") };
const askUser = createAskUserTool({ handler });
const confirm = createConfirmTool({ handler });
const input = { question: "Where?", options: [{ label: "Staging" }, { label: "Production" }] };
const batch = Number(process.env.BENCH_ASK_BATCH ?? 2_000);

const repeat = (call) => async () => {
  for (let index = 0; index < batch; index++) await call();
};
const bare = repeat(() => handler.ask({ type: "ask_user", question: "Where?" }));
const microseconds = (milliseconds) =>
  `${((milliseconds * 1000) / batch).toFixed(2).padStart(8)} µs/call`;

async function measure(label, call) {
  const result = await measureRatio({ ours: repeat(call), baseline: bare });
  return { label, result };
}

console.log(`${benchHeader("ask_user / confirm overhead beside a bare handler.ask")}\n`);
const rows = [
  await measure("ask_user.run (2 options)", () => askUser.run(input)),
  await measure("confirm.run", () => confirm.run({ message: "Go?" })),
];
const long = "x".repeat(100_000);
const longTool = createAskUserTool({ handler: { ask: () => long } });
rows.push(
  await measure("ask_user.run (100,000-char answer, capped)", () =>
    longTool.run({ question: "?" }),
  ),
);
const measured = rows.find((row) => !row.result.refused);
console.log(
  `${"bare handler.ask (baseline)".padEnd(44)} ${measured ? microseconds(measured.result.baseline) : "—"}`,
);
for (const { label, result } of rows)
  console.log(
    `${label.padEnd(44)} ${result.refused ? "" : `${microseconds(result.ours)}   `}${formatRatio(result)} the bare call`,
  );
