// run_command start-up cost: the same tiny command through the tool in the bubblewrap sandbox,
// through the tool without it, and as a bare spawn. `pnpm bench run-command` (or, after
// npx tsc -p tsconfig.build.json: node bench/run-command-bench.mjs).
// Median/p90 lines are BENCH_RUN_RUNS calls (default 40) each, refused when another process used
// over 20% of a core meanwhile; the ratios interleave the tool and the bare spawn call by call
// (bench/lib/discipline.mjs), rounds repeating until their spread is under 10%.
// BENCH_ALLOW_LOAD=1 keeps loaded rounds, marked LOADED.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ALLOW_LOAD,
  benchHeader,
  describeLoad,
  formatRatio,
  LOAD_THRESHOLD as LOAD_LIMIT,
  measureRatio,
  startLoadWatch,
} from "../../../bench/lib/discipline.mjs";
import { bubblewrapStatus, createRunCommandTool } from "../dist/node/index.js";

const RUNS = Number(process.env.BENCH_RUN_RUNS ?? 40);
console.log(`${benchHeader("run_command start-up beside a bare spawn")}\n`);
const root = await mkdtemp(join(tmpdir(), "agentool-run-bench-"));
// A small project: 200 files in 20 directories, two secret files to hide.
for (let d = 0; d < 20; d += 1) {
  await mkdir(join(root, `dir${d}`));
  for (let f = 0; f < 10; f += 1) await writeFile(join(root, `dir${d}`, `f${f}.txt`), "x\n");
}
await writeFile(join(root, ".env"), "KEY=1\n");
await writeFile(join(root, "dir3", "server.pem"), "x\n");

function bare() {
  return new Promise((resolve, reject) => {
    const child = spawn("true", [], { cwd: root, stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", resolve);
  });
}

async function time(label, work) {
  await work();
  const watch = startLoadWatch();
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  const load = watch.stop();
  if (load.share > LOAD_LIMIT && !ALLOW_LOAD) {
    console.log(`${label.padEnd(34)} REFUSED: machine busy — ${describeLoad(load)}`);
    return;
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const p90 = samples[Math.floor(samples.length * 0.9)];
  console.log(
    `${label.padEnd(34)} median ${median.toFixed(2).padStart(7)} ms   p90 ${p90.toFixed(2).padStart(7)} ms${load.share > LOAD_LIMIT ? ` LOADED: ${describeLoad(load)}` : ""}`,
  );
}

const status = bubblewrapStatus();
console.log(
  `bubblewrap: ${status.available ? status.path : `unavailable (${status.reason})`}; ${RUNS} runs each of \`true\``,
);
await time("bare spawn", bare);
const host = createRunCommandTool({ root, allowedCommands: ["true"], sandbox: "none" });
const runHost = () => host.run({ command: ["true"] });
await time("run_command, sandbox: none", runHost);
const ratio = (ours) => measureRatio({ ours, baseline: bare, callsPerRound: Math.min(RUNS, 15) });
const hostRatio = await ratio(runHost);
if (status.available) {
  const boxed = createRunCommandTool({ root, allowedCommands: ["true"], sandbox: "bubblewrap" });
  const runBoxed = () => boxed.run({ command: ["true"] });
  await time("run_command, sandbox: bubblewrap", runBoxed);
  const boxedRatio = await ratio(runBoxed);
  const versusHost = await measureRatio({
    ours: runBoxed,
    baseline: runHost,
    callsPerRound: Math.min(RUNS, 15),
  });
  console.log(
    `sandbox start-up: ${versusHost.refused ? formatRatio(versusHost) : `+${(versusHost.ours - versusHost.baseline).toFixed(2)} ms over the unsandboxed tool (${formatRatio(versusHost)})`}, ${formatRatio(boxedRatio)} a bare spawn`,
  );
}
console.log(`tool overhead without the sandbox: ${formatRatio(hostRatio)} a bare spawn`);
await rm(root, { recursive: true, force: true });
