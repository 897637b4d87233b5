// Benchmark discipline (issue 29), shared by every bench script:
// - a ratio is computed inside one run: ours and the baseline interleaved call by call;
// - rounds repeat until the last three rounds' ratios spread under 10% (or the row says "noisy");
// - while a round runs, every other process's CPU share is sampled from /proc; a round during
//   which another process used over 20% of a core is thrown away and run again, and after
//   `attempts` loaded rounds the row refuses to report and prints the load it saw.
// BENCH_ALLOW_LOAD=1 reports anyway (for development), marking every such row "LOADED".
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** Linux clock ticks per second for /proc/<pid>/stat times (USER_HZ is 100 on every arch). */
const TICKS_PER_SECOND = 100;
/** Share of a core another process may use before a round is refused (BENCH_LOAD_THRESHOLD, default 0.2). */
export const LOAD_THRESHOLD = Number(process.env.BENCH_LOAD_THRESHOLD ?? 0.2);
/** Whether loaded rounds are kept and marked instead of refused (BENCH_ALLOW_LOAD=1). */
export const ALLOW_LOAD = process.env.BENCH_ALLOW_LOAD === "1";

/** One /proc snapshot: pid → { parent, ticks, command }. */
function processSnapshot() {
  const snapshot = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, "latin1");
      const close = text.lastIndexOf(")");
      const command = text.slice(text.indexOf("(") + 1, close);
      const fields = text.slice(close + 2).split(" ");
      // After the command: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
      snapshot.set(Number(name), {
        parent: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        command,
      });
    } catch {
      // the process ended between readdir and read
    }
  }
  return snapshot;
}

/** True when `pid` is this process or one of its descendants (baselines, servers we spawned). */
function isOurs(pid, snapshot) {
  let current = pid;
  for (let depth = 0; depth < 64 && current > 1; depth += 1) {
    if (current === process.pid) return true;
    current = snapshot.get(current)?.parent ?? 0;
  }
  return false;
}

/** Watches the other processes' CPU while work runs; `stop()` gives the busiest one. */
export function startLoadWatch() {
  const before = processSnapshot();
  const started = performance.now();
  return {
    stop() {
      const after = processSnapshot();
      const seconds = Math.max((performance.now() - started) / 1000, 0.001);
      let busiest = { pid: 0, command: "none", share: 0 };
      for (const [pid, entry] of after) {
        // Kernel threads (children of kthreadd, pid 2) flush our own writes: not another load.
        if (isOurs(pid, after) || pid === 2 || entry.parent === 2) continue;
        const previous = before.get(pid)?.ticks ?? 0;
        const share = (entry.ticks - previous) / TICKS_PER_SECOND / seconds;
        if (share > busiest.share) busiest = { pid, command: entry.command, share };
      }
      return busiest;
    },
  };
}

/** "node (pid 123) 45% of a core" */
export function describeLoad(load) {
  return `${load.command} (pid ${load.pid}) ${Math.round(load.share * 100)}% of a core`;
}

/** Waits up to `seconds` for a second during which no other process uses over the threshold. */
export async function waitForQuiet(seconds = 20) {
  let load = { pid: 0, command: "none", share: 0 };
  for (let waited = 0; waited < seconds; waited += 1) {
    const watch = startLoadWatch();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    load = watch.stop();
    if (load.share <= LOAD_THRESHOLD) return { quiet: true, load };
  }
  return { quiet: false, load };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/**
 * Times `ours` against `baseline` (async or sync functions, one call each), interleaved.
 * A round is `callsPerRound` pairs; its figure is the median of each side. Rounds repeat until
 * the last three rounds' ratios (ours / baseline) spread under `spreadLimit` of their median, at
 * most `maxRounds`. Returns medians of the last three rounds and the ratio's min–max.
 * `prepare` (optional) runs untimed before each of our calls and returns the call to time.
 */
export async function measureRatio({
  ours,
  baseline,
  prepare,
  callsPerRound = 9,
  minRounds = 3,
  maxRounds = 8,
  spreadLimit = 0.1,
  attempts = 5,
}) {
  const rounds = [];
  let worstLoad = { pid: 0, command: "none", share: 0 };
  let loadedRounds = 0;
  // one untimed warm-up pair
  await (prepare === undefined ? ours : await prepare())();
  await baseline();
  while (rounds.length < maxRounds) {
    const oursTimes = [];
    const baseTimes = [];
    const watch = startLoadWatch();
    for (let call = 0; call < callsPerRound; call += 1) {
      const run = prepare === undefined ? ours : await prepare();
      let started = performance.now();
      await run();
      oursTimes.push(performance.now() - started);
      started = performance.now();
      await baseline();
      baseTimes.push(performance.now() - started);
    }
    const load = watch.stop();
    if (load.share > worstLoad.share) worstLoad = load;
    if (load.share > LOAD_THRESHOLD && !ALLOW_LOAD) {
      loadedRounds += 1;
      if (loadedRounds >= attempts) {
        return { refused: true, load: worstLoad, rounds: rounds.length };
      }
      await waitForQuiet(10);
      continue;
    }
    const oursMedian = median(oursTimes);
    const baseMedian = median(baseTimes);
    rounds.push({ ours: oursMedian, baseline: baseMedian, ratio: oursMedian / baseMedian, load });
    if (rounds.length >= minRounds) {
      const lastRatios = rounds.slice(-3).map((round) => round.ratio);
      const spread = (Math.max(...lastRatios) - Math.min(...lastRatios)) / median(lastRatios);
      if (spread < spreadLimit) break;
    }
  }
  const last = rounds.slice(-3);
  const ratios = last.map((round) => round.ratio);
  const ratio = median(ratios);
  const spread = (Math.max(...ratios) - Math.min(...ratios)) / ratio;
  return {
    refused: false,
    ours: median(last.map((round) => round.ours)),
    baseline: median(last.map((round) => round.baseline)),
    ratio,
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    spread,
    noisy: spread >= spreadLimit,
    loaded: ALLOW_LOAD && worstLoad.share > LOAD_THRESHOLD,
    load: worstLoad,
    rounds: rounds.length,
  };
}

/** One printable cell for a measured ratio: "1.12× (1.08–1.15)", with noisy/LOADED marks. */
export function formatRatio(result) {
  if (result.refused) return `REFUSED: machine busy — ${describeLoad(result.load)}`;
  const marks = [
    result.noisy ? "noisy" : "",
    result.loaded ? `LOADED: ${describeLoad(result.load)}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return `${result.ratio.toFixed(2)}× (${result.ratioMin.toFixed(2)}–${result.ratioMax.toFixed(2)})${marks ? ` ${marks}` : ""}`;
}

/** The header every bench prints: date, commit, Node, cores, and the load rule. */
export function benchHeader(title) {
  const git = spawnSync("git", ["rev-parse", "--short", "HEAD"], {
    cwd: new URL("../..", import.meta.url),
    encoding: "utf8",
  });
  const commit = git.status === 0 ? git.stdout.trim() : "unknown";
  return `${title}\n${new Date().toISOString().slice(0, 10)}, commit ${commit}, Node ${process.version}; ratios inside one run, median of the last three rounds (min–max), rounds repeat until the spread is under 10%; a round is refused when another process uses over ${Math.round(LOAD_THRESHOLD * 100)}% of a core${ALLOW_LOAD ? " (BENCH_ALLOW_LOAD=1: loaded rounds kept and marked)" : ""}`;
}
