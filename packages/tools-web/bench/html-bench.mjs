// HTML → Markdown with web_fetch's converter (htmlToMarkdown, links made absolute, as web_fetch
// calls it) beside turndown 7 (atx headings, fenced code, "-" bullets), on generated pages of
// 1–1.5 MB; then linearity on hostile pages (the time of a 1 MB page over the time of a 0.5 MB
// one: linear is about 2×, over 3× fails); then peak memory (RSS growth) when a 100 MB endless
// body from a local server hits web_fetch's byte cap, beside a plain `await response.text()`.
// Every ratio is measured inside one run with bench/lib/discipline.mjs (interleaved calls,
// rounds until the spread is under 10%, rounds refused while another process is busy).
//
// Run: pnpm bench html        (builds first)
//      node bench/html-bench.mjs   (after `npx tsc -p tsconfig.build.json`)
//      BENCH_ALLOW_LOAD=1 …    (report on a busy machine, rows marked LOADED)
import { createServer } from "node:http";
import TurndownService from "turndown";
import { benchHeader, formatRatio, measureRatio } from "../../../bench/lib/discipline.mjs";
import { htmlToMarkdown } from "../dist/index.js";
import { createNodeWebFetchTool } from "../dist/node/index.js";

const MB = 1_048_576;
const BASE_URL = "https://example.com/docs/page";
const TARGET_SPEED_UP = 1.5;
const LINEAR_LIMIT = 3;

function articlePage(targetBytes) {
  const parts = [
    "<!doctype html><html><head><title>Article</title><style>p{}</style></head><body><nav><a href='/'>Home</a></nav><main>",
  ];
  let size = 0;
  for (let index = 0; size < targetBytes; index += 1) {
    const section = `<h2>Section ${index}</h2><p>Paragraph ${index} with <a href="/link/${index}">a relative link</a>, <strong>bold</strong>, <em>emphasis</em> and <code>inline code</code>. ${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(4)}</p><ul><li>first ${index}</li><li>second <a href="https://example.com/${index}">external</a></li></ul><pre><code class="language-js">const value${index} = ${index} * 2;\nconsole.log(value${index});</code></pre>`;
    parts.push(section);
    size += section.length;
  }
  parts.push("</main></body></html>");
  return parts.join("");
}

function tablePage(targetBytes) {
  const rows = [];
  let size = 0;
  for (let index = 0; size < targetBytes; index += 1) {
    const row = `<tr><td>${index}</td><td>Item ${index}</td><td><a href="/items/${index}">details</a></td><td>${(index * 1.37).toFixed(2)}</td></tr>`;
    rows.push(row);
    size += row.length;
  }
  return `<html><body><h1>Data</h1><table><thead><tr><th>#</th><th>Name</th><th>Link</th><th>Value</th></tr></thead><tbody>${rows.join("")}</tbody></table></body></html>`;
}

function cardsPage(targetBytes) {
  const parts = ["<html><body>"];
  let size = 0;
  for (let index = 0; size < targetBytes; index += 1) {
    const block = `<div class="card"><div class="inner"><h3>Card ${index}</h3><blockquote><p>Quote ${index} ${"text ".repeat(20)}</p></blockquote><ol><li><a href="../up/${index}">up</a></li><li><img src="/img/${index}.png" alt="image ${index}"></li></ol></div></div>`;
    parts.push(block);
    size += block.length;
  }
  parts.push("</body></html>");
  return parts.join("");
}

/** `unit` repeated to about `bytes` characters. */
const fill = (unit, bytes) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

/** Pages built to break a converter: each takes a size in bytes. */
const HOSTILE = [
  [
    "deep <div> nesting",
    (bytes) => {
      const depth = Math.floor(bytes / 12);
      return `<html><body>${"<div>".repeat(depth)}deep${"</div>".repeat(depth)}</body></html>`;
    },
  ],
  [
    "nested lists",
    (bytes) => {
      const depth = Math.floor(bytes / 18);
      return `${"<ul><li>item".repeat(depth)}${"</li></ul>".repeat(depth)}`;
    },
  ],
  ["unclosed tables", (bytes) => `<html><body>${fill("<table><tr><td>x", bytes)}</body></html>`],
  ["unclosed <span>", (bytes) => `<html><body>${fill("<span>x", bytes)}</body></html>`],
  ["huge attribute", (bytes) => `<p>before <a href="/${"x".repeat(bytes)}">link</a> after</p>`],
  ["run of <", (bytes) => `<p>${"<".repeat(bytes)}</p>`],
  ["run of <script / <table", (bytes) => `<p>${fill("<script<table<base ", bytes)}</p>`],
  ["unclosed comments", (bytes) => `<p>${fill("<!-- x ", bytes)}</p>`],
  ["run of entities", (bytes) => `<p>${fill("&amp;&lt;&#x41;&bogus;&", bytes)}</p>`],
  ["run of digits", (bytes) => `<p>${"1".repeat(bytes)}</p>`],
  ["spaces in <pre>", (bytes) => `<pre>x${" ".repeat(bytes)}y</pre>`],
  ["long word in <li>", (bytes) => `<ul><li>${"x".repeat(bytes)}  </li></ul>`],
  [
    "line breaks in <td><pre>",
    (bytes) => `<table><tr><td><pre>a${"\n".repeat(bytes)}b</pre></td></tr></table>`,
  ],
];

const turndown = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
});
try {
  const { gfm } = await import("turndown-plugin-gfm");
  turndown.use(gfm);
} catch {
  // tables stay HTML in turndown without the gfm plugin; it is not installed here
}

