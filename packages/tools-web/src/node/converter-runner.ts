import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ConvertedHtml, HtmlConverter } from "../internal/converter.js";
import { WebRequestError } from "../internal/http-transport.js";
import type { PdfText, PdfTextExtractor } from "../internal/pdf.js";

/** A job for the converter worker. @internal */
export type ConverterJob =
  | { kind: "html"; html: string; url: string; readability: boolean }
  | { kind: "pdf"; bytes: Uint8Array };

/** Options of {@link createWorkerConverters}. */
export interface WorkerConverterOptions {
  /** Heap cap of one converter thread, MiB. Default 512. */
  maxMemoryMb?: number;
  /** Idle threads kept for reuse. Default 2. */
  maxIdleWorkers?: number;
}

function workerUrl(): URL {
  const beside = new URL("./converter-worker.js", import.meta.url);
  if (existsSync(fileURLToPath(beside))) return beside;
  // running from the sources (tests): the compiled worker in dist
  return new URL("../../dist/node/converter-worker.js", import.meta.url);
}

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { message: string; code?: string; hint?: string };
}

/**
 * Creates the HTML converter and PDF extractor `createNodeWebFetchTool` uses: each job runs in a
 * worker thread (Readability + node-html-markdown, or unpdf) with a heap cap; on abort (the tool's
 * time limit, or the caller's signal) the thread is terminated at once, so a hostile page or a
 * deflate-bomb PDF neither blocks the event loop nor keeps burning CPU and memory. Idle threads
 * are kept (unref'ed) for reuse.
 *
 * @param options - memory cap, idle pool size
 * @returns `{ convertHtml, extractPdf }`
 */
export function createWorkerConverters(options: WorkerConverterOptions = {}): {
  convertHtml: HtmlConverter;
  extractPdf: PdfTextExtractor;
} {
  const maxMemoryMb = options.maxMemoryMb ?? 512;
  const maxIdle = options.maxIdleWorkers ?? 2;
  const idle: Worker[] = [];
  let nextId = 0;

  function take(): Worker {
    const reused = idle.pop();
    if (reused !== undefined) return reused;
    return new Worker(workerUrl(), {
      resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb, maxYoungGenerationSizeMb: 64 },
    });
  }

  function run<Result>(job: ConverterJob, signal: AbortSignal): Promise<Result> {
    if (signal.aborted) return Promise.reject(signal.reason ?? new Error("aborted"));
    const worker = take();
    worker.ref();
    nextId += 1;
    const id = nextId;
    return new Promise<Result>((resolve, reject) => {
      let settled = false;
      const finish = (keep: boolean) => {
        settled = true;
        signal.removeEventListener("abort", onAbort);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (keep && idle.length < maxIdle) {
          worker.unref();
          idle.push(worker);
        } else void worker.terminate();
      };
      const onAbort = () => {
        if (settled) return;
        finish(false);
        reject(signal.reason ?? new Error("aborted"));
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id || settled) return;
        finish(true);
        if (reply.ok) resolve(reply.result as Result);
        else {
          const error = reply.error ?? { message: "conversion failed" };
          reject(
            error.code === undefined
              ? new Error(error.message)
              : new WebRequestError(error.code as never, error.message, {
                  ...(error.hint === undefined ? {} : { hint: error.hint }),
                }),
          );
        }
      };
      const onError = (error: Error) => {
        if (settled) return;
        finish(false);
        const outOfMemory = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
        reject(
          new WebRequestError(
            outOfMemory ? "TOO_LARGE" : "UNSUPPORTED",
            outOfMemory
              ? `The document needed more than ${maxMemoryMb} MiB to convert and was stopped.`
              : `The converter failed: ${error.message}`,
            { hint: "Use another source for this content." },
          ),
        );
      };
      const onExit = (code: number) => onError(new Error(`the converter thread exited (${code})`));
      signal.addEventListener("abort", onAbort, { once: true });
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ id, job });
    });
  }

  return {
    convertHtml: (job, signal) => run<ConvertedHtml>({ kind: "html", ...job }, signal),
    extractPdf: (bytes, signal) => run<PdfText>({ kind: "pdf", bytes }, signal),
  };
}
