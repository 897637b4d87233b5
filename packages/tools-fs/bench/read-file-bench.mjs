// read_file on a generated 1 GiB file: a page from the middle and from the end, first call
// (one streamed pass builds the sparse line index and the sha) and repeated calls (index reused),
// with peak RSS growth, versus `sed -n 'N,Mp'` on the same file.
//
// Run: npx tsc -p tsconfig.build.json && node --expose-gc bench/read-file-bench.mjs [size-in-MiB]
import { execFile } from "node:child_process";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { createNodeFileSystem } from "../dist/node/node-file-system.js";
import { createReadFileTool } from "../dist/read-file.js";
import { createWorkspace } from "../dist/workspace.js";

const run = promisify(execFile);
const sizeMiB = Number(process.argv[2] ?? 1024);
const size = sizeMiB * 1_048_576;
const LINE_BYTES = 64;
const PAGE = 100;

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

async function measure(work) {
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
  const readFile = createReadFileTool({
    workspace: createWorkspace({ fileSystem: createNodeFileSystem({ root }) }),
  });
  const page = (offset) => async () => {
    const result = await readFile.run({ path: "huge.log", offset, limit: PAGE });
    if (!result.success) throw new Error(result.error.message);
    check(result.data, offset);
    return result.data;
  };
  const rows = [];
  const add = (label, measured, baseline) =>
    rows.push({
      case: label,
      "read_file ms": measured.milliseconds.toFixed(1),
      "peak RSS growth MiB": measured.rssGrowthMiB.toFixed(1),
      "sed -n 'N,Mp' ms": baseline.milliseconds.toFixed(1),
      ratio: (measured.milliseconds / baseline.milliseconds).toFixed(2),
    });
  const sedMiddle = await sed(file, middle, middle + PAGE - 1);
  const sedEnd = await sed(file, end, totalLines);
  add(
    `middle (line ${middle}), first call: lines counted up to it, no sha`,
    await measure(page(middle)),
    sedMiddle,
  );
  add(`end (line ${end}), the scan goes on from the middle`, await measure(page(end)), sedEnd);
  add(
    "middle again, index reused",
    await measure(page(middle)),
    await sed(file, middle, middle + PAGE - 1),
  );
  add("end again, index reused", await measure(page(end)), await sed(file, end, totalLines));
  const cold = createReadFileTool({
    workspace: createWorkspace({ fileSystem: createNodeFileSystem({ root }) }),
  });
  add(
    "end, first call on a fresh tool",
    await measure(async () => {
      const result = await cold.run({ path: "huge.log", offset: end, limit: PAGE });
      if (!result.success) throw new Error(result.error.message);
      return result.data;
    }),
    sedEnd,
  );
  console.table(rows);
  const quit = await sedQuit(file, middle, middle + PAGE - 1);
  console.log(
    `for reference: sed -n '${middle},${middle + PAGE - 1}p;${middle + PAGE - 1}q' (stops early) ${quit.milliseconds.toFixed(1)} ms`,
  );
  const worst = Math.max(...rows.map((row) => Number(row["peak RSS growth MiB"])));
  console.log(
    `peak RSS growth ${worst.toFixed(1)} MiB (target < 64 MiB): ${worst < 64 ? "PASS" : "FAIL"}`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