/** formatRatio's "1.12× (1.08–1.15) noisy, LOADED: …" as the ratio cell and its marks. */
function splitMarks(formatted) {
  const end = formatted.indexOf(")") + 1;
  const marks = formatted.slice(end).trim();
  return [formatted.slice(0, end), marks ? ` ${marks}` : ""];
}

const ms = (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;

console.log(benchHeader("HTML → Markdown: web_fetch's converter beside turndown 7"));
console.log(
  `\n${"page".padEnd(32)}${"size".padStart(9)}${"web_fetch".padStart(11)}${"turndown".padStart(11)}  ${"speed-up (min–max)".padEnd(20)}target`,
);
const shapes = [
  ["article (headings, lists, code)", articlePage(1.5 * MB)],
  ["table (one 1 MB table)", tablePage(1 * MB)],
  ["cards (quotes, images)", cardsPage(1.5 * MB)],
];
let failed = false;
for (const [label, html] of shapes) {
  const result = await measureRatio({
    ours: () => htmlToMarkdown(html, BASE_URL),
    baseline: () => turndown.turndown(html),
    callsPerRound: 5,
  });
  const size = `${(html.length / MB).toFixed(2)} MB`;
  if (result.refused) {
    console.log(`${label.padEnd(32)}${size.padStart(9)}  ${formatRatio(result)}`);
    failed = true;
    continue;
  }
  const speedUp = 1 / result.ratio;
  const range = `${(1 / result.ratioMax).toFixed(2)}–${(1 / result.ratioMin).toFixed(2)}`;
  const [, marks] = splitMarks(formatRatio(result));
  const met = speedUp >= TARGET_SPEED_UP;
  if (!met) failed = true;
  console.log(
    `${label.padEnd(32)}${size.padStart(9)}${ms(result.ours).padStart(11)}${ms(result.baseline).padStart(11)}  ${`${speedUp.toFixed(2)}× (${range})`.padEnd(20)}≥ ${TARGET_SPEED_UP}× ${met ? "ok" : "MISS"}${marks}`,
  );
}

console.log(
  `\nLinearity on hostile pages: web_fetch's converter on 1 MB beside 0.5 MB (linear ≈ 2×; over ${LINEAR_LIMIT}× fails)\n`,
);
console.log(
  `${"page".padEnd(26)}${"0.5 MB".padStart(10)}${"1 MB".padStart(10)}  ${"1 MB / 0.5 MB (min–max)".padEnd(26)}target`,
);
for (const [label, build] of HOSTILE) {
  const small = build(0.5 * MB);
  const large = build(1 * MB);
  const result = await measureRatio({
    ours: () => htmlToMarkdown(large, BASE_URL),
    baseline: () => htmlToMarkdown(small, BASE_URL),
    callsPerRound: 3,
  });
  if (result.refused) {
    console.log(`${label.padEnd(26)}  ${formatRatio(result)}`);
    failed = true;
    continue;
  }
  const met = result.ratio <= LINEAR_LIMIT;
  if (!met) failed = true;
  const [cell, marks] = splitMarks(formatRatio(result));
  console.log(
    `${label.padEnd(26)}${ms(result.baseline).padStart(10)}${ms(result.ours).padStart(10)}  ${cell.padEnd(26)}≤ ${LINEAR_LIMIT}× ${met ? "ok" : "FAIL"}${marks}`,
  );
}

// --- memory: a 100 MB endless body against the cap ---------------------------------------------
const ENDLESS_LIMIT = 100 * MB;
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "text/plain" });
  const chunk = Buffer.alloc(64 * 1024, "x");
  let written = 0;
  let open = true;
  response.on("close", () => {
    open = false;
  });
  const pump = () => {
    while (open && written < ENDLESS_LIMIT) {
      written += chunk.length;
      if (!response.write(chunk)) {
        response.once("drain", pump);
        return;
      }
    }
    if (open) response.end();
  };
  pump();
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${server.address().port}/endless`;

async function peakRssGrowth(action) {
  globalThis.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const detail = await action();
  const elapsed = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { growth: (peak - base) / MB, ms: elapsed, detail };
}

const tool = createNodeWebFetchTool({ allowHosts: ["127.0.0.1"], cacheTtlMs: 0 });
const capped = await peakRssGrowth(async () => {
  const result = await tool.run({ url });
  return result.success
    ? `${(result.data.total / MB).toFixed(1)} MB read, body_truncated=${result.data.body_truncated}`
    : result.error.code;
});
const naive = await peakRssGrowth(async () => {
  const text = await (await fetch(url)).text();
  return `${(text.length / MB).toFixed(1)} MB read`;
});
server.close();

console.log("\nPeak RSS growth while a 100 MB endless body is read\n");
console.log(
  `${"reader".padEnd(44)}${"peak RSS growth".padStart(16)}${"time".padStart(10)}  result`,
);
console.log(
  `${"web_fetch (5 MiB default cap, streamed)".padEnd(44)}${`${capped.growth.toFixed(1)} MB`.padStart(16)}${`${capped.ms.toFixed(0)} ms`.padStart(10)}  ${capped.detail}`,
);
console.log(
  `${"fetch(url).then(r => r.text()) (no cap)".padEnd(44)}${`${naive.growth.toFixed(1)} MB`.padStart(16)}${`${naive.ms.toFixed(0)} ms`.padStart(10)}  ${naive.detail}`,
);
if (failed) process.exitCode = 1;
