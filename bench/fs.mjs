// tools-fs hot paths beside their baselines (issues 15, 29): every row is one tool call against
// its baseline, interleaved, by bench/lib/discipline.mjs — rounds of BENCH_FS_RUNS pairs (default
// 9) until the ratio's spread is under 10%, refused while another process is busy. "first page" rows build fresh tools for each run (no cached index); repeat rows
// reuse one set of tools. RSS growth is the largest rise of the resident set over one call.
//
// Run: pnpm bench fs           (builds first; the 1 GiB rows only with BENCH_FS_HUGE=1)
//      BENCH_FS_ONLY=list_directory,grep pnpm bench fs   (only those rows)
//      BENCH_FS_HUGE=1 pnpm bench fs   (adds the 1 GiB file rows: a ~1 GiB fixture in /tmp,
//                                        deleted afterwards; generating it takes ~10 s)
import { spawnSync } from "node:child_process";
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { createNodeFsTools } from "@agentool/tools-fs/node";
import { benchHeader, formatRatio, measureRatio } from "./lib/discipline.mjs";

// ripgrep as tools-fs runs it (a dependency of tools-fs, resolved from there).
const toolsFsRequire = createRequire(import.meta.url);
// The MCP reference filesystem server's path check, as its list_directory uses it.
const { setAllowedDirectories, validatePath } = await import(
  pathToFileURL(
    join(
      dirname(toolsFsRequire.resolve("@modelcontextprotocol/server-filesystem/package.json")),
      "dist",
      "lib.js",
    ),
  ).href
);
const { rgPath } = await import(
  pathToFileURL(
    join(
      dirname(toolsFsRequire.resolve("@agentool/tools-fs/package.json")),
      "node_modules",
      "@vscode",
      "ripgrep",
      "lib",
      "index.js",
    ),
  ).href
);

const RUNS = Number(process.env.BENCH_FS_RUNS ?? 9);
const HUGE = process.env.BENCH_FS_HUGE === "1";
// BENCH_FS_ONLY=list_directory,edit_file runs only the rows whose label holds one of the words.
const ONLY = process.env.BENCH_FS_ONLY?.split(",");

const workspace = realpathSync(mkdtempSync(join(tmpdir(), "agentool-bench-fs-")));
process.on("exit", () => rmSync(workspace, { recursive: true, force: true }));

// ── fixtures ─────────────────────────────────────────────────────────────────────────────────
// wide/: 3,000 entries in one folder (100 folders, 2,900 files).
mkdirSync(join(workspace, "wide"));
for (let index = 0; index < 100; index += 1) {
  mkdirSync(join(workspace, "wide", `folder-${String(index).padStart(3, "0")}`));
}
for (let index = 0; index < 2_900; index += 1) {
  writeFileSync(join(workspace, "wide", `entry-${String(index).padStart(4, "0")}.txt`), "x\n");
}
// tree/: 3,000 files in 60 folders (3,060 entries), ~50 KB each = ~150 MB, plus hidden and
// ignored files (a .gitignore'd folder and a dot folder).
const line = (number) =>
  `line ${String(number).padStart(6, "0")}: the quick brown fox jumps over the lazy dog\n`;
