// pnpm bench preview — open + act + shot through the preview tool beside a bare playwright-core
// script doing the same steps on the same Chromium (target ratio ≤ 1.3), and the memory each open
// session adds to the browser's process tree.
// The ratio interleaves the tool and the bare script run by run (bench/lib/discipline.mjs): rounds
// of BENCH_PREVIEW_RUNS pairs (default 20) until its spread is under 10%, refused while another
// process uses over 20% of a core; the memory figure is refused the same way. BENCH_ALLOW_LOAD=1
// keeps such rounds, marked LOADED.
import { execFileSync } from "node:child_process";
import { chromium } from "playwright-core";
import {
  ALLOW_LOAD,
  benchHeader,
  describeLoad,
  formatRatio,
  LOAD_THRESHOLD as LOAD_LIMIT,
  measureRatio,
  startLoadWatch,
} from "../../../bench/lib/discipline.mjs";
import { CHROMIUM_PREVIEW_ARGS, createChromiumPreviewTool } from "../dist/node/index.js";

const ITERATIONS = Number(process.env.BENCH_PREVIEW_RUNS ?? 20);
const SESSIONS = 8;
const ARTIFACT = `<!doctype html><title>bench</title><canvas id="c" width="320" height="200"></canvas><script>
const g = document.getElementById("c").getContext("2d"); let x = 0;
function draw() { g.fillStyle = "#000"; g.fillRect(0, 0, 320, 200); g.fillStyle = "#0f0"; g.fillRect(x, 90, 20, 20); }
addEventListener("keydown", () => { x += 20; draw(); }); draw(); console.log("ready");
</script>`;
const marker = `--agentool-bench=${process.pid}`;

/** RSS in KiB of the browser launched with the marker flag and all its descendants. */
function browserTreeRss() {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid=,rss=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/))
    .filter(Boolean)
    .map(([, pid, ppid, rss, args]) => ({
      pid: Number(pid),
      ppid: Number(ppid),
      rss: Number(rss),
      args,
    }));
  const roots = rows.filter((row) => row.args.includes(marker)).map((row) => row.pid);
  const tree = new Set(roots);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows)
      if (tree.has(row.ppid) && !tree.has(row.pid)) {
        tree.add(row.pid);
        grew = true;
      }
  }
  return rows.filter((row) => tree.has(row.pid)).reduce((sum, row) => sum + row.rss, 0);
}

/** The preview tool's three calls on one thread (each open replaces the previous session). */
function toolSteps(tool) {
  return async (thread) => {
    for (const input of [
      { op: "open", path: "bench.html" },
      {
        op: "act",
        actions: [
          { type: "key", key: "ArrowRight" },
          { type: "key", key: "ArrowRight" },
        ],
      },
      { op: "shot" },
    ]) {
      const result = await tool.run(input, { threadId: thread });
      if (!result.success) throw new Error(`${input.op}: ${result.error.message}`);
    }
  };
}

/** The same steps in a bare playwright-core script: a context, the page, two keys, the canvas. */
function bareSteps(browser) {
  return async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
    await context.route("**/*", (route) =>
      route.fulfill({ contentType: "text/html", body: ARTIFACT }),
    );
    const page = await context.newPage();
    await page.goto("http://artifact.preview.invalid/bench.html");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.evaluate(() => document.getElementById("c").toDataURL("image/png"));
    await context.close();
  };
}

console.log(`${benchHeader("preview tool beside a bare playwright-core script")}\n`);
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: [...CHROMIUM_PREVIEW_ARGS],
});
const tool = createChromiumPreviewTool({
  read: async () => ARTIFACT,
  launchOptions: { args: [marker] },
});
const bare = bareSteps(browser);
const viaTool = toolSteps(tool);
for (let index = 0; index < 3; index++) {
  await bare();
  await viaTool("bench");
}
// Interleaved, so a busy machine slows both sides alike.
const result = await measureRatio({
  ours: () => viaTool("bench"),
  baseline: bare,
  callsPerRound: ITERATIONS,
});
await browser.close();
await tool.run({ op: "close" }, { threadId: "bench" });
await new Promise((resolve) => setTimeout(resolve, 500));
const watch = startLoadWatch();
const before = browserTreeRss();
for (let index = 0; index < SESSIONS; index++) {
  const result = await tool.run(
    { op: "open", path: "bench.html" },
    { threadId: `memory-${index}` },
  );
  if (!result.success) throw new Error(result.error.message);
}
await new Promise((resolve) => setTimeout(resolve, 500));
const after = browserTreeRss();
const load = watch.stop();
await tool.dispose();

console.log(
  `open + act (2 keys) + shot, medians of ${ITERATIONS}-run interleaved rounds, a fresh session each time`,
);
if (result.refused) {
  console.log(`  preview tool / bare playwright-core script: ${formatRatio(result)}`);
} else {
  console.log(`  bare playwright-core script     ${result.baseline.toFixed(1).padStart(8)} ms`);
  console.log(
    `  preview tool (open, act, shot)  ${result.ours.toFixed(1).padStart(8)} ms   ratio ${formatRatio(result)} (target ≤ 1.3) ${result.ratio <= 1.3 ? "ok" : "MISS"}`,
  );
}
const busy = load.share > LOAD_LIMIT;
const memory = `${((after - before) / SESSIONS / 1024).toFixed(1)} MiB (browser with no session open: ${(before / 1024).toFixed(1)} MiB)`;
console.log(
  `memory per open session (browser process tree RSS, ${SESSIONS} sessions): ${busy && !ALLOW_LOAD ? `REFUSED: machine busy — ${describeLoad(load)}` : `${memory}${busy ? ` LOADED: ${describeLoad(load)}` : ""}`}`,
);
if (result.refused || result.ratio > 1.3) process.exitCode = 1;
