import { type ChildProcess, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import {
  CLI_PATH,
  PACKAGE_DIRECTORY,
  requireBuiltCli,
  waitForExit,
  waitUntil,
} from "./spawn-server.js";

/** A spawned `agentool-mcp --http` process. */
export interface HttpProcess {
  child: ChildProcess;
  /** The endpoint it printed (`http://127.0.0.1:<port>/mcp`). */
  url: URL;
  port: number;
  /** The generated token it printed, when it printed one. */
  token: string | undefined;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Spawns the built bin with `args` (include `--http <port>`) and waits for its `listening on`
 * line.
 *
 * @param args - command-line flags
 * @param env - extra environment variables
 * @param nodeOptions - flags for node itself (before the script), e.g. `--import <hook>`
 * @returns the running process
 * @throws Error with its stderr when it exits instead
 */
export async function startHttpProcess(
  args: readonly string[],
  env: Record<string, string> = {},
  nodeOptions: readonly string[] = [],
): Promise<HttpProcess> {
  requireBuiltCli();
  const child = spawn(process.execPath, [...nodeOptions, CLI_PATH, ...args], {
    cwd: PACKAGE_DIRECTORY,
    stdio: ["ignore", "ignore", "pipe"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), ...env },
  });
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  await waitUntil(
    () => /listening on (\S+)/.test(output) || child.exitCode !== null,
    `the HTTP server never said where it listens:\n${output}`,
  );
  const address = /listening on (\S+)/.exec(output)?.[1];
  if (address === undefined) throw new Error(`the server exited:\n${output}`);
  const url = new URL(address);
  return {
    child,
    url,
    port: Number(url.port),
    token: /bearer token \(send Authorization: Bearer <token>\): (\S+)/.exec(output)?.[1],
    stderr: () => output,
    async stop() {
      if (child.exitCode === null && child.pid !== undefined) {
        child.kill("SIGTERM");
        await waitForExit(child.pid);
      }
    },
  };
}

/** The `initialize` request of a raw client, at a given protocol version. */
export function initializeBody(protocolVersion = "2025-11-25", id = 1): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "raw-test", version: "1.0.0" },
    },
  });
}
