#!/usr/bin/env node
import { randomBytes } from "node:crypto";
import { AgentoolError } from "@agentool/contract";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import {
  type CommandLineOptions,
  formatHelp,
  parseCommandLine,
  UsageError,
} from "./command-line.js";
import {
  AGENTOOL_MCP_SERVER_VERSION,
  type AgentoolMcpServerOptions,
  createAgentoolMcpServer,
  resolveRoot,
} from "./create-agentool-mcp-server.js";
import { startHttpServer } from "./http-server.js";

// stdout carries the protocol: anything a library prints goes to stderr instead.
console.log = console.error;
console.info = console.error;
console.debug = console.error;

function log(line: string): void {
  process.stderr.write(`agentool-mcp: ${line}\n`);
}

function fail(message: string, code: number): never {
  process.stderr.write(`agentool-mcp: ${message}\n`);
  if (code === 2) process.stderr.write("Run agentool-mcp --help for every flag.\n");
  process.exit(code);
}

function serverOptions(options: CommandLineOptions): AgentoolMcpServerOptions {
  return {
    ...(options.root === undefined ? {} : { root: options.root }),
    families: options.families,
    mode: options.mode,
    allowCommands: options.allowCommands,
    ...(options.searxng === undefined ? {} : { searxng: options.searxng }),
    allowHosts: options.allowHosts,
    ...(options.knowledgeDir === undefined ? {} : { knowledgeDir: options.knowledgeDir }),
    ...(options.memoryDir === undefined ? {} : { memoryDir: options.memoryDir }),
    ...(options.skillsDir === undefined ? {} : { skillsDir: options.skillsDir }),
    fixedRoot: options.fixedRoot,
    log,
  };
}

/** Runs `work` once on stdin end, SIGINT or SIGTERM, then exits. */
function onShutdown(work: () => Promise<void>, watchStdin: boolean): void {
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`shutting down (${reason}).`);
    work()
      .catch((error: unknown) => log(`shutdown: ${error instanceof Error ? error.message : error}`))
      .finally(() => process.stdout.write("", () => process.exit(0)));
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  if (watchStdin) {
    process.stdin.once("end", () => stop("stdin closed"));
    process.stdin.once("close", () => stop("stdin closed"));
  }
}

async function main(): Promise<void> {
  let commandLine: ReturnType<typeof parseCommandLine>;
  try {
    commandLine = parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) fail(error.message, 2);
    throw error;
  }
  if (commandLine.action === "help") {
    process.stdout.write(formatHelp(AGENTOOL_MCP_SERVER_VERSION));
    return;
  }
  if (commandLine.action === "version") {
    process.stdout.write(`${AGENTOOL_MCP_SERVER_VERSION}\n`);
    return;
  }
  const options = commandLine.options;
  const configuration = serverOptions(options);
  try {
    if (options.root !== undefined) resolveRoot(options.root, "--root");
  } catch (error) {
    if (error instanceof AgentoolError) fail(error.message, 2);
    throw error;
  }
  log(
    `agentool-mcp ${AGENTOOL_MCP_SERVER_VERSION}: families ${options.families.join(", ")}, ${options.mode}.`,
  );

  if (options.http === undefined) {
    const agentool = createAgentoolMcpServer(configuration);
    const transport = new StdioServerTransport();
    await agentool.connect(transport);
    onShutdown(() => agentool.dispose(), true);
    return;
  }

  const http = options.http;
  let token = http.token;
  if (token !== undefined) {
    log(
      "warning: --token is visible to other users in ps; prefer the AGENTOOL_MCP_TOKEN environment variable.",
    );
  } else if ((process.env.AGENTOOL_MCP_TOKEN ?? "").length > 0) {
    token = process.env.AGENTOOL_MCP_TOKEN as string;
  } else {
    token = randomBytes(32).toString("base64url");
    log(`bearer token (send Authorization: Bearer <token>): ${token}`);
  }
  // Fail on bad options now rather than at the first session.
  await createAgentoolMcpServer({ ...configuration, log: () => {} }).dispose();
  const loopback = ["127.0.0.1", "localhost", "::1", "[::1]"].includes(http.host);
  if (!loopback) {
    log(
      `warning: listening on ${http.host}, not loopback: anyone who can reach it and holds the token can use these tools.`,
    );
  }
  const server = await startHttpServer({
    port: http.port,
    host: http.host,
    allowOrigins: http.allowOrigins,
    token,
    createSession: () => createAgentoolMcpServer(configuration),
    log,
  });
  log(`listening on ${server.url}`);
  onShutdown(() => server.close(), false);
}

main().catch((error: unknown) => {
  if (error instanceof AgentoolError) fail(error.message, 2);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
});
