// Benchmark (issue 34): the `computer` tool's latency beside a bare script of the same X work.
// Under Xvfb with the package's Tk test app (test-apps/tk-app.py) filling the display;
// the tool comes from dist/ (build first: pnpm --filter @agentool/tools-gui build, or
// `pnpm bench gui`, which builds it). Needs Xvfb, xauth, xdotool, xwd and python3-tk
// (`node scripts/setup-system.mjs test`).
//
// Rows (bench/lib/discipline.mjs: ours and the baseline interleaved call by call, rounds until
// the spread is under 10%, refused while another process uses over 20% of a core), 1280×800:
// - screenshot + left_click + type "hello" (target ≤ 1.3×, issue 34). Ours: three `computer`
//   calls — screenshot (a PNG, base64, as the model gets it), left_click on the text field and
//   type, both with `screenshotAfterAction: false` so the three calls do the baseline's work
//   and no more. Baseline, a bare script: `xwd -root -silent`, its pixels (Xvfb's 32-bit BGRX)
//   turned to RGB in a loop and encoded by sharp to PNG (the encode the tool must do; sharp's
//   own channel swap, recomb, was slower here), base64; `xdotool mousemove X Y click --delay 0
//   1` (xdotool sleeps --delay after a single click too, 100 ms by default; the tool passes 0
//   for one click, and so does the baseline: the fastest a bare script clicks); `xdotool type
//   hello` (its default 12 ms per key, as the tool's).
// - the same with the tool's defaults (a screenshot after each input action, 300 ms after it):
//   what a model's three calls cost as shipped; the baseline takes no screenshots — no target.
// - screenshot alone (target ≤ 1.3×), and scaled: a 1920×1080 display shown as 1280×720 (the
//   tool's default box), the baseline resizing with sharp's default kernel (lanczos3) as the
//   tool does (target ≤ 1.3×).
// - when ImageMagick's `import` is installed, the first row and the screenshot again with
//   `import -window root png:-` as the baseline's screenshot.
// Every `type` of both sides lands in the same field: at the end the field's text is applied to
// the window title (the app's Apply button) and checked to hold exactly the letters typed.
// Both displays (Xvfb and the app) are closed before the bench exits, also on SIGINT/SIGTERM.
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import sharp from "sharp";
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";
import { createComputerTool } from "../dist/index.js";
import { describeMissingX11Programs, startXvfbDisplay } from "../dist/node/index.js";
import { missingX11TestPrerequisites, tkTestApp } from "../dist/testing/index.js";

const run = promisify(execFile);
const TARGET = 1.3;
const WORD = "hello";
const BUTTON = [217, 217, 217];
const WHITE = [255, 255, 255];

/** Why the bench cannot run here, or undefined. */
function missingPrerequisite() {
  const missing = missingX11TestPrerequisites();
  return missing.length === 0 ? undefined : describeMissingX11Programs(missing);
}

/** Whether ImageMagick's `import` is on PATH (not a stand-in of another name). */
function hasImageMagickImport() {
  const probe = spawnSync("import", ["-version"], { encoding: "utf8", timeout: 10_000 });
  return probe.status === 0 && /ImageMagick/.test(probe.stdout);
}

const opened = new Set();
async function openDisplay(width, height) {
  const display = await startXvfbDisplay({
    width,
    height,
    app: tkTestApp(width, height),
  });
  opened.add(display);
  return display;
}
async function closeDisplays() {
  for (const display of opened) await display.close();
  opened.clear();
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    closeDisplays().finally(() => process.exit(130));
  });
}

