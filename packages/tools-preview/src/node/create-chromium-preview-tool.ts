import { resolve } from "node:path";
import { AgentoolError, parseOptions } from "@agentool/contract";
import type { LaunchOptions } from "playwright-core";
import { z } from "zod";
import { type PreviewEngineOptions, previewEngineOptionsShape } from "../engine/engine-options.js";
import { DEFAULT_MAX_ARTIFACT_BYTES } from "../engine/limits.js";
import { createPreviewToolFromBackend, type PreviewTool } from "../preview.js";
import { createChromiumBackend } from "./chromium-backend.js";
import { createRootReader } from "./root-reader.js";

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
  const read =
    parsed.root !== undefined
      ? createRootReader(parsed.root, parsed.maxArtifactBytes ?? DEFAULT_MAX_ARTIFACT_BYTES)
      : parsed.read;
  const backend = createChromiumBackend({
    ...(parsed.executablePath === undefined ? {} : { executablePath: parsed.executablePath }),
    ...(parsed.launchOptions === undefined ? {} : { launchOptions: parsed.launchOptions }),
  });
  const engineOptions: PreviewEngineOptions = { ...parsed };
  delete (engineOptions as ChromiumPreviewToolOptions).root;
  if (read !== undefined) engineOptions.read = read;
  // The folder as the model sees it in the fs and git families: absolute paths under it open.
  if (parsed.root !== undefined && parsed.displayRoot === undefined)
    engineOptions.displayRoot = resolve(parsed.root);
  return createPreviewToolFromBackend(backend, engineOptions);
}
