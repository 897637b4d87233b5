// read_file on a generated 1 GiB file: a page from the middle and from the end, first call
// (one streamed pass builds the sparse line index and the sha) and repeated calls (index reused),
// with peak RSS growth, versus `sed -n 'N,Mp'` on the same file.
// Each row interleaves read_file and sed call by call (bench/lib/discipline.mjs): rounds of
// BENCH_READ_RUNS pairs (default 3) until the ratio's spread is under 10%, refused while another
// process uses over 20% of a core (BENCH_ALLOW_LOAD=1 keeps such rounds, marked LOADED). "first
// call" rows build a fresh tool (untimed) before each timed call. Peak RSS growth is one more call,
// watched the same way.
//
// Run: npx tsc -p tsconfig.build.json && node --expose-gc bench/read-file-bench.mjs [size-in-MiB]
import { execFile } from "node:child_process";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  ALLOW_LOAD,
  benchHeader,
  describeLoad,
  formatRatio,
  LOAD_THRESHOLD as LOAD_LIMIT,
  measureRatio,
  startLoadWatch,
} from "../../../bench/lib/discipline.mjs";
import { createNodeFileSystem } from "../dist/node/node-file-system.js";
import { createReadFileTool } from "../dist/read-file.js";
import { createWorkspace } from "../dist/workspace.js";

const run = promisify(execFile);
const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * 1_048_576;
const LINE_BYTES = 64;
const PAGE = 100;
const RUNS = Number(process.env.BENCH_READ_RUNS ?? 3);

/** Fixed-width numbered lines (64 bytes each), written in 1 MiB chunks. */
async function writeNumberedFile(path, bytes) {
  const linesPerChunk = 16_384;
  const template = new TextEncoder().encode(
    "L0000000000 the quick brown fox jumps over the lazy dog 0123456\n",
  );
  const chunk = new Uint8Array(LINE_BYTES * linesPerChunk);
  for (let line = 0; line < linesPerChunk; line += 1) chunk.set(template, line * LINE_BYTES);
  const handle = await open(path, "w");
  let line = 1;
  try {
    for (let written = 0; written < bytes; written += chunk.length) {
      for (let index = 0; index < linesPerChunk; index += 1) {
        let number = line + index;
        for (let digit = 10; digit >= 1; digit -= 1) {
          chunk[index * LINE_BYTES + digit] = 48 + (number % 10);
          number = Math.floor(number / 10);
        }
      }
      await handle.write(chunk, 0, Math.min(chunk.length, bytes - written));
      line += linesPerChunk;
    }
  } finally {
    await handle.close();
  }
  return bytes / LINE_BYTES;
}

/** Peak RSS growth over one call, refused when another process was busy meanwhile. */
async function measure(work) {
  const watch = startLoadWatch();
  const measured = await measureOnce(work);
  const load = watch.stop();
  if (load.share <= LOAD_LIMIT) return `${measured.rssGrowthMiB.toFixed(1)}`;
  if (!ALLOW_LOAD) return { refused: `REFUSED: machine busy — ${describeLoad(load)}` };
  return `${measured.rssGrowthMiB.toFixed(1)} LOADED: ${describeLoad(load)}`;
}

async function measureOnce(work) {
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 2);
  const started = performance.now();
  const result = await work();
  const milliseconds = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { result, milliseconds, rssGrowthMiB: (peak - baseline) / 1_048_576 };
}

async function sed(path, from, to) {
  const started = performance.now();
  const { stdout } = await run("sed", ["-n", `${from},${to}p`, path], { maxBuffer: 1 << 26 });
  return { milliseconds: performance.now() - started, lines: stdout.split("\n").length - 1 };
}

async function sedQuit(path, from, to) {
  const started = performance.now();
  const { stdout } = await run("sed", ["-n", `${from},${to}p;${to}q`, path], {
    maxBuffer: 1 << 26,
  });
  return { milliseconds: performance.now() - started, lines: stdout.split("\n").length - 1 };
}

