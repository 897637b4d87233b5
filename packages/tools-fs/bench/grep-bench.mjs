// grep_search (ripgrep engine) versus the raw `rg` command on a generated ≥100 MB tree.
// Each row interleaves the tool and raw rg call by call (bench/lib/discipline.mjs): rounds of
// BENCH_GREP_RUNS pairs (default 5) until the ratio's spread is under 10%, refused while another
// process uses over 20% of a core (BENCH_ALLOW_LOAD=1 keeps such rounds, marked LOADED).
// BENCH_GREP_DIRECTORIES (default 40, 50 files of 55 kB each) shrinks the tree for a quick check.
// Build first: npx tsc -p tsconfig.build.json — then: node bench/grep-bench.mjs
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";
import { createGrepSearchTool } from "../dist/grep-search.js";
import { createNodeFileSystem } from "../dist/node/node-file-system.js";
import { createRipgrepSearcher } from "../dist/node/ripgrep/index.js";
import { createWorkspace } from "../dist/workspace.js";

const DIRECTORIES = Number(process.env.BENCH_GREP_DIRECTORIES ?? 40);
const FILES_PER_DIRECTORY = 50;
const FILE_BYTES = 55_000; // 2,000 files × 55 kB ≈ 110 MB
const RUNS = Number(process.env.BENCH_GREP_RUNS ?? 5);

function fileText(index) {
  const words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"];
  const lines = [];
  let size = 0;
  let line = 0;
  while (size < FILE_BYTES) {
    const text = `${words[(index + line) % words.length]} ${line} the quick brown fox jumps over the lazy dog ${index}`;
    lines.push(index % 97 === 0 && line === 300 ? `${text} NEEDLE_${index}` : text);
    size += text.length + 1;
    line += 1;
  }
  return `${lines.join("\n")}\n`;
}

async function generate(root) {
  let bytes = 0;
  for (let directory = 0; directory < DIRECTORIES; directory += 1) {
    await mkdir(join(root, `dir${directory}`), { recursive: true });
    await Promise.all(
      Array.from({ length: FILES_PER_DIRECTORY }, (_, file) => {
        const text = fileText(directory * FILES_PER_DIRECTORY + file);
        bytes += text.length;
        return writeFile(join(root, `dir${directory}`, `file${file}.txt`), text);
      }),
    );
  }
  return bytes;
}

function rawRg(root, pattern, extra = []) {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ["--no-config", ...extra, "-e", pattern, "--", "."], {
      cwd: root,
      stdio: ["ignore", "pipe", "ignore"],
    });
    let bytes = 0;
    child.stdout.on("data", (chunk) => {
      bytes += chunk.length;
    });
    child.on("error", reject);
    child.on("close", () => resolve(bytes));
  });
}

/** Times the tool (`ours`) against raw rg (`baseline`), interleaved, in one run. */
function compare(ours, baseline) {
  return measureRatio({ ours, baseline, callsPerRound: RUNS, minRounds: 3, maxRounds: 8 });
}

const root = await mkdtemp(join(tmpdir(), "agentool-grep-bench-"));
try {
  const bytes = await generate(root);
  const workspace = createWorkspace({ fileSystem: createNodeFileSystem({ root }) });
  const tool = createGrepSearchTool({ workspace, searcher: createRipgrepSearcher({ root }) });
  const grep = async (input) => {
    const result = await tool.run(input, { timeoutMs: 0 });
    if (!result.success) throw new Error(JSON.stringify(result.error));
    return result.data;
  };
  // Warm the page cache.
  await rawRg(root, "NEEDLE");
  await grep({ pattern: "NEEDLE", limit: 1000 });

  console.log(`${benchHeader("grep_search beside raw ripgrep")}\n`);
  const found = await grep({ pattern: "NEEDLE", limit: 1000 });
  const full = await compare(
    () => grep({ pattern: "NEEDLE", limit: 1000 }),
    () => rawRg(root, "NEEDLE"),
  );
  const json = await compare(
    () => grep({ pattern: "NEEDLE", limit: 1000 }),
    () => rawRg(root, "NEEDLE", ["--json"]),
  );
  const capped = await compare(
    () => grep({ pattern: "lorem", limit: 10 }),
    () => rawRg(root, "lorem"),
  );
  const limited = await grep({ pattern: "lorem", limit: 10 });
  const absentRow = await compare(
    () => grep({ pattern: "ABSENT_PATTERN" }),
    () => rawRg(root, "ABSENT_PATTERN"),
  );
  const absent = await grep({ pattern: "ABSENT_PATTERN" });
  // Same call, same output: the capped page is identical every time.
  const pages = new Set();
  for (let run = 0; run < 10; run += 1) {
    pages.add(JSON.stringify(await grep({ pattern: "lorem", limit: 10 })));
  }

  const ms = (value) => `${value.toFixed(1)} ms`.padStart(10);
  const times = (result) =>
    result.refused
      ? `${"—".padStart(10)}  ${"—".padStart(10)}`
      : `${ms(result.baseline)}  ${ms(result.ours)}`;
  // The capped row reads as "raw rg / grep_search" (times faster); its min–max inverted too.
  const faster = (result) =>
    result.refused
      ? formatRatio(result)
      : `${(1 / result.ratio).toFixed(1)}× faster (${(1 / result.ratioMax).toFixed(1)}–${(1 / result.ratioMin).toFixed(1)})${formatRatio(result).replace(/^[^ ]+ [^ ]+/, "")}`;
  console.log(
    `tree: ${(bytes / 1_048_576).toFixed(1)} MiB in ${DIRECTORIES * FILES_PER_DIRECTORY} files (${root}); medians of ${RUNS}-call rounds`,
  );
  console.log("");
  console.log("query                                   raw rg      grep_search   ratio (min–max)");
  console.log(
    `full scan "NEEDLE" (${found.match_count} matches)         ${times(full)}    ${formatRatio(full)}  (target ≤ 1.20)`,
  );
  console.log(
    `  same, vs raw rg --json                ${times(json)}    ${formatRatio(json)}  (target ≤ 1.20)`,
  );
  console.log(
    `"lorem" full scan vs limit=10            ${times(capped)}    ${faster(capped)}  (target ≥ 5×; truncated=${limited.truncated}, total_at_least=${limited.total_at_least})`,
  );
  console.log(
    `absent pattern (empty result, ${absent.empty_reason})  ${times(absentRow)}    ${formatRatio(absentRow)}`,
  );
  console.log(`capped page identical in 10 calls: ${pages.size === 1}`);
  const refused = [full, json, capped, absentRow].some((result) => result.refused);
  const passed = !refused && json.ratio <= 1.2 && 1 / capped.ratio >= 5 && pages.size === 1;
  console.log(refused ? "\nREFUSED (machine busy)" : passed ? "\nPASS" : "\nFAIL");
  process.exitCode = passed ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