const fileText = Array.from({ length: 640 }, (_, index) => line(index + 1)).join("");
mkdirSync(join(workspace, "tree"));
writeFileSync(join(workspace, "tree", ".gitignore"), "build/\n");
for (let folder = 0; folder < 60; folder += 1) {
  const directory = join(workspace, "tree", `module-${String(folder).padStart(2, "0")}`);
  mkdirSync(directory);
  for (let file = 0; file < 50; file += 1) {
    writeFileSync(join(directory, `part-${String(file).padStart(2, "0")}.txt`), fileText);
  }
}
mkdirSync(join(workspace, "tree", "build"));
mkdirSync(join(workspace, "tree", ".cache"));
for (let file = 0; file < 20; file += 1) {
  writeFileSync(join(workspace, "tree", "build", `out-${file}.txt`), fileText);
  writeFileSync(join(workspace, "tree", ".cache", `c-${file}.txt`), fileText);
}
writeFileSync(join(workspace, "tree", "module-07", "needle-file.md"), "a needle here\n");
// ten.txt: 10 MB of lines for edit_file.
const tenLines = Math.ceil(10_000_000 / line(1).length);
const tenText = Array.from({ length: tenLines }, (_, index) => line(index + 1)).join("");
writeFileSync(join(workspace, "ten.txt"), tenText);
// page.txt: 200,000 lines for repeat pages.
writeFileSync(
  join(workspace, "page.txt"),
  Array.from({ length: 200_000 }, (_, index) => line(index + 1)).join(""),
);
// huge.txt: ~1 GiB (only with BENCH_FS_HUGE=1).
const HUGE_LINES = 12_000_000;
if (HUGE) {
  const descriptor = openSync(join(workspace, "huge.txt"), "w");
  const block = 100_000;
  for (let start = 0; start < HUGE_LINES; start += block) {
    let chunk = "";
    for (let index = start; index < start + block; index += 1) {
      chunk += `row ${String(index + 1).padStart(9, "0")}: the quick brown fox jumps over the lazy dog, again\n`;
    }
    writeSync(descriptor, chunk);
  }
  closeSync(descriptor);
}

const fixturesMadeAt = Date.now();

// ── measuring ────────────────────────────────────────────────────────────────────────────────
const tools = (options = {}) =>
  new Map(
    createNodeFsTools({ root: workspace, mode: "read-write", ...options }).map((tool) => [
      tool.name,
      tool,
    ]),
  );
/** A call on tools made just before it (untimed), so no cache of an earlier run helps. */
const fresh = (name, input) => {
  const prepare = () => {
    const tool = tools().get(name);
    return () => call(tool, input);
  };
  prepare.fresh = true;
  return prepare;
};
const shell =
  (command, args, options = {}) =>
  () => {
    const result = spawnSync(command, args, { cwd: workspace, maxBuffer: 1 << 30, ...options });
    if (result.status !== 0 && result.status !== 1) throw new Error(`${command} failed`);
  };
const sh = (script) => shell("sh", ["-c", script]);

async function call(tool, input) {
  const result = await tool.run(input);
  if (!result.success)
    throw new Error(`${tool.name}: ${result.error.code} ${result.error.message}`);
  return result.data;
}

/** Our largest RSS rise over one call (sampled every 5 ms). */
async function rssGrowth(ours) {
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const run = ours.fresh === true ? await ours() : ours;
  await run();
  clearInterval(sampler);
  return Math.max(peak, process.memoryUsage.rss()) - before;
}

const rows = [];
/**
 * One row: our call against its baseline, interleaved, by the discipline module (rounds of
 * `runs` pairs until the ratio's spread is under 10%; refused on a busy machine).
 */
async function row(label, baselineLabel, factor, ours, baseline, runs = RUNS) {
  if (ONLY !== undefined && !ONLY.some((word) => label.includes(word))) return;
  const result = await measureRatio({
    ...(ours.fresh === true ? { prepare: ours } : { ours }),
    baseline,
    callsPerRound: runs,
  });
  if (result.refused) {
    rows.push({ label, refused: true, pass: false, growth: 0 });
    console.log(`${label.padEnd(56)} ${formatRatio(result)}`);
    return;
  }
  const growth = await rssGrowth(ours);
  const pass = result.ratio <= factor;
  rows.push({ label, baselineLabel, factor, ...result, growth, pass });
  const mb = (growth / 1_048_576).toFixed(1);
  console.log(
    `${label.padEnd(56)} ${result.ours.toFixed(1).padStart(8)} ms  ${baselineLabel.padEnd(36)} ${result.baseline.toFixed(1).padStart(8)} ms  ${formatRatio(result).padEnd(20)} ≤${Number(factor.toFixed(2))}× ${pass ? "ok  " : "MISS"}  +${mb} MB`,
  );
}