const root = await mkdtemp(join(tmpdir(), "agentool-read-bench-"));
try {
  console.log(`${benchHeader("read_file on a huge file beside sed")}\n`);
  const file = join(root, "huge.log");
  const started = performance.now();
  const totalLines = await writeNumberedFile(file, size);
  console.log(
    `generated ${sizeMiB} MiB, ${totalLines.toLocaleString("en-US")} lines in ${(performance.now() - started).toFixed(0)} ms`,
  );
  const middle = Math.floor(totalLines / 2);
  const end = totalLines - PAGE + 1;
  const check = (data, offset) => {
    const first = data.content.split("\n")[0] ?? "";
    if (!first.includes(`L${String(offset).padStart(10, "0")}`))
      throw new Error(`wrong page at ${offset}: ${first}`);
  };
  const freshTool = () =>
    createReadFileTool({
      workspace: createWorkspace({ fileSystem: createNodeFileSystem({ root }) }),
    });
  const readFile = freshTool();
  const page =
    (offset, tool = readFile) =>
    async () => {
      const result = await tool.run({ path: "huge.log", offset, limit: PAGE });
      if (!result.success) throw new Error(result.error.message);
      check(result.data, offset);
      return result.data;
    };
  const rows = [];
  const memory = [];
  /** One row: `prepare` gives the timed read_file call; `baseline` is the sed call. */
  const add = async (label, prepare, baseline) => {
    const result = await measureRatio({ ours: undefined, prepare, baseline, callsPerRound: RUNS });
    const growth = await measure(await prepare());
    if (typeof growth !== "string") memory.push(growth.refused);
    rows.push({
      case: label,
      "read_file ms": result.refused ? "—" : result.ours.toFixed(1),
      "peak RSS growth MiB": typeof growth === "string" ? growth : growth.refused,
      "sed -n 'N,Mp' ms": result.refused ? "—" : result.baseline.toFixed(1),
      "ratio (min–max)": formatRatio(result),
    });
  };
  const sedMiddle = () => sed(file, middle, middle + PAGE - 1);
  const sedEnd = () => sed(file, end, totalLines);
  await add(
    `middle (line ${middle}), first call: lines counted up to it, no sha`,
    () => page(middle, freshTool()),
    sedMiddle,
  );
  await add(
    `end (line ${end}), the scan goes on from the middle`,
    async () => {
      const tool = freshTool();
      await page(middle, tool)();
      return page(end, tool);
    },
    sedEnd,
  );
  await page(middle)();
  await page(end)();
  await add("middle again, index reused", () => page(middle), sedMiddle);
  await add("end again, index reused", () => page(end), sedEnd);
  await add("end, first call on a fresh tool", () => page(end, freshTool()), sedEnd);
  console.table(rows);
  const quitWatch = startLoadWatch();
  const quit = await sedQuit(file, middle, middle + PAGE - 1);
  const quitLoad = quitWatch.stop();
  const quitBusy = quitLoad.share > LOAD_LIMIT;
  console.log(
    `for reference: sed -n '${middle},${middle + PAGE - 1}p;${middle + PAGE - 1}q' (stops early) ${quitBusy && !ALLOW_LOAD ? `REFUSED: machine busy — ${describeLoad(quitLoad)}` : `${quit.milliseconds.toFixed(1)} ms${quitBusy ? ` LOADED: ${describeLoad(quitLoad)}` : ""}`}`,
  );
  const measuredGrowth = rows
    .map((row) => Number.parseFloat(row["peak RSS growth MiB"]))
    .filter((value) => Number.isFinite(value));
  const worst = Math.max(...measuredGrowth);
  console.log(
    memory.length > 0
      ? `peak RSS growth: ${memory.length} row(s) refused (machine busy); worst measured ${worst.toFixed(1)} MiB`
      : `peak RSS growth ${worst.toFixed(1)} MiB (target < 64 MiB): ${worst < 64 ? "PASS" : "FAIL"}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
