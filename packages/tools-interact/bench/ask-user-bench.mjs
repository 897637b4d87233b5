// Overhead of ask_user / confirm around an answer that is already there (the handler resolves at
// once): validation, the wait with timer and abort wiring, trimming and capping. The issue sets no
// baseline; the figure to compare with is a bare `await handler.ask(question)` on the same machine.
import { createAskUserTool, createConfirmTool } from "../dist/index.js";

const handler = { ask: async (question) => (question.type === "confirm" ? true : "  Staging  ") };
const askUser = createAskUserTool({ handler });
const confirm = createConfirmTool({ handler });
const input = { question: "Where?", options: [{ label: "Staging" }, { label: "Production" }] };
const iterations = 20_000;

async function measure(label, call) {
  for (let index = 0; index < 1_000; index++) await call();
  const started = performance.now();
  for (let index = 0; index < iterations; index++) await call();
  const perCall = ((performance.now() - started) * 1000) / iterations;
  return { label, perCall };
}

const rows = [
  await measure("bare handler.ask (baseline)", () =>
    handler.ask({ type: "ask_user", question: "Where?" }),
  ),
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
for (const row of rows)
  console.log(`${row.label.padEnd(44)} ${row.perCall.toFixed(2).padStart(8)} µs/call`);
