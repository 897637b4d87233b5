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
import { createLazyAgentoolMcpServer } from "./internal/create-lazy-server.js";
import { type OpenedGuiDisplay, openGuiDisplay } from "./internal/open-gui-display.js";
import { isLoopbackHost } from "./loopback.js";
import { checkOptionalDependencies, DependencyMissingError } from "./optional-dependencies.js";
import { AGENTOOL_MCP_SERVER_VERSION, resolveRoot } from "./resolve-root.js";
import type { AgentoolMcpServerOptions } from "./server-options.js";

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
    ...(options.families.includes("design") ? figmaOptions(options) : {}),
    fixedRoot: options.fixedRoot,
    ...(options.outputSchemas ? { outputSchemas: true } : {}),
    log,
  };
}

/** The design family's Figma token, from the host's environment as figma-developer-mcp reads it. */
function figmaOptions(options: CommandLineOptions): Partial<AgentoolMcpServerOptions> {
  const token = [process.env.FIGMA_API_KEY, process.env.FIGMA_ACCESS_TOKEN]
    .map((value) => value?.trim() ?? "")
    .find((value) => value.length > 0);
  return {
    ...(token === undefined ? {} : { figmaToken: token }),
    ...(options.figmaApiUrl === undefined ? {} : { figmaApiUrl: options.figmaApiUrl }),
  };
}

/** The gui family's display, opened before serving (exit 2 without one, 1 when it cannot start). */
async function openDisplay(options: CommandLineOptions): Promise<OpenedGuiDisplay | undefined> {
  if (!options.families.includes("gui")) return undefined;
  try {
    const opened = await openGuiDisplay(options.guiXvfb);
    log(`gui: computer drives ${opened.description}.`);
    return opened;
  } catch (error) {
    if (error instanceof UsageError) fail(error.message, 2);
    fail(`gui: ${error instanceof Error ? error.message : String(error)}`, 1);
  }
}

/** A logger that writes each distinct line once (the most recent 1,000 lines are remembered). */
function onceLogger(write: (line: string) => void): (line: string) => void {
  const seen = new Set<string>();
  return (line) => {
    if (seen.has(line)) return;
    seen.add(line);
    if (seen.size > 1_000) seen.delete(seen.values().next().value as string);
    write(line);
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
  try {
    await checkOptionalDependencies(options.families);
  } catch (error) {
    if (error instanceof DependencyMissingError) fail(error.message, 1);
    throw error;
  }
  log(
    `agentool-mcp ${AGENTOOL_MCP_SERVER_VERSION}: families ${options.families.join(", ")}, ${options.mode}.`,
  );
  const gui = await openDisplay(options);
  if (gui !== undefined) configuration.guiDisplay = gui.display;

  if (options.http === undefined) {
    // Over stdio a family's modules are imported when one of its tools is first listed or
    // called: the first answer does not wait for the families it does not need.
    const agentool = await createLazyAgentoolMcpServer(configuration);
    const transport = new StdioServerTransport();
    await agentool.connect(transport);
    onShutdown(async () => {
      try {
        await agentool.dispose();
      } finally {
        await gui?.close();
      }
    }, true);
    return;
  }

  const [{ createAgentoolMcpServer }, { startHttpServer }, { createKnowledgeResources }] =
    await Promise.all([
      import("./create-agentool-mcp-server.js"),
      import("./http-server.js"),
      import("./knowledge-resources.js"),
    ]);
  const http = options.http;
  let token = http.token;
  if (http.noAuth === true) {
    token = undefined;
    log(
      `--no-auth: no bearer token is required. Loopback only (${http.host}); the Host and Origin checks stay${(process.env.AGENTOOL_MCP_TOKEN ?? "").length > 0 ? "; AGENTOOL_MCP_TOKEN is ignored" : ""}.`,
    );
  } else if (token !== undefined) {
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
  if (!isLoopbackHost(http.host)) {
    log(
      `warning: listening on ${http.host}, not loopback: anyone who can reach it and holds the token can use these tools.`,
    );
  }
  const stateless = http.stateless === true;
  // Stateless: one fresh server per request, sharing this process's corpus sources (a cache of
  // the index on disk); its repeated start-up lines are logged once.
  const knowledgeResources =
    stateless && options.families.includes("knowledge")
      ? createKnowledgeResources({ onWarn: (message) => log(`knowledge: ${message}`) })
      : undefined;
  const logOnce = onceLogger(log);
  const server = await startHttpServer({
    port: http.port,
    host: http.host,
    allowOrigins: http.allowOrigins,
    ...(token === undefined ? { noAuth: true } : { token }),
    ...(stateless ? { stateless: true } : {}),
    ...(http.sessionIdleSeconds === undefined
      ? {}
      : { sessionIdleMs: http.sessionIdleSeconds * 1000 }),
    createSession: stateless
      ? () =>
          createAgentoolMcpServer({
            ...configuration,
            stateless: true,
            log: logOnce,
            ...(knowledgeResources === undefined ? {} : { knowledgeResources }),
          })
      : () => createAgentoolMcpServer(configuration),
    log,
  });
  if (stateless) {
    log(
      `stateless: every POST is served by a fresh server (no sessions); confined to ${options.root ?? "no root (fs and git left out)"}.`,
    );
  }
  log(`listening on ${server.url}`);
  onShutdown(async () => {
    try {
      await server.close();
      await knowledgeResources?.close();
    } finally {
      await gui?.close();
    }
  }, false);
}

main().catch((error: unknown) => {
  if (error instanceof AgentoolError) fail(error.message, 2);
  fail(error instanceof Error ? (error.stack ?? error.message) : String(error), 1);
});