/** The bare script's steps on one display: what a user writes with the X programs and sharp. */
function bareScript(display) {
  const environment = {
    DISPLAY: display.name,
    XAUTHORITY: display.authorityFile,
    PATH: process.env.PATH,
  };
  const xwdPng = async (width, height) => {
    const { stdout: dump } = await run("xwd", ["-root", "-silent"], {
      env: environment,
      encoding: "buffer",
      maxBuffer: 1 << 26,
    });
    // An X window dump's header (big-endian 32-bit fields): its size, the width, the height and
    // the colour-map entries (12 bytes each) before the pixels; Xvfb's 24-bit screen is B, G, R, X.
    const field = (index) => dump.readUInt32BE(index * 4);
    const [dumpWidth, dumpHeight] = [field(4), field(5)];
    const start = field(0) + field(19) * 12;
    const pixels = Buffer.allocUnsafe(dumpWidth * dumpHeight * 3);
    for (let out = 0, offset = start; out < pixels.length; out += 3, offset += 4) {
      pixels[out] = dump[offset + 2];
      pixels[out + 1] = dump[offset + 1];
      pixels[out + 2] = dump[offset];
    }
    let image = sharp(pixels, { raw: { width: dumpWidth, height: dumpHeight, channels: 3 } });
    if (width !== dumpWidth || height !== dumpHeight) image = image.resize(width, height);
    return (await image.png().toBuffer()).toString("base64");
  };
  const importPng = async () => {
    const { stdout } = await run("import", ["-window", "root", "png:-"], {
      env: environment,
      encoding: "buffer",
      maxBuffer: 1 << 26,
    });
    return stdout.toString("base64");
  };
  return {
    screenshot: (width = display.width, height = display.height) => xwdPng(width, height),
    importScreenshot: importPng,
    // xdotool's click sleeps its --delay after the last click too (100 ms by default); the tool
    // passes 0 for a single click, and so does the baseline.
    click: (x, y) =>
      run("xdotool", ["mousemove", String(x), String(y), "click", "--delay", "0", "1"], {
        env: environment,
      }),
    type: (text) => run("xdotool", ["type", text], { env: environment }),
  };
}

/** Runs a `computer` call; throws unless it succeeded. */
async function succeed(tool, input) {
  const result = await tool.run(input);
  if (!result.success) {
    throw new Error(
      `computer ${JSON.stringify(input)}: ${result.error.code} ${result.error.message}`,
    );
  }
  return result.data;
}

/** The left ends of runs of at least `minimum` pixels of a colour along row `y` of an RGB PNG. */
async function runsOf(base64, color, y, minimum) {
  const { data, info } = await sharp(Buffer.from(base64, "base64"))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const runs = [];
  let start = -1;
  for (let x = 0; x <= info.width; x += 1) {
    const offset = (y * info.width + x) * 3;
    const matches = x < info.width && color.every((value, index) => data[offset + index] === value);
    if (matches && start < 0) start = x;
    if (!matches && start >= 0) {
      if (x - start >= minimum) runs.push({ left: start, right: x - 1 });
      start = -1;
    }
  }
  return runs;
}

/** The text field's and the Apply button's centres (the app's top row), from a screenshot. */
async function findControls(screenshot) {
  const entry = (await runsOf(screenshot, WHITE, 22, 60))[0];
  const button = (await runsOf(screenshot, BUTTON, 11, 30)).find(
    (candidate) => entry !== undefined && candidate.left > entry.right,
  );
  if (entry === undefined || button === undefined) {
    throw new Error("the Tk app's text field or Apply button is not where the bench looks");
  }
  return {
    field: [Math.round((entry.left + entry.right) / 2), 22],
    apply: [Math.round((button.left + button.right) / 2), 22],
  };
}

/** The Tk app's window title, read with xdotool (not through the tool). */
async function windowTitle(display) {
  const { stdout } = await run(
    "xdotool",
    ["search", "--name", "^agentool-test", "getwindowname", "%1"],
    { env: { DISPLAY: display.name, XAUTHORITY: display.authorityFile, PATH: process.env.PATH } },
  );
  return stdout.trim();
}

const rows = [];
function printRow(label, result, target) {
  const verdict = result.refused
    ? "refused"
    : target === undefined
      ? "(no target)"
      : result.ratio <= target
        ? "ok"
        : "MISS";
  const times = result.refused
    ? `${"—".padStart(10)} ${"—".padStart(10)}`
    : `${`${result.ours.toFixed(1)} ms`.padStart(10)} ${`${result.baseline.toFixed(1)} ms`.padStart(10)}`;
  console.log(
    `${label.padEnd(50)} ${times}  ${(target === undefined ? "—" : `≤ ${target}×`).padEnd(6)} ${verdict.padEnd(11)} ${formatRatio(result)}`,
  );
  rows.push({ label, verdict });
}

async function measureRow(label, target, options) {
  printRow(label, await measureRatio(options), target);
}

