import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { type ErrorCode, formatCount, ToolFailureError } from "@agentool/contract";
import { DEFAULT_MAX_PDF_MEMORY_BYTES } from "../../read-support.js";
import type { PagedDocument, ReaderInput } from "../types.js";
import { extractPdf, type PdfJob } from "./pdf-extract.js";

/**
 * Reads the requested pages of a PDF in a worker thread, so PDFium never blocks the event loop,
 * and ends the thread — a hostile PDF then stops burning CPU and memory — when:
 * - the call's timeout or abort fires;
 * - the process's resident memory, sampled every {@link MEMORY_SAMPLE_MS} ms while the thread
 *   works, has grown past the call's `maxMemoryBytes` (`TOO_LARGE`). It is the whole process's
 *   growth: PDFium inflates streams into its WebAssembly memory, which the thread's heap cap
 *   ({@link PDF_WORKER_MEMORY_MB} MB) does not cover, and concurrent reads share the budget.
 * One thread that finished cleanly is kept (unref'ed, so it never keeps the process alive) for
 * the next call, with PDFium loaded, and ended after {@link IDLE_WORKER_MS} ms unused. Where the
 * compiled worker is not on disk (a bundle), the PDF is read in-process, without those bounds.
 *
 * @internal
 */

/** Heap cap of the PDF worker thread, MB. */
export const PDF_WORKER_MEMORY_MB = 512;

/** How often the process's resident memory is sampled while a PDF worker works, ms. */
export const MEMORY_SAMPLE_MS = 10;

/** How long the idle worker is kept, ms. */
export const IDLE_WORKER_MS = 30_000;

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

let idle: { worker: Worker; timer: NodeJS.Timeout } | undefined;
let nextId = 0;
const running = new Set<Worker>();

function dropIdle(worker: Worker): void {
  if (idle?.worker !== worker) return;
  clearTimeout(idle.timer);
  idle = undefined;
}

function take(url: URL): Worker {
  const kept = idle?.worker;
  if (kept !== undefined) {
    dropIdle(kept);
    kept.ref();
    return kept;
  }
  const worker = new Worker(url, {
    resourceLimits: { maxOldGenerationSizeMb: PDF_WORKER_MEMORY_MB, maxYoungGenerationSizeMb: 64 },
  });
  running.add(worker);
  worker.once("exit", () => {
    running.delete(worker);
    dropIdle(worker);
  });
  // An uncaught error of the idle thread (no call listening) must not reach the host as an
  // unhandled 'error' event; the thread then exits and is dropped.
  worker.on("error", () => {});
  return worker;
}

function release(worker: Worker): void {
  if (idle !== undefined) {
    void worker.terminate();
    return;
  }
  worker.unref();
  const timer = setTimeout(() => {
    dropIdle(worker);
    void worker.terminate();
  }, IDLE_WORKER_MS);
  timer.unref();
  idle = { worker, timer };
}

/**
 * How many PDF worker threads are alive, the idle one included (tests check none is left over).
 *
 * @returns the count
 */
export function pdfWorkerCount(): number {
  return running.size;
}

const megabytes = (bytes: number) => `${formatCount(Math.round(bytes / 1e6))} MB`;

function tooLarge(label: string, reason: string): ToolFailureError {
  return new ToolFailureError("TOO_LARGE", `${label} was stopped: ${reason}.`, {
    hint: `Read fewer pages at a time (pages="1-5"); if it must be read as it is, the host can raise maxPdfMemoryBytes.`,
  });
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
    maxMemoryBytes: input.maxMemoryBytes ?? DEFAULT_MAX_PDF_MEMORY_BYTES,
  };
  const url = workerUrl();
  if (url === undefined) return extractPdf({ ...job, bytes: input.bytes });
  return runJob(take(url), job, input.signal);
}

/** Runs one job on a worker: settles on its reply, its failure, the abort or the ceiling. */
function runJob(
  worker: Worker,
  job: PdfJob,
  signal: AbortSignal | undefined,
): Promise<PagedDocument> {
  const id = nextId++;
  const ceiling = job.maxMemoryBytes;
  const grown = `reading it grew memory past ${megabytes(ceiling)}, the PDF reader's memory ceiling`;
  return new Promise<PagedDocument>((resolve, reject) => {
    let settled = false;
    const baseline = process.memoryUsage.rss();
    const finish = (outcome: () => void, keep: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      signal?.removeEventListener("abort", onAbort);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      if (keep) {
        release(worker);
        outcome();
      } else {
        // Settled once the thread is gone: its memory is back before the next call.
        void worker.terminate().then(outcome, outcome);
      }
    };
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > ceiling)
        finish(() => reject(tooLarge(job.label, grown)), false);
    }, MEMORY_SAMPLE_MS);
    watch.unref();
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error("aborted")), false);
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      if (reply.ok && reply.result !== undefined) {
        finish(() => resolve(reply.result as PagedDocument), true);
        return;
      }
      const error = reply.error ?? {
        code: "INTERNAL" as ErrorCode,
        message: "the PDF worker gave no result",
      };
      const hint = error.hint === undefined ? {} : { hint: error.hint };
      finish(() => reject(new ToolFailureError(error.code, error.message, hint)), true);
    };
    const onError = (error: Error) =>
      finish(
        () =>
          reject(
            new ToolFailureError(
              "TOO_LARGE",
              `${job.label} could not be read within the PDF reader's limits (${error.message}).`,
              {
                hint: `Read fewer pages at a time (pages="1-5"), or ask for a smaller file.`,
              },
            ),
          ),
        false,
      );
    const onExit = () =>
      finish(
        () => reject(new ToolFailureError("INTERNAL", "The PDF worker stopped unexpectedly.")),
        false,
      );
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ id, job }, [job.bytes.buffer as ArrayBuffer]);
  });
}
