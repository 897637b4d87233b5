import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type ErrorCode, ToolFailureError } from "@agentool/contract";
import type { PagedDocument, ReaderInput } from "../types.js";
import { extractPdf, type PdfJob } from "./pdf-extract.js";

/**
 * Reads the requested pages of a PDF in a worker thread (heap capped at
 * {@link PDF_WORKER_MEMORY_MB} MB): the call's timeout or abort terminates the thread at once, so
 * pdf.js never blocks the event loop and a hostile PDF stops burning CPU and memory. One idle
 * thread is kept (unref'ed) for the next call. Where the compiled worker is not on disk (a
 * bundle), it runs in-process.
 *
 * @internal
 */

/** Heap cap of the PDF worker thread, MB. */
export const PDF_WORKER_MEMORY_MB = 512;

interface Reply {
  id: number;
  ok: boolean;
  result?: PagedDocument;
  error?: { code: ErrorCode; message: string; hint?: string };
}

function workerUrl(): URL | undefined {
  const beside = new URL("./pdf-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // Running from the sources (tests): the compiled worker in dist.
  const built = new URL("../../../../dist/internal/readers/pdf/pdf-worker.js", import.meta.url);
  return existsSync(fileURLToPath(built)) ? built : undefined;
}

let idle: Worker | undefined;
let nextId = 0;

function take(url: URL): Worker {
  const reused = idle;
  idle = undefined;
  if (reused !== undefined) {
    reused.ref();
    return reused;
  }
  return new Worker(url, {
    resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_MEMORY_MB, maxYoungGenerationSizeMb: 64 },
  });
}

function release(worker: Worker): void {
  if (idle === undefined) {
    worker.unref();
    worker.removeAllListeners("message");
    worker.removeAllListeners("error");
    worker.removeAllListeners("exit");
    idle = worker;
  } else void worker.terminate();
}

/**
 * Reads the requested pages of a PDF.
 *
 * @param input - the file and request (`pages` selects, `offset`/`limit` page within)
 * @returns the page of pages
 */
export async function readPdf(input: ReaderInput): Promise<PagedDocument> {
  const job: PdfJob = {
    // A copy of its own, handed over to the worker (the file's buffer may be shared).
    bytes: new Uint8Array(input.bytes),
    label: input.label,
    request: input.request,
    defaultLimit: input.defaultLimit,
    maxPageChars: input.maxPageChars,
  };
  const url = workerUrl();
  if (url === undefined) return extractPdf({ ...job, bytes: input.bytes });
  const worker = take(url);
  const id = nextId++;
  const signal = input.signal;
  return new Promise<PagedDocument>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void, keep: boolean) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (keep) release(worker);
      else void worker.terminate();
      outcome();
    };
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error("aborted")), false);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (reply: Reply) => {
      if (reply.id !== id) return;
      if (reply.ok && reply.result !== undefined)
        finish(() => resolve(reply.result as PagedDocument), true);
      else {
        const error = reply.error ?? {
          code: "INTERNAL" as ErrorCode,
          message: "the PDF worker gave no result",
        };
        finish(
          () =>
            reject(
              new ToolFailureError(
                error.code,
                error.message,
                error.hint === undefined ? {} : { hint: error.hint },
              ),
            ),
          true,
        );
      }
    });
    worker.on("error", (error) =>
      finish(
        () =>
          reject(
            new ToolFailureError(
              "TOO_LARGE",
              `${input.label} could not be read within the PDF reader's limits (${error.message}).`,
              {
                hint: `Read fewer pages at a time (pages="1-5"), or ask for a smaller file.`,
              },
            ),
          ),
        false,
      ),
    );
    worker.on("exit", () =>
      finish(
        () => reject(new ToolFailureError("INTERNAL", "The PDF worker stopped unexpectedly.")),
        false,
      ),
    );
    worker.postMessage({ id, job }, [job.bytes.buffer as ArrayBuffer]);
  });
}
