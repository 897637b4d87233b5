// The MCP rows of issue 29, each against the reference filesystem server through the same SDK
// client over stdio, ratios measured inside one run by the shared discipline (measureRatio):
// - list_directory of the 3,000-entry folder, our first page of 500 vs the reference's listing;
// - a 100-line page of a file: our read_file vs the reference's read_text_file (head);
// - start to first answer: spawn → initialize → first tools/call answered, a fresh process per
//   sample (ours with its default families);
// plus what a call costs around tool.run (SDK client and server in memory, no pipe), and start to
// the first tools/list (no target: the lazy server loads its families there).
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { formatRatio, measureRatio } from "./discipline.mjs";

const CALLS_PER_ROUND = Number(process.env.BENCH_MCP_CALLS ?? 50);
const STARTS_PER_ROUND = Number(process.env.BENCH_MCP_STARTS ?? 5);

/** One round trip of a tools/call; throws on an error result. */
async function callOnce(client, label, name, args) {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    throw new Error(`${label} ${name} failed: ${JSON.stringify(result.content).slice(0, 300)}`);
  }
  return result;
}

/** Clients of started servers, closed untimed before the next sample. */
const openClients = [];

async function closeOpenClients() {
  await Promise.all(openClients.splice(0).map((client) => client.close()));
}

/**
 * Spawns a server, initializes, calls one tool (or lists the tools): resolves once answered and
 * leaves the client open (an idle server waiting on stdin), to be closed untimed.
 */
async function startToFirstAnswer({ args, cwd, request }) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "agentool-bench", version: "0.0.0" });
  openClients.push(client);
  await client.connect(transport);
  if (request === "list") await client.listTools();
  else await callOnce(client, args[0], request[0], request[1]);
}

const milliseconds = (value) => `${value.toFixed(2)} ms`;

/** One printed row: label, ours, reference, ratio (min–max), target and ok/MISS. */
function printRow(label, result, target) {
  const { ours, baseline: reference, ratio } = result;
  const verdict = result.refused
    ? ""
    : target === undefined
      ? "(no target)"
      : ratio <= target
        ? "ok"
        : "MISS";
  console.log(
    `${label.padEnd(52)} ${result.refused ? "—".padStart(11) : milliseconds(ours).padStart(11)} ${result.refused ? "—".padStart(11) : milliseconds(reference).padStart(11)}  ${formatRatio(result).padEnd(22)} ${target === undefined ? "".padEnd(7) : `≤ ${target}×`.padEnd(7)} ${verdict}`,
  );
}

/**
 * Runs and prints the issue-29 rows.
 *
 * @param options - the two connected stdio clients, the binaries, the workspace and the in-memory server factory
 */
export async function runTargetRows({
  ours,
  reference,
  oursBin,
  referenceBin,
  workspace,
  createAgentoolMcpServer,
  createNodeFsTools,
}) {
  console.log(
    `\nIssue 29 rows: ${CALLS_PER_ROUND} alternating calls per round (BENCH_MCP_CALLS), ${STARTS_PER_ROUND} alternating starts per round (BENCH_MCP_STARTS)`,
  );
  console.log(
    `${"row".padEnd(52)} ${"ours".padStart(11)} ${"reference".padStart(11)}  ${"ratio (min–max)".padEnd(22)} ${"target".padEnd(7)}`,
  );
  const listing = await measureRatio({
    callsPerRound: CALLS_PER_ROUND,
    ours: () => callOnce(ours.client, ours.label, "list_directory", { path: "wide" }),
    baseline: () =>
      callOnce(reference.client, reference.label, "list_directory", {
        path: join(workspace, "wide"),
      }),
  });
  printRow("list_directory 3,000 entries, first page of 500", listing, 1.2);
  const page = await measureRatio({
    callsPerRound: CALLS_PER_ROUND,
    ours: () => callOnce(ours.client, ours.label, "read_file", { path: "page.txt", limit: 100 }),
    baseline: () =>
      callOnce(reference.client, reference.label, "read_text_file", {
        path: join(workspace, "page.txt"),
        head: 100,
      }),
  });
  printRow("read_file 100-line page", page, 1.2);

  const oursStart = {
    args: [oursBin, "--root", workspace],
    cwd: workspace,
    request: ["read_file", { path: "page.txt", limit: 100 }],
  };
  const referenceStart = {
    args: [referenceBin, workspace],
    cwd: workspace,
    request: ["read_text_file", { path: join(workspace, "page.txt"), head: 100 }],
  };
  for (const [label, request, target] of [
    ["start to first answer (a read_file call)", undefined, 1.2],
    ["start to first tools/list", "list", undefined],
  ]) {
    const oursRun = () =>
      startToFirstAnswer(request === undefined ? oursStart : { ...oursStart, request });
    const start = await measureRatio({
      callsPerRound: STARTS_PER_ROUND,
      // The previous samples' servers are closed here, untimed.
      prepare: async () => {
        await closeOpenClients();
        return oursRun;
      },
      ours: oursRun,
      baseline: () =>
        startToFirstAnswer(request === undefined ? referenceStart : { ...referenceStart, request }),
    });
    await closeOpenClients();
    printRow(label, start, target);
  }

  // What the server adds to a call beyond tool.run and rendering: in memory, no pipe, no process.
  const agentool = createAgentoolMcpServer({ root: workspace, families: ["fs"], log: () => {} });
  const client = new Client({ name: "agentool-bench", version: "0.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await agentool.connect(serverSide);
  await client.connect(clientSide);
  const direct = createNodeFsTools({ root: workspace });
  for (const [name, args] of [
    ["list_directory", { path: "wide" }],
    ["read_file", { path: "page.txt", limit: 100 }],
  ]) {
    const tool = direct.find((candidate) => candidate.name === name);
    const overhead = await measureRatio({
      callsPerRound: CALLS_PER_ROUND,
      ours: () => callOnce(client, "in-memory agentool-mcp", name, args),
      baseline: async () => tool.renderResult(await tool.run(args)),
    });
    console.log(
      `  ${name} in memory: SDK client + agentool-mcp ${milliseconds(overhead.ours)}, tool.run + render alone ${milliseconds(overhead.baseline)} — around tool.run ${milliseconds(overhead.ours - overhead.baseline)} (${formatRatio(overhead)})`,
    );
  }
  await client.close();
  await agentool.dispose();
}
