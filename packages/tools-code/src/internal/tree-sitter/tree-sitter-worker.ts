import { parentPort, workerData } from "node:worker_threads";
import { type ParseJob, type ParseLimits, runParseJob } from "./parse-jobs.js";
import {
  configureRuntime,
  ParseFailure,
  preloadLanguagesInThread,
  wasmMemoryBytes,
} from "./runtime.js";

/**
 * A parse worker of the engine's pool (`parse-pool.ts`): its own tree-sitter runtime, its
 * WebAssembly memory capped (`workerData.maxMemoryBytes`), grammars loaded as jobs need them.
 * Each `job` message is answered with the job's plain-data result or a failure, and the size of
 * the WebAssembly memory after it (the pool replaces a worker whose memory grew too much).
 *
 * @internal
 */

type Message =
  | { type: "job"; id: number; job: ParseJob; limits: ParseLimits }
  | { type: "preload"; languages: Parameters<typeof preloadLanguagesInThread>[0] };

const port = parentPort;
if (port !== null) {
  const maxMemoryBytes = (workerData as { maxMemoryBytes?: number } | undefined)?.maxMemoryBytes;
  configureRuntime(maxMemoryBytes === undefined ? {} : { maxMemoryBytes });
  preloadLanguagesInThread();
  port.on("message", async (message: Message) => {
    if (message.type === "preload") {
      preloadLanguagesInThread(message.languages);
      return;
    }
    try {
      const result = await runParseJob(message.job, message.limits);
      port.postMessage({ id: message.id, ok: true, result, memoryBytes: wasmMemoryBytes() });
    } catch (error) {
      port.postMessage({
        id: message.id,
        ok: false,
        failure: {
          reason: error instanceof ParseFailure ? error.reason : "failed",
          message: error instanceof Error ? error.message : String(error),
        },
        memoryBytes: wasmMemoryBytes(),
      });
    }
  });
}