console.log(`${benchHeader("tools-fs hot paths beside their baselines")}\n`);
console.log(
  `${"row".padEnd(56)} ${"ours".padStart(11)}  ${"baseline".padEnd(36)} ${"".padStart(11)}  ${"ratio (min–max)".padEnd(20)} target`,
);

// list_directory: 3,000 entries, 500 shown, against the MCP reference filesystem server's own
// list_directory handler run in-process (validatePath, readdir with file types, [DIR]/[FILE] lines).
setAllowedDirectories([workspace]);
const referenceListDirectory = async () => {
  const valid = await validatePath(join(workspace, "wide"));
  const entries = await readdir(valid, { withFileTypes: true });
  return entries
    .map((entry) => `${entry.isDirectory() ? "[DIR]" : "[FILE]"} ${entry.name}`)
    .join("\n");
};
await row(
  "list_directory wide/ (3,000 entries, 500 shown)",
  "MCP reference list_directory handler",
  1.5,
  fresh("list_directory", { path: "wide", limit: 500 }),
  referenceListDirectory,
);
// The same listing on a tool set made once (an MCP server, an agent's session): the folder is
// unchanged, so the seam's remembered names and the tool's sorted entries serve it; sizes are
// read again on every call.
const warmList = tools().get("list_directory");
// The seam remembers a folder's names once it has been unchanged for 2 s (git's racy rule).
await new Promise((resolve) =>
  setTimeout(resolve, Math.max(0, fixturesMadeAt + 2_100 - Date.now())),
);
await row(
  "list_directory wide/ again, same tools (unchanged folder)",
  "MCP reference list_directory handler",
  1.5,
  () => call(warmList, { path: "wide", limit: 500 }),
  referenceListDirectory,
);
// file_stats: 3,060-entry tree. The issue's peer (harpua's agent-tools) is not on the registry;
// its figures beside this plain pipeline (50 listed: harpua 18.6 ms, plain 14.6 ms; 200 listed:
// harpua 19.3 ms) turn the targets ≤ 1.2× / ≤ 1.5× harpua into ≤ 1.5× / ≤ 1.8× plain.
await row(
  "file_stats tree/ (3,060 entries, 50 listed)",
  "rg --files | sort | head -50 + wc",
  1.5,
  fresh("file_stats", { path: "tree", limit: 50 }),
  sh(`"${rgPath}" --files tree | sort | head -50 | xargs wc -l -c > /dev/null`),
);
await row(
  "file_stats tree/ (3,060 entries, 200 listed)",
  "rg --files | sort | head -200 + wc",
  1.8,
  fresh("file_stats", { path: "tree" }),
  sh(`"${rgPath}" --files tree | sort | head -200 | xargs wc -l -c > /dev/null`),
);
// grep_search of an absent pattern over ~150 MB.
await row(
  "grep_search absent pattern, tree/ (~150 MB)",
  "rg (raw)",
  1.3,
  fresh("grep_search", { pattern: "zebra-unicorn-absent", path: "tree" }),
  shell(rgPath, ["zebra-unicorn-absent", "tree"]),
);
// glob_search: 300 hits among 3,000 files (60 folders × part-00…part-04).
await row(
  "glob_search '**/part-0[0-4].txt' (300 of 3,000 files)",
  "rg --files -g",
  1.5,
  fresh("glob_search", { pattern: "**/part-0[0-4].txt", path: "tree", limit: 300 }),
  shell(rgPath, ["--files", "-g", "**/part-0[0-4].txt", "tree"]),
);
// edit_file of one line in 10 MB, against an atomic read + replace + write.
let editRound = 0;
await row(
  "edit_file one line in 10 MB",
  "read+replace+temp+fsync+rename",
  1.5,
  Object.assign(
    () => {
      editRound += 1;
      const [oldText, newText] =
        editRound % 2 === 1
          ? ["line 050000: the quick", "line 050000: the quack"]
          : ["line 050000: the quack", "line 050000: the quick"];
      const tool = tools().get("edit_file");
      return () => call(tool, { path: "ten.txt", old_text: oldText, new_text: newText });
    },
    { fresh: true },
  ),
  () => {
    const path = join(workspace, "ten.txt");
    const text = readFileSync(path, "utf8");
    const next = text.replace("line 060000: the", "line 060000: the");
    const temporary = `${path}.tmp-${editRound}`;
    const descriptor = openSync(temporary, "w");
    writeSync(descriptor, next);
    fsyncSync(descriptor);
    closeSync(descriptor);
    renameSync(temporary, path);
  },
);
// Keeps: repeat pages from a cached index, capped search.
const repeat = tools();
await call(repeat.get("read_file"), { path: "page.txt", offset: 100_000, limit: 200 });
let page = 0;
await row(
  "read_file repeat page (cached index), 200,000 lines",
  "sed -n 'A,Bp;Bq'",
  1.5,
  () => {
    page += 1;
    return call(repeat.get("read_file"), {
      path: "page.txt",
      offset: 100_000 + (page % 50) * 200,
      limit: 200,
    });
  },
  sh("sed -n '100000,100199p;100199q' page.txt > /dev/null"),
);
await row(
  "grep_search capped (common pattern, ~1.9M matches)",
  "rg | head -100",
  1.5,
  fresh("grep_search", { pattern: "quick", path: "tree" }),
  sh(`"${rgPath}" -n quick tree | head -100 > /dev/null`),
);
// The same page against the floor of any deterministic page: rg in path order (single-threaded).
await row(
  "grep_search capped, against a page in path order",
  "rg --sort=path | head -100",
  1.5,
  fresh("grep_search", { pattern: "quick", path: "tree" }),
  sh(`"${rgPath}" --sort=path -n quick tree | head -100 > /dev/null`),
);

