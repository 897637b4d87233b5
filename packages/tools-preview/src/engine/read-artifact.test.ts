// The artifact read races the call's deadline (issue 27, finding 12): a host read that ignores
// its signal (a FIFO, a stuck network share) is cut off at the preview's own deadline, with the
// preview's own message, and a fileSystem seam's read likewise.
import { afterEach, describe, expect, it } from "vitest";
import { createPreviewToolFromBackend, type PreviewTool } from "../preview.js";
import { FakeBackend, never } from "../test-support/fake-backend.js";
import type { PreviewEngineOptions } from "./engine-options.js";

const tools: PreviewTool[] = [];
afterEach(async () => {
  await Promise.all(tools.splice(0).map((tool) => tool.dispose()));
});

function setup(options: PreviewEngineOptions) {
  const backend = new FakeBackend();
  const tool = createPreviewToolFromBackend(backend, { timeoutMs: 2_000, ...options });
  tools.push(tool);
  return { tool, backend };
}

describe("reading the artifact", () => {
  it("a read that ignores its signal is cut off at the preview's deadline", async () => {
    for (const options of [
      { read: () => never<string>() },
      { fileSystem: { readFile: () => never<Uint8Array>() } },
    ]) {
      const { tool, backend } = setup(options);
      const started = Date.now();
      expect(await tool.run({ op: "open", path: "game.html" })).toEqual({
        success: false,
        error: {
          code: "TIMEOUT",
          message: "preview could not read or start game.html within 500 ms.",
          retryable: true,
        },
      });
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(backend.requests).toHaveLength(0);
    }
  });
});
