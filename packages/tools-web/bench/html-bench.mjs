// HTML → Markdown throughput of web_fetch's converter (node-html-markdown, links made absolute)
// side by side with turndown, on generated pages of ≥ 1 MB each; then peak memory (RSS growth)
// when a 100 MB endless body from a local server hits web_fetch's byte cap, side by side with a
// plain `await response.text()`.
// Build first: npx tsc -p tsconfig.build.json   Run: node bench/html-bench.mjs
import { createServer } from "node:http";
import TurndownService from "turndown";
import { htmlToMarkdown } from "../dist/index.js";
import { createNodeWebFetchTool } from "../dist/node/index.js";

const MB = 1_048_576;
const RUNS = Number(process.env.BENCH_RUNS ?? 1);

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

function nestedPage(targetBytes) {
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

const pages = [
  ["article (headings, lists, code)", articlePage(1.5 * MB)],
  ["table (one 1 MB table)", tablePage(1 * MB)],
  ["nested cards, quotes, images", nestedPage(1.5 * MB)],
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

function measure(convert, html) {
  const times = [];
  let output = "";
  for (let run = 0; run < RUNS; run += 1) {
    const started = performance.now();
    output = convert(html);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], outputBytes: output.length };
}

console.log(`HTML → Markdown throughput (median of ${RUNS} run(s); BENCH_RUNS=3 for more)\n`);
console.log(
  `${"page".padEnd(34)}${"size".padStart(9)}  ${"web_fetch (node-html-markdown)".padStart(32)}  ${"turndown 7.2".padStart(22)}  speed-up`,
);
for (const [label, html] of pages) {
  const ours = measure((input) => htmlToMarkdown(input, "https://example.com/docs/page"), html);
  const theirs = measure((input) => turndown.turndown(input), html);
  const mbps = (result) => (html.length / MB / (result.ms / 1000)).toFixed(1);
  console.log(
    `${label.padEnd(34)}${`${(html.length / MB).toFixed(2)} MB`.padStart(9)}  ${`${ours.ms.toFixed(0)} ms · ${mbps(ours)} MB/s`.padStart(32)}  ${`${theirs.ms.toFixed(0)} ms · ${mbps(theirs)} MB/s`.padStart(22)}  ${(theirs.ms / ours.ms).toFixed(2)}×`,
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
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { growth: (peak - base) / MB, ms, detail };
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