if (HUGE) {
  const start = 5_000_000;
  const runs = Math.min(RUNS, 5);
  await row(
    "read_file 1 GiB, first page at the head",
    "head -n 400",
    1.5,
    fresh("read_file", { path: "huge.txt" }),
    sh("head -n 400 huge.txt > /dev/null"),
    runs,
  );
  await row(
    "read_file 1 GiB, first page at the tail (offset -100)",
    "tail -n 100",
    1.5,
    fresh("read_file", { path: "huge.txt", offset: -100 }),
    sh("tail -n 100 huge.txt > /dev/null"),
    runs,
  );
  // The model read the total from an earlier call (file_stats counted the lines) and asks for
  // the last 100 lines by a positive offset: found from the end, not by counting from the start.
  await row(
    "read_file 1 GiB, last page by positive offset",
    "tail -n 100",
    2,
    Object.assign(
      async () => {
        const set = tools();
        await call(set.get("file_stats"), { path: "huge.txt" });
        return () =>
          call(set.get("read_file"), { path: "huge.txt", offset: HUGE_LINES - 99, limit: 100 });
      },
      { fresh: true },
    ),
    sh("tail -n 100 huge.txt > /dev/null"),
    runs,
  );
  await row(
    "read_file 1 GiB, first page at line 5,000,000",
    "sed -n 'A,Bp;Bq'",
    2,
    fresh("read_file", { path: "huge.txt", offset: start, limit: 200 }),
    sh(`sed -n '${start},${start + 199}p;${start + 199}q' huge.txt > /dev/null`),
    runs,
  );
  rmSync(join(workspace, "huge.txt"), { force: true });
}

const missed = rows.filter((entry) => !entry.pass);
const refused = rows.filter((entry) => entry.refused === true);
console.log(
  `\n${rows.length - missed.length}/${rows.length} rows within target${refused.length > 0 ? ` (${refused.length} refused: machine busy)` : ""}${HUGE ? "" : " (1 GiB rows: BENCH_FS_HUGE=1)"}; RSS growth limit 64 MB: ${rows.every((entry) => entry.growth < 64 * 1_048_576) ? "ok" : "exceeded"}`,
);
