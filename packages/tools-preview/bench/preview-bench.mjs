// pnpm bench preview — open + act + shot through the preview tool beside a bare playwright-core
// script doing the same steps on the same Chromium (target ratio ≤ 1.3), and the memory each open
// session adds to the browser's process tree.
import { execFileSync } from "node:child_process";
import { chromium } from "playwright-core";
import { CHROMIUM_PREVIEW_ARGS, createChromiumPreviewTool } from "../dist/node/index.js";

const ITERATIONS = 20;
const SESSIONS = 8;
const ARTIFACT = `<!doctype html><title>bench</title><canvas id="c" width="320" height="200"></canvas><script>
const g = document.getElementById("c").getContext("2d"); let x = 0;
function draw() { g.fillStyle = "#000"; g.fillRect(0, 0, 320, 200); g.fillStyle = "#0f0"; g.fillRect(x, 90, 20, 20); }
addEventListener("keydown", () => { x += 20; draw(); }); draw(); console.log("ready");
</script>`;
const marker = `--agentool-bench=${process.pid}`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

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

async function measureTool() {
  const tool = createChromiumPreviewTool({
    read: async () => ARTIFACT,
    launchOptions: { args: [marker] },
  });
  const steps = async (thread) => {
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
  for (let index = 0; index < 3; index++) await steps("warm");
  const times = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    await steps("bench");
    times.push(performance.now() - started);
  }
  await tool.run({ op: "close" }, { threadId: "bench" });
  await tool.run({ op: "close" }, { threadId: "warm" });
  await new Promise((resolve) => setTimeout(resolve, 500));
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
  await tool.dispose();
  return { median: median(times), perSessionKiB: (after - before) / SESSIONS, baseKiB: before };
}

async function measureBare() {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [...CHROMIUM_PREVIEW_ARGS],
  });
  const steps = async () => {
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
  for (let index = 0; index < 3; index++) await steps();
  const times = [];
  for (let index = 0; index < ITERATIONS; index++) {
    const started = performance.now();
    await steps();
    times.push(performance.now() - started);
  }
  await browser.close();
  return { median: median(times) };
}

const bare = await measureBare();
const tool = await measureTool();
const ratio = tool.median / bare.median;
console.log(`open + act (2 keys) + shot, median of ${ITERATIONS}, a fresh session each time`);
console.log(`  bare playwright-core script     ${bare.median.toFixed(1).padStart(8)} ms`);
console.log(
  `  preview tool (open, act, shot)  ${tool.median.toFixed(1).padStart(8)} ms   ratio ${ratio.toFixed(2)} (target ≤ 1.3)`,
);
console.log(
  `memory per open session (browser process tree RSS, ${SESSIONS} sessions): ${(tool.perSessionKiB / 1024).toFixed(1)} MiB (browser with no session open: ${(tool.baseKiB / 1024).toFixed(1)} MiB)`,
);
if (ratio > 1.3) process.exitCode = 1;
