import { parentPort } from "node:worker_threads";
import { ToolFailureError } from "@agentool/contract";
import { extractPdf, type PdfJob } from "./pdf-extract.js";

/**
 * The PDF worker thread: PDFium runs here, so a hostile PDF (a deflate-bomb content stream, a
 * page that takes seconds to lay out) never blocks the main event loop, and the thread is
 * terminated when the call times out, is aborted or passes its memory ceiling (the main thread
 * watches the process's memory). One job at a time; replies `{ id, ok, result | error }`.
 *
 * @internal
 */

parentPort?.on("message", async (message: { id: number; job: PdfJob }) => {
  const id = message.id;
  try {
    const result = await extractPdf(message.job);
    parentPort?.postMessage({ id, ok: true, result });
  } catch (error) {
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
  }
});
