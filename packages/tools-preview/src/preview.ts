import { defineTool, type Tool, type ToolOverrides } from "@agentool/contract";
import type { PreviewEngineOptions } from "./engine/engine-options.js";
import { formatPreviewResult } from "./engine/format-preview-result.js";
import type { PreviewToolData } from "./engine/preview-data.js";
import { PreviewEngine } from "./engine/preview-engine.js";
import { previewInputSchema } from "./engine/preview-input.js";
import type { PreviewBackend } from "./preview-backend.js";

export type { PreviewToolData } from "./engine/preview-data.js";

/** The preview tool: a contract tool plus `dispose()`, which closes every session. */
export type PreviewTool = Tool<typeof previewInputSchema, PreviewToolData> & {
  /** Closes every session and releases the backend (the shared browser closes with its last tool). */
  dispose(): Promise<void>;
  /** How many sessions are open now. */
  sessionCount(): number;
};

const DEFAULT_DESCRIPTION = [
  "Runs an HTML artifact you wrote in a sandboxed browser to check it works: open, act/read/eval/shot, fix, repeat.",
  "Responses end with the console output and errors since the last call.",
  "No network: inline scripts, styles, images (data: URLs).",
].join(" ");

/**
 * Builds the preview tool over a backend: the op engine both backends share (validation, wait
 * budgets, sessions per conversation with idle-out and a FIFO cap, deadlines inside the tool's
 * timeout, console collection, rendering).
 *
 * @param backend - where artifacts run
 * @param options - artifact source, limits, overrides (already validated by the factory)
 * @returns the tool, with `dispose()`
 * @example
 * const tool = createPreviewToolFromBackend(myBackend, { read: async (path) => files[path] });
 */
export function createPreviewToolFromBackend(
  backend: PreviewBackend,
  options: PreviewEngineOptions,
): PreviewTool {
  const engine = new PreviewEngine(backend, options);
  const tool = defineTool({
    name: engine.settings.name,
    description: options.description ?? DEFAULT_DESCRIPTION,
    input: previewInputSchema,
    annotations: {
      title: "Preview an HTML artifact",
      readOnly: false,
      destructive: false,
      idempotent: false,
      openWorld: false,
    },
    tags: ["preview"],
    timeoutMs: engine.settings.timeoutMs,
    execute: (input, context) => engine.execute(input, context),
    render: formatPreviewResult,
  });
  const dispose = () => engine.dispose();
  function wrap(inner: Tool<typeof previewInputSchema, PreviewToolData>): PreviewTool {
    return Object.freeze({
      ...inner,
      withOverrides: (overrides: ToolOverrides) => wrap(inner.withOverrides(overrides)),
      dispose,
      sessionCount: () => engine.pool.size,
    }) as PreviewTool;
  }
  return wrap(tool);
}
