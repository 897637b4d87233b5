import { AgentoolError, parseOptions } from "@agentool/contract";
import { z } from "zod";
import { type PreviewEngineOptions, previewEngineOptionsShape } from "./engine/engine-options.js";
import { createIframeBackend, type PreviewFrameFactory } from "./iframe-backend.js";
import { createPreviewToolFromBackend, type PreviewTool } from "./preview.js";

/** Options of {@link createPreviewTool}. */
export interface PreviewToolOptions extends PreviewEngineOptions {
  /** Shows each session's frame (e.g. in a panel) so the user watches what the agent tests. */
  attach?: (frame: HTMLIFrameElement) => void;
  /** Makes the iframe (the test and DI seam). */
  frameFactory?: PreviewFrameFactory;
}

const optionsSchema = z
  .object({
    ...previewEngineOptionsShape,
    attach: z
      .custom<(frame: HTMLIFrameElement) => void>((value) => typeof value === "function", {
        message: "attach must be a function (frame) => void",
      })
      .optional(),
    frameFactory: z
      .custom<PreviewFrameFactory>((value) => typeof value === "function", {
        message: "frameFactory must be a function () => HTMLIFrameElement",
      })
      .optional(),
  })
  .strict();

/**
 * The preview tool in browsers: each session is a sandboxed iframe (`sandbox="allow-scripts"`,
 * opaque origin) with an injected CSP (`default-src 'none'`) and a driver script, talking over
 * `postMessage`. Imports anywhere; outside a browser each call refuses with `NOT_CONFIGURED`.
 *
 * @param options - `read` or `fileSystem`, optional `attach` / `frameFactory`, limits
 * @returns the `preview` tool
 * @example
 * const preview = createPreviewTool({ read: (path) => workspace.readFile(path), attach: (frame) => panel.append(frame) });
 */
export function createPreviewTool(options: PreviewToolOptions): PreviewTool {
  const parsed = parseOptions("createPreviewTool", optionsSchema, options) as PreviewToolOptions;
  if ((parsed.read === undefined) === (parsed.fileSystem === undefined))
    throw new AgentoolError(
      "createPreviewTool: give exactly one artifact source — read(path, signal) or fileSystem.",
    );
  const backend = createIframeBackend({
    ...(parsed.attach === undefined ? {} : { attach: parsed.attach }),
    ...(parsed.frameFactory === undefined ? {} : { frameFactory: parsed.frameFactory }),
  });
  const { attach: _attach, frameFactory: _frameFactory, ...engineOptions } = parsed;
  return createPreviewToolFromBackend(backend, engineOptions);
}
