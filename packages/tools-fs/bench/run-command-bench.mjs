// run_command start-up cost: the same tiny command through the tool in the bubblewrap sandbox,
// through the tool without it, and as a bare spawn. `pnpm bench run-command` (or, after
// npx tsc -p tsconfig.build.json: node bench/run-command-bench.mjs).
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bubblewrapStatus, createRunCommandTool } from "../dist/node/index.js";

const RUNS = 40;
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
  const samples = [];
  for (let i = 0; i < RUNS; i += 1) {
    const started = process.hrtime.bigint();
    await work();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  const p90 = samples[Math.floor(samples.length * 0.9)];
  console.log(
    `${label.padEnd(34)} median ${median.toFixed(2).padStart(7)} ms   p90 ${p90.toFixed(2).padStart(7)} ms`,
  );
  return median;
}

const status = bubblewrapStatus();
console.log(
  `bubblewrap: ${status.available ? status.path : `unavailable (${status.reason})`}; ${RUNS} runs each of \`true\``,
);
const baseline = await time("bare spawn", bare);
const host = createRunCommandTool({ root, allowedCommands: ["true"], sandbox: "none" });
const hostMedian = await time("run_command, sandbox: none", () => host.run({ command: ["true"] }));
if (status.available) {
  const boxed = createRunCommandTool({ root, allowedCommands: ["true"], sandbox: "bubblewrap" });
  const boxedMedian = await time("run_command, sandbox: bubblewrap", () =>
    boxed.run({ command: ["true"] }),
  );
  console.log(
    `sandbox start-up: +${(boxedMedian - hostMedian).toFixed(2)} ms over the unsandboxed tool, ${(boxedMedian / baseline).toFixed(1)}× a bare spawn`,
  );
}
console.log(
  `tool overhead without the sandbox: ${(hostMedian / baseline).toFixed(1)}× a bare spawn`,
);
await rm(root, { recursive: true, force: true });
