// design_read beside Framelink's figma-developer-mcp (issue 34): what the model reads per frame
// of two recorded Figma files, in characters and o200k tokens (js-tiktoken's o200k_base, the
// tokenizer `pnpm bench tokens` uses), ours against theirs in its default "tree" format (and its
// YAML and JSON for reference); whether anything theirs gives is missing from ours (the no-loss
// check of lib/design-facts.mjs, also run by bench/src/design-no-loss.test.ts); and the time per
// call, both readers called the same way: an MCP client call to a stdio server process.
//
// The recorded files are written from the typed fixtures of packages/tools-design/src/test-support
// (packages/tools-design/recordings/*.json.gz) and served on 127.0.0.1 by lib/figma-recorded-server.mjs. Their server runs
// unchanged: its fetch of https://api.figma.com is redirected there by lib/figma-api-redirect.mjs.
//
// Run: pnpm bench design
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { compareFacts, ourFacts, theirFacts } from "./lib/design-facts.mjs";
import {
  createOurReader,
  FRAMELINK_VERSION,
  startOurStdioReader,
  startTheirReader,
} from "./lib/design-readers.mjs";
import { benchHeader, formatRatio, measureRatio } from "./lib/discipline.mjs";
import {
  loadRecordedFiles,
  startRecordedFigmaServer,
  topLevelFrames,
} from "./lib/figma-recorded-server.mjs";

const encoder = new Tiktoken(o200k);
const tokens = (text) => encoder.encode(text).length;

console.log(
  `${benchHeader(`design_read vs Framelink figma-developer-mcp ${FRAMELINK_VERSION} on recorded Figma files (pnpm bench design)`)}\n`,
);

const recorded = loadRecordedFiles();
const server = await startRecordedFigmaServer();
const ours = createOurReader(server.origin);
const theirs = {
  tree: await startTheirReader(server.origin, "tree"),
  yaml: await startTheirReader(server.origin, "yaml"),
  json: await startTheirReader(server.origin, "json"),
};

const pad = (value, width) => String(value).padStart(width);
const ratio = (a, b) => (a / b).toFixed(2);
console.log(
  `${"file / frame".padEnd(44)} ${pad("ours ch", 8)} ${pad("ours tok", 8)} ${pad("tree ch", 8)} ${pad("tree tok", 8)} ${pad("tok ×", 6)} ${pad("yaml tok", 8)} ${pad("json tok", 8)} ${pad("checked", 7)} lost`,
);
let failed = false;
const largest = [];
for (const { key, file } of recorded) {
  const sum = { ours: 0, oursTokens: 0, tree: 0, treeTokens: 0, yaml: 0, json: 0, checked: 0 };
  for (const frame of topLevelFrames(file)) {
    const ourText = await ours.read(key, frame.id);
    const tree = await theirs.tree.read(key, frame.id);
    const yaml = await theirs.yaml.read(key, frame.id);
    const json = await theirs.json.read(key, frame.id);
    const { losses, compared } = compareFacts(theirFacts(JSON.parse(json)), ourFacts(ourText));
    const row = {
      ours: ourText.length,
      oursTokens: tokens(ourText),
      tree: tree.length,
      treeTokens: tokens(tree),
      yaml: tokens(yaml),
      json: tokens(json),
      checked: compared,
    };
    for (const name of Object.keys(sum)) sum[name] += row[name];
    largest.push({ key, frame, size: row.treeTokens });
    if (losses.length > 0 || row.oursTokens >= row.treeTokens || row.ours >= row.tree)
      failed = true;
    console.log(
      `${`  ${frame.name}`.slice(0, 44).padEnd(44)} ${pad(row.ours, 8)} ${pad(row.oursTokens, 8)} ${pad(row.tree, 8)} ${pad(row.treeTokens, 8)} ${pad(ratio(row.oursTokens, row.treeTokens), 6)} ${pad(row.yaml, 8)} ${pad(row.json, 8)} ${pad(compared, 7)} ${losses.length}${losses.length > 0 ? ` (${losses.slice(0, 3).join("; ")})` : ""}`,
    );
  }
  console.log(
    `${`${file.name}: ${topLevelFrames(file).length} frames`.padEnd(44)} ${pad(sum.ours, 8)} ${pad(sum.oursTokens, 8)} ${pad(sum.tree, 8)} ${pad(sum.treeTokens, 8)} ${pad(ratio(sum.oursTokens, sum.treeTokens), 6)} ${pad(sum.yaml, 8)} ${pad(sum.json, 8)} ${pad(sum.checked, 7)}`,
  );
}
console.log(
  "\nch = characters, tok = o200k tokens; tok × = ours / theirs (tree, their default); checked = values of theirs (text, size, position, colour, auto-layout, font) looked up in ours; lost = those not found.",
);

// Time per call: one MCP call each, interleaved, on the largest frame of each file.
const oursOverMcp = await startOurStdioReader(server.origin);
const largestByFile = new Map();
for (const entry of largest) {
  if ((largestByFile.get(entry.key)?.size ?? -1) < entry.size) largestByFile.set(entry.key, entry);
}
const timed = [...largestByFile.values()];
console.log(
  `\n${"time per call (MCP stdio), frame".padEnd(44)} ${pad("ours ms", 8)} ${pad("theirs ms", 9)}  ratio`,
);
for (const { key, frame } of timed) {
  const result = await measureRatio({
    ours: () => oursOverMcp.read(key, frame.id),
    baseline: () => theirs.tree.read(key, frame.id),
  });
  const times = result.refused
    ? `${pad("-", 8)} ${pad("-", 9)}`
    : `${pad(result.ours.toFixed(1), 8)} ${pad(result.baseline.toFixed(1), 9)}`;
  console.log(`${`  ${frame.name}`.padEnd(44)} ${times}  ${formatRatio(result)}`);
}

await oursOverMcp.close();
for (const reader of Object.values(theirs)) await reader.close();
await ours.close();
await server.close();
if (failed) {
  console.log("\nFAIL: a frame where ours is not smaller, or loses a value theirs has");
  process.exit(1);
}
