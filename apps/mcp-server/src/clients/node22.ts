import { spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository's provisioning module (plain ESM, loaded at run time). */
const TOOLBOX_MODULE = fileURLToPath(
  new URL("../../../../scripts/node22-toolbox.mjs", import.meta.url),
);

/** How long a test file's `beforeAll` may wait for a first install of the toolbox (npm, ~300 MB). */
export const TOOLBOX_INSTALL_TIMEOUT_MS = 15 * 60_000;

/** Node 22 and the MCP clients that need it, as `scripts/node22-toolbox.mjs` installed them. */
export interface Node22Toolbox {
  /** The Node 22 binary. */
  node: string;
  /** Its version, e.g. `22.23.3`. */
  nodeVersion: string;
  /** Each client package and its pinned version. */
  versions: Record<string, string>;
  /** Absolute paths of `@ai-sdk/mcp` (and `./mcp-stdio`), the Inspector bin, the conformance bin. */
  entries: { aiSdkMcp: string; aiSdkMcpStdio: string; inspector: string; conformance: string };
}

let provisioning: Promise<Node22Toolbox> | undefined;

/**
 * Installs (first time) or finds the Node 22 toolbox; one install per worker, and parallel
 * workers wait on the module's lock.
 *
 * @returns the toolbox
 * @example
 * beforeAll(async () => { toolbox = await node22Toolbox(); }, TOOLBOX_INSTALL_TIMEOUT_MS);
 */
export function node22Toolbox(): Promise<Node22Toolbox> {
  provisioning ??= import(pathToFileURL(TOOLBOX_MODULE).href).then(
    (module: { provisionNode22Toolbox(): Promise<Node22Toolbox> }) =>
      module.provisionNode22Toolbox(),
  );
  return provisioning;
}

/** What a Node 22 process produced. */
export interface Node22Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script under the toolbox's Node 22 to completion.
 *
 * @param toolbox - the toolbox
 * @param args - the script and its arguments
 * @param options - working directory, environment (replaces ours), deadline
 * @returns the exit code and output
 * @throws Error naming the command and its output when it outlives the deadline
 */
export function runNode22(
  toolbox: Node22Toolbox,
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Node22Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolbox.node, args, {
      cwd: options.cwd,
      env: options.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`node ${args.join(" ")} did not finish:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