const missing = missingPrerequisite();
console.log(`${benchHeader("computer (tools-gui) beside a bare xdotool + xwd script")}\n`);
if (missing !== undefined) {
  console.log(`cannot run: ${missing} Or run \`node scripts/setup-system.mjs test\` (as root).`);
  process.exit(1);
}
const withImport = hasImageMagickImport();
let typed = 0;
try {
  const display = await openDisplay(1280, 800);
  const lean = createComputerTool({ display, screenshotAfterAction: false });
  const shipped = createComputerTool({ display });
  const bare = bareScript(display);
  const first = await succeed(lean, { action: "screenshot" });
  const ourPixels = await sharp(Buffer.from(first.image_base64, "base64")).raw().toBuffer();
  const barePixels = await sharp(Buffer.from(await bare.screenshot(), "base64"))
    .raw()
    .toBuffer();
  // The same picture (a text caret may blink between the two): under 0.1% of the bytes differ.
  let differing = ourPixels.length === barePixels.length ? 0 : Number.POSITIVE_INFINITY;
  for (let index = 0; index < ourPixels.length && differing < Infinity; index += 1) {
    if (ourPixels[index] !== barePixels[index]) differing += 1;
  }
  if (differing > ourPixels.length / 1000) throw new Error("the bare script's screenshot differs");
  const { field, apply } = await findControls(first.image_base64);
  console.log(
    `display 1280×800 (Xvfb ${display.name}), Tk app; the field at (${field.join(", ")}); ImageMagick import: ${withImport ? "installed" : "not installed (its rows are skipped)"}\n`,
  );
  console.log(
    `${"row".padEnd(50)} ${"ours".padStart(10)} ${"baseline".padStart(10)}  target verdict     ratio (ours ÷ baseline, min–max)`,
  );
  const oursSequence = (tool) => async () => {
    await succeed(tool, { action: "screenshot" });
    await succeed(tool, { action: "left_click", coordinate: field });
    await succeed(tool, { action: "type", text: WORD });
    typed += 1;
  };
  const bareSequence = (screenshot) => async () => {
    await screenshot();
    await bare.click(field[0], field[1]);
    await bare.type(WORD);
    typed += 1;
  };
  await measureRow("screenshot + left_click + type (no screenshot after)", TARGET, {
    ours: oursSequence(lean),
    baseline: bareSequence(() => bare.screenshot()),
  });
  await measureRow("  same, the tool's defaults (screenshot after each)", undefined, {
    ours: oursSequence(shipped),
    baseline: bareSequence(() => bare.screenshot()),
    callsPerRound: 3,
  });
  await measureRow("screenshot 1280×800", TARGET, {
    ours: () => succeed(lean, { action: "screenshot" }),
    baseline: () => bare.screenshot(),
    callsPerRound: 15,
  });
  if (withImport) {
    await measureRow("screenshot + left_click + type, baseline import", TARGET, {
      ours: oursSequence(lean),
      baseline: bareSequence(() => bare.importScreenshot()),
    });
    await measureRow("screenshot 1280×800, baseline import", TARGET, {
      ours: () => succeed(lean, { action: "screenshot" }),
      baseline: () => bare.importScreenshot(),
      callsPerRound: 15,
    });
  }
  // Every "hello" both sides typed is in the field (a click can put the caret inside the text,
  // so the letters are counted, not the order): Apply copies the field into the title.
  await bare.click(apply[0], apply[1]);
  let title = "";
  for (let tries = 0; tries < 50 && !title.includes("applied"); tries += 1) {
    title = await windowTitle(display);
    if (!title.includes("applied")) await new Promise((done) => setTimeout(done, 100));
  }
  const text = title.replace(/^agentool-test: applied /, "");
  const letters = (value) => [...value].sort().join("");
  const expected = WORD.repeat(typed);
  console.log(
    `  check: the field holds ${text.length} letters after ${typed} "${WORD}" typed (${expected.length} expected): ${letters(text) === letters(expected) ? "ok" : "WRONG"}`,
  );
  if (letters(text) !== letters(expected))
    rows.push({ label: "typed text check", verdict: "MISS" });
  await closeDisplays();

  const large = await openDisplay(1920, 1080);
  const scaledTool = createComputerTool({ display: large });
  const scaledBare = bareScript(large);
  const scaled = await succeed(scaledTool, { action: "screenshot" });
  if (scaled.image_width !== 1280 || scaled.image_height !== 720) {
    throw new Error(`the scaled screenshot is ${scaled.image_width}×${scaled.image_height}`);
  }
  await measureRow("screenshot 1920×1080 → 1280×720", TARGET, {
    ours: () => succeed(scaledTool, { action: "screenshot" }),
    baseline: () => scaledBare.screenshot(1280, 720),
    callsPerRound: 15,
  });
} finally {
  await closeDisplays();
}
const missed = rows.filter((row) => row.verdict === "MISS");
const refused = rows.filter((row) => row.verdict === "refused");
console.log(
  `\n${rows.length - missed.length - refused.length}/${rows.length} rows within target or without one${refused.length > 0 ? ` (${refused.length} refused: machine busy)` : ""}${missed.length > 0 ? `; MISS: ${missed.map((row) => row.label.trim()).join(", ")}` : ""}`,
);
process.exitCode = missed.length > 0 ? 1 : 0;
