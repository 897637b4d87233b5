import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { AgentoolError, createSecretPathMatcher, parseOptions } from "@agentool/contract";
import type { LaunchOptions } from "playwright-core";
import { z } from "zod";
import {
  type PreviewEngineOptions,
  type PreviewReadFunction,
  previewEngineOptionsShape,
} from "../engine/engine-options.js";
import { createPreviewToolFromBackend, type PreviewTool } from "../preview.js";
import { PreviewError } from "../preview-backend.js";
import { createChromiumBackend } from "./chromium-backend.js";

/** Options of {@link createChromiumPreviewTool}. */
export interface ChromiumPreviewToolOptions extends PreviewEngineOptions {
  /** A workspace folder artifacts are read from (confined after realpath; secret paths refused). Give this, `read` or `fileSystem`. */
  root?: string;
  /** The Chromium binary. Default `/usr/bin/chromium` (Debian's `chromium` package). */
  executablePath?: string;
  /** Extra playwright-core launch options; their `args` are added to the preview's flags. */
  launchOptions?: LaunchOptions;
}

const optionsSchema = z
  .object({
    ...previewEngineOptionsShape,
    root: z.string().min(1).optional(),
    executablePath: z.string().min(1).optional(),
    launchOptions: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

/**
 * Reads artifacts from a folder: the path is confined to the root after `realpath` (symlinks
 * and `..` cannot leave it) and secret paths (`.env`, keys…) are refused.
 *
 * @param root - the workspace folder
 * @returns a `read(path, signal)` for the preview
 */
export function createRootReader(root: string): PreviewReadFunction {
  const isSecret = createSecretPathMatcher();
  let realRoot: Promise<string> | undefined;
  return async (path) => {
    realRoot ??= realpath(root);
    const base = await realRoot;
    if (isSecret(path))
      throw new PreviewError(
        "BLOCKED",
        `${path} is a secret path; preview does not open it.`,
        "This is policy, not a typo: open an HTML artifact instead.",
      );
    let target: string;
    try {
      target = await realpath(resolve(base, path));
    } catch {
      throw new PreviewError(
        "FILE_NOT_FOUND",
        `${path} does not exist in the workspace.`,
        "Write the artifact first, or check the path by listing the workspace.",
      );
    }
    const inside = relative(base, target);
    if (inside.startsWith(`..${sep}`) || inside === ".." || isAbsolute(inside))
      throw new PreviewError(
        "INVALID_PATH",
        `${path} leads outside the workspace (through a symlink).`,
        "Open a file inside the workspace.",
      );
    if (isSecret(inside.split(sep).join("/")))
      throw new PreviewError(
        "BLOCKED",
        `${path} leads to a secret path; preview does not open it.`,
        "This is policy, not a typo: open an HTML artifact instead.",
      );
    const info = await stat(target);
    if (info.isDirectory())
      throw new PreviewError(
        "INVALID_PATH",
        `${path} is a directory.`,
        "Open an HTML file in it, e.g. index.html.",
      );
    return readFile(target);
  };
}

/**
 * The preview tool on Node: artifacts run in headless Chromium driven by playwright-core (one
 * browser shared by every session, one context per session, every request outside the artifact
 * aborted at the network layer). Call `dispose()` when done; the browser closes with the last
 * tool, and on process exit.
 *
 * @param options - `root`, `read` or `fileSystem`; executable, launch options, limits
 * @returns the `preview` tool
 * @example
 * const preview = createChromiumPreviewTool({ root: "./workspace" });
 * await preview.run({ op: "open", path: "snake.html" }, { threadId: "t1" });
 * await preview.run({ op: "shot" }, { threadId: "t1" });
 * await preview.dispose();
 */
export function createChromiumPreviewTool(options: ChromiumPreviewToolOptions): PreviewTool {
  const parsed = parseOptions(
    "createChromiumPreviewTool",
    optionsSchema,
    options,
  ) as ChromiumPreviewToolOptions;
  const sources = [parsed.root, parsed.read, parsed.fileSystem].filter(
    (item) => item !== undefined,
  ).length;
  if (sources !== 1)
    throw new AgentoolError(
      `createChromiumPreviewTool: give exactly one artifact source — root (a folder), read(path, signal) or fileSystem — got ${sources}.`,
    );
  const read = parsed.root !== undefined ? createRootReader(parsed.root) : parsed.read;
  const backend = createChromiumBackend({
    ...(parsed.executablePath === undefined ? {} : { executablePath: parsed.executablePath }),
    ...(parsed.launchOptions === undefined ? {} : { launchOptions: parsed.launchOptions }),
  });
  const engineOptions: PreviewEngineOptions = { ...parsed };
  delete (engineOptions as ChromiumPreviewToolOptions).root;
  if (read !== undefined) engineOptions.read = read;
  return createPreviewToolFromBackend(backend, engineOptions);
}
