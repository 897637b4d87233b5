// The root reader never blocks and never reads more than the cap (issue 27, finding 12): a FIFO
// is refused at once (opened non-blocking, checked with fstat) and leaves no read behind; a
// file over the cap is refused by its size before a byte is read. No browser: `open` reads the
// artifact before it starts a session.
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PreviewTool } from "../preview.js";
import { createChromiumPreviewTool } from "./create-chromium-preview-tool.js";
import { createRootReader } from "./root-reader.js";

const root = mkdtempSync(join(tmpdir(), "preview-reader-"));
const fifo = join(root, "pipe.html");
// POSIX only: no FIFOs on Windows.
if (process.platform !== "win32") execFileSync("mkfifo", [fifo]);
writeFileSync(join(root, "small.html"), "<!doctype html><title>small</title>");
const MEBIBYTE = 1024 * 1024;

const tools: PreviewTool[] = [];
afterAll(async () => {
  await Promise.all(tools.map((tool) => tool.dispose()));
  // Unblocks a read still waiting on the FIFO (there is none once the reader is fixed).
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {}
});

/** Whether some process holds the FIFO open for reading (a non-blocking writer open succeeds). */
function fifoHasReader(): boolean {
  try {
    closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "ENXIO") return false;
    throw error;
  }
}

describe("the root reader", () => {
  it.skipIf(process.platform === "win32")(
    "refuses a FIFO at once with a clear error, not TIMEOUT, and leaves no read waiting on it",
    async () => {
      const preview = createChromiumPreviewTool({ root, timeoutMs: 10_000 });
      tools.push(preview);
      const started = Date.now();
      const result = await preview.run({ op: "open", path: "pipe.html" }, { threadId: "fifo" });
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(result).toMatchObject({
        success: false,
        error: { code: "INVALID_PATH", message: expect.stringContaining("not a regular file") },
      });
      expect(fifoHasReader()).toBe(false);
    },
  );

  it("refuses a 400 MiB file by its size without reading it", async () => {
    const big = join(root, "big.html");
    writeFileSync(big, "");
    truncateSync(big, 400 * MEBIBYTE);
    const read = createRootReader(root);
    const before = process.memoryUsage().rss;
    await expect(read("big.html", new AbortController().signal)).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
    expect(process.memoryUsage().rss - before).toBeLessThan(50 * MEBIBYTE);
  });

  it("reads a file up to the cap it is given, and refuses one byte more", async () => {
    const read = createRootReader(root, 35);
    expect(
      new TextDecoder().decode(
        (await read("small.html", AbortSignal.timeout(5_000))) as Uint8Array,
      ),
    ).toBe("<!doctype html><title>small</title>");
    await expect(
      createRootReader(root, 34)("small.html", AbortSignal.timeout(5_000)),
    ).rejects.toMatchObject({
      code: "TOO_LARGE",
    });
  });
});
