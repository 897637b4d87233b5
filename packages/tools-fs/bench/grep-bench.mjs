// grep_search (ripgrep engine) versus the raw `rg` command on a generated ≥100 MB tree.
// Build first: npx tsc -p tsconfig.build.json — then: node bench/grep-bench.mjs
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rgPath } from "@vscode/ripgrep";
import { createGrepSearchTool } from "../dist/grep-search.js";
import { createNodeFileSystem } from "../dist/node/node-file-system.js";
import { createRipgrepSearcher } from "../dist/node/ripgrep/index.js";
import { createWorkspace } from "../dist/workspace.js";

const DIRECTORIES = 40;
const FILES_PER_DIRECTORY = 50;
const FILE_BYTES = 55_000; // 2,000 files × 55 kB ≈ 110 MB
const RUNS = 5;

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

async function time(work) {
  const samples = [];
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  samples.sort((left, right) => left - right);
  return samples[Math.floor(samples.length / 2)];
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

  const found = await grep({ pattern: "NEEDLE", limit: 1000 });
  const rgFull = await time(() => rawRg(root, "NEEDLE"));
  const rgJson = await time(() => rawRg(root, "NEEDLE", ["--json"]));
  const toolFull = await time(() => grep({ pattern: "NEEDLE", limit: 1000 }));
  const rgBusy = await time(() => rawRg(root, "lorem"));
  const toolLimited = await time(() => grep({ pattern: "lorem", limit: 10 }));
  const limited = await grep({ pattern: "lorem", limit: 10 });
  const rgAbsent = await time(() => rawRg(root, "ABSENT_PATTERN"));
  const toolAbsent = await time(() => grep({ pattern: "ABSENT_PATTERN" }));
  const absent = await grep({ pattern: "ABSENT_PATTERN" });
  // Same call, same output: the capped page is identical every time.
  const pages = new Set();
  for (let run = 0; run < 10; run += 1) {
    pages.add(JSON.stringify(await grep({ pattern: "lorem", limit: 10 })));
  }

  const ms = (value) => `${value.toFixed(1)} ms`.padStart(10);
  const fullRatio = toolFull / rgFull;
  const jsonRatio = toolFull / rgJson;
  const cappedRatio = rgBusy / toolLimited;
  const absentRatio = toolAbsent / rgAbsent;
  console.log(
    `tree: ${(bytes / 1_048_576).toFixed(1)} MiB in ${DIRECTORIES * FILES_PER_DIRECTORY} files (${root}); median of ${RUNS} runs`,
  );
  console.log("");
  console.log("query                                   raw rg      grep_search   ratio");
  console.log(
    `full scan "NEEDLE" (${found.match_count} matches)         ${ms(rgFull)}  ${ms(toolFull)}    ${fullRatio.toFixed(2)}  (target ≤ 1.20)`,
  );
  console.log(
    `  same, vs raw rg --json                ${ms(rgJson)}  ${ms(toolFull)}    ${jsonRatio.toFixed(2)}  (target ≤ 1.20)`,
  );
  console.log(
    `"lorem" full scan vs limit=10            ${ms(rgBusy)}  ${ms(toolLimited)}    ${cappedRatio.toFixed(1)}× faster  (target ≥ 5×; truncated=${limited.truncated}, total_at_least=${limited.total_at_least})`,
  );
  console.log(
    `absent pattern (empty result, ${absent.empty_reason})  ${ms(rgAbsent)}  ${ms(toolAbsent)}    ${absentRatio.toFixed(2)}`,
  );
  console.log(`capped page identical in 10 calls: ${pages.size === 1}`);
  const passed = jsonRatio <= 1.2 && cappedRatio >= 5 && pages.size === 1;
  console.log(passed ? "\nPASS" : "\nFAIL");
  process.exitCode = passed ? 0 : 1;
} finally {
  await rm(root, { recursive: true, force: true });
}
