import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ReadmeBlock, toRunnableModule } from "./readme-blocks.js";

/** What one run of a block did. */
export interface BlockRun {
  /** The process's exit code (`null` when it was killed, e.g. by the time limit). */
  exitCode: number | null;
  /** stdout and stderr, interleaved per stream (stdout first). */
  output: string;
  /** Wall time in milliseconds. */
  milliseconds: number;
}

/** How long one block may run before it counts as hung. */
export const BLOCK_TIMEOUT_MS = 60_000;

/**
 * A name for a block's files: the README's folder and the fence's line, e.g.
 * `packages-tools-fs-line-25`.
 *
 * @param block - the block
 * @returns a file-name-safe identifier
 */
export function blockSlug(block: ReadmeBlock): string {
  const folder = block.readme.replace(/\/?README\.md$/, "") || "root";
  return `${folder.replaceAll("/", "-")}-line-${block.line}`;
}

/**
 * Runs a block as written: its types stripped into `<moduleFolder>/<slug>.mjs` (so its imports
 * resolve from `moduleFolder`'s `node_modules`), started with `node` in a fresh empty working
 * folder, with no model key in its environment.
 *
 * @param block - the block to run
 * @param moduleFolder - where the module is written; its `node_modules` serves the imports
 * @param workingFolder - the run's working folder (a fresh temporary one when omitted)
 * @returns the exit code, the output and the time taken
 */
export async function runBlock(
  block: ReadmeBlock,
  moduleFolder: string,
  workingFolder?: string,
): Promise<BlockRun> {
  mkdirSync(moduleFolder, { recursive: true });
  const file = join(moduleFolder, `${blockSlug(block)}.mjs`);
  writeFileSync(file, toRunnableModule(block.code));
  const cwd = workingFolder ?? mkdtempSync(join(tmpdir(), `doc-test-${blockSlug(block)}-`));
  return runNode([file], cwd);
}

/**
 * Starts `node` with arguments and collects what it prints.
 *
 * @param args - node's arguments, e.g. the module's path
 * @param cwd - the working folder
 * @returns the exit code, the output and the time taken
 */
export function runNode(args: readonly string[], cwd: string): Promise<BlockRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...args],
      { cwd, env: blockEnvironment(), timeout: BLOCK_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : null;
        resolve({
          exitCode,
          output: `${stdout}${stderr}`,
          milliseconds: Math.round(performance.now() - started),
        });
      },
    );
  });
}

/** The environment of a run: the test's own, minus every provider key and Node option. */
function blockEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" };
  for (const name of Object.keys(environment)) {
    if (/_API_KEY$|^OPENAI_|^ANTHROPIC_|^GEMINI_|^GOOGLE_|^NODE_OPTIONS$|^VITEST/.test(name)) {
      delete environment[name];
    }
  }
  return environment;
}

/**
 * Runs async jobs with at most `limit` of them at once.
 *
 * @param limit - how many may run together
 * @returns a function that queues a job and resolves with its result
 * @example
 * const queue = createLimiter(2);
 * await Promise.all(blocks.map((block) => queue(() => runBlock(block, folder))));
 */
export function createLimiter(limit: number): <T>(job: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (job) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running += 1;
    try {
      return await job();
    } finally {
      running -= 1;
      waiting.shift()?.();
    }
  };
}
