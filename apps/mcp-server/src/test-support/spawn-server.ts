import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/**
 * The bin the tests spawn, as published (`bin` in package.json): the bundle of `dist/cli.js`
 * and the families (`node dist/bin/agentool-mcp.js`).
 */
export const CLI_PATH = fileURLToPath(new URL("../../dist/bin/agentool-mcp.js", import.meta.url));

/** The package directory (the spawned server's working directory). */
export const PACKAGE_DIRECTORY = fileURLToPath(new URL("../..", import.meta.url)).replace(
  /\/$/,
  "",
);

/**
 * Fails with a clear message when the bin has not been built: the tests run the real bin.
 *
 * @example
 * beforeAll(requireBuiltCli);
 */
export function requireBuiltCli(): void {
  if (!existsSync(CLI_PATH)) {
    throw new Error(
      `${CLI_PATH} is missing: the tests spawn the built bin. Build it first: pnpm exec turbo run build --filter=@agentool/mcp-server...`,
    );
  }
}

/** A spawned `agentool-mcp` over stdio with a connected SDK client. */
export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  /** The server's pid. */
  pid: number;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Resolves when stderr contains `text` (rejects after `timeoutMs`, naming what it saw). */
  waitForStderr(text: string | RegExp, timeoutMs?: number): Promise<string>;
  /** Closes the client (stdin ends) and waits for the process to exit. */
  close(): Promise<void>;
}

/**
 * Spawns the built bin with `args` and connects an SDK `Client` over stdio.
 *
 * @param args - command-line flags
 * @param options - client capabilities and setup run before connecting (request handlers)
 * @returns the session
 * @example
 * const session = await startStdioSession(["--root", directory, "--families", "fs"]);
 */
export async function startStdioSession(
  args: readonly string[],
  options: {
    capabilities?: ClientOptions["capabilities"];
    setup?: (client: Client) => void;
    env?: Record<string, string>;
  } = {},
): Promise<StdioSession> {
  requireBuiltCli();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI_PATH, ...args],
    cwd: PACKAGE_DIRECTORY,
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), ...options.env },
  });
  let output = "";
  const waiters = new Set<() => void>();
  transport.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const waiter of waiters) waiter();
  });
  const client = new Client(
    { name: "agentool-mcp-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  options.setup?.(client);
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("the server did not start");
  const waitForStderr = (text: string | RegExp, timeoutMs = 20_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = typeof text === "string" ? output.includes(text) : text.test(output);
        if (!found) return false;
        waiters.delete(onData);
        clearTimeout(timer);
        resolve(output);
        return true;
      };
      const onData = () => void check();
      const timer = setTimeout(() => {
        waiters.delete(onData);
        reject(new Error(`stderr never showed ${String(text)}; it holds:\n${output}`));
      }, timeoutMs);
      waiters.add(onData);
      check();
    });
  return {
    client,
    transport,
    pid,
    stderr: () => output,
    waitForStderr,
    async close() {
      await client.close();
      await waitForExit(pid);
    },
  };
}

/**
 * Whether a process is still running (not a zombie).
 *
 * @param pid - the process id
 * @returns `true` while it runs
 */
export function isRunning(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return !/^State:\s+Z/m.test(status);
  } catch {
    return false;
  }
}

/**
 * Waits until a process has exited (polls /proc).
 *
 * @param pid - the process id
 * @param timeoutMs - give up after this long
 */
export async function waitForExit(pid: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not exit`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The descendants of a process, from /proc/<pid>/task/<tid>/children, with their command names.
 *
 * @param pid - the ancestor
 * @returns every descendant (children, their children, …)
 */
export function descendants(pid: number): { pid: number; command: string }[] {
  const found: { pid: number; command: string }[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const current = queue.shift() as number;
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${current}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      let children: string[] = [];
      try {
        children = readFileSync(`/proc/${current}/task/${task}/children`, "utf8")
          .trim()
          .split(/\s+/)
          .filter((value) => value.length > 0);
      } catch {
        // the task ended
      }
      for (const child of children.map(Number)) {
        let command = "?";
        try {
          command = readFileSync(`/proc/${child}/comm`, "utf8").trim();
        } catch {
          // it ended
        }
        if (isRunning(child)) found.push({ pid: child, command });
        queue.push(child);
      }
    }
  }
  return found;
}

/**
 * Polls until `condition` holds (rejects with `message` after `timeoutMs`).
 *
 * @param condition - checked every 25 ms
 * @param message - what the failure says
 * @param timeoutMs - the deadline
 */
export async function waitUntil(
  condition: () => boolean,
  message: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A temporary directory with files (`{ "a.txt": "…", "src/b.ts": "…" }`), removed by `cleanup`.
 *
 * @param files - relative path → content
 * @returns the directory and its cleanup
 */
export function temporaryDirectory(files: Record<string, string> = {}): {
  path: string;
  cleanup(): void;
} {
  const path = mkdtempSync(join(tmpdir(), "agentool-mcp-"));
  for (const [name, content] of Object.entries(files)) {
    const file = join(path, name);
    execFileSync("mkdir", ["-p", dirname(file)]);
    writeFileSync(file, content);
  }
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Makes a directory a git repository with one commit of everything in it.
 *
 * @param path - the directory
 */
export function initializeRepository(path: string): void {
  const environment = {
    ...process.env,
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.invalid",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.invalid",
    GIT_CONFIG_NOSYSTEM: "1",
  };
  const git = (...args: string[]) =>
    execFileSync("git", args, { cwd: path, env: environment, stdio: "ignore" });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "--all");
  git("commit", "--quiet", "--no-verify", "--message", "first");
}

/** What running the bin to completion produced. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built bin to completion (for --help, --version and bad command lines).
 *
 * @param args - command-line flags
 * @returns the exit code and output
 */
export function runCli(args: readonly string[]): Promise<CliRun> {
  requireBuiltCli();
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, [CLI_PATH, ...args], {
      cwd: PACKAGE_DIRECTORY,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}
