import { parentPort } from "node:worker_threads";
import { ToolFailureError } from "@agentool/contract";
import { extractPdf, type PdfJob } from "./pdf-extract.js";
import { createInflatingStreamClass } from "./pdf-inflate.js";

/**
 * The PDF worker thread: pdf.js runs here, so a hostile PDF (a deflate-bomb content stream, a
 * page that takes seconds to lay out) never blocks the main event loop, and the thread is
 * terminated when the call times out, is aborted or passes its memory ceiling. One job at a
 * time; replies `{ id, ok, result | error }`. pdf.js's streams inflate through this thread's own
 * `DecompressionStream` (`pdf-inflate.ts`): in one native call each, and a stream that would
 * inflate past the job's `maxMemoryBytes` is answered `TOO_LARGE` at once (the main thread then
 * ends this thread).
 *
 * @internal
 */

/** The job running: its id and memory ceiling. */
let current: { id: number; ceiling: number } | undefined;

globalThis.DecompressionStream = createInflatingStreamClass({
  ceiling: () => current?.ceiling ?? Number.POSITIVE_INFINITY,
  onTooLarge: (ceiling) => {
    if (current === undefined) return;
    parentPort?.postMessage({
      id: current.id,
      ok: false,
      error: { code: "TOO_LARGE", message: `a stream inflates past ${ceiling} bytes` },
    });
    current = undefined;
  },
});

parentPort?.on("message", async (message: { id: number; job: PdfJob }) => {
  const id = message.id;
  current = { id, ceiling: message.job.maxMemoryBytes };
  try {
    const result = await extractPdf(message.job);
    if (current?.id === id) parentPort?.postMessage({ id, ok: true, result });
  } catch (error) {
    if (current?.id !== id) return;
    const known = error instanceof ToolFailureError;
    parentPort?.postMessage({
      id,
      ok: false,
      error: {
        code: known ? error.code : "UNSUPPORTED",
        message: error instanceof Error ? error.message : String(error),
        ...(known && error.hint !== undefined ? { hint: error.hint } : {}),
      },
    });
  } finally {
    if (current?.id === id) current = undefined;
  }
});
