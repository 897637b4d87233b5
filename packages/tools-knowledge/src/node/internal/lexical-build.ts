/**
 * A first build of a large corpus puts its BM25 index together on a worker thread, in parallel
 * with the reading, chunking and embedding the refresh does on the calling thread; the worker
 * answers with the index's snapshot bytes, which load in a few milliseconds. Tokenizing is most
 * of the cost of a BM25 build, so on two cores a cold build takes about the time of the reading
 * and embedding alone.
 *
 * Nothing depends on the worker: when it cannot start (no worker file next to this module, a
 * host that forbids threads) or fails, the same operations are replayed on the calling thread,
 * so the index is the same either way.
 *
 * @internal
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import {
  createLexicalIndex,
  type LexicalDocument,
  type LexicalIndex,
  loadLexicalIndex,
} from "../../lexical-index.js";

/** Documents sent to the worker per message. */
const BATCH_DOCUMENTS = 512;

/** One build: operations go in as they happen, the finished index comes out. */
export interface LexicalBuild {
  /** Adds documents (as `LexicalIndex.add`). */
  add(documents: readonly LexicalDocument[]): void;
  /** Removes documents (as `LexicalIndex.remove`). */
  remove(ids: readonly string[]): void;
  /**
   * The index holding every operation, in order.
   *
   * @returns the index, and whether the worker built it
   */
  finish(): Promise<{ index: LexicalIndex; onWorker: boolean }>;
  /** Stops the worker; the build is dropped. */
  cancel(): void;
}

type Operation = { add: readonly LexicalDocument[] } | { remove: readonly string[] };

let workerFile: URL | null | undefined;

/**
 * The worker's file: the compiled module next to this one; when this module runs from its
 * TypeScript source (a test runner), the package's compiled copy. `null` when neither exists.
 */
function findWorkerFile(): URL | null {
  if (workerFile !== undefined) return workerFile;
  const candidates = [new URL("./lexical-build-worker.js", import.meta.url)];
  if (import.meta.url.endsWith(".ts"))
    candidates.push(
      new URL("../../../dist/node/internal/lexical-build-worker.js", import.meta.url),
    );
  workerFile = candidates.find((candidate) => existsSync(fileURLToPath(candidate))) ?? null;
  return workerFile;
}

/**
 * Starts a build on a worker thread (or, when none can start, one that replays on this thread).
 *
 * @param useWorker - `false` builds on this thread
 * @returns the build
 */
export function startLexicalBuild(useWorker: boolean): LexicalBuild {
  const operations: Operation[] = [];
  let batch: LexicalDocument[] = [];
  let worker: Worker | undefined;
  let failure: string | undefined;
  let answer: ((bytes: Uint8Array | undefined) => void) | undefined;
  const file = useWorker ? findWorkerFile() : null;
  if (file !== null) {
    try {
      worker = new Worker(file);
      worker.unref();
      worker.on("message", (message: { type: string; bytes?: Uint8Array; message?: string }) => {
        if (message.type === "done") answer?.(message.bytes);
        else {
          failure = message.message ?? "the worker failed";
          answer?.(undefined);
        }
      });
      worker.on("error", (error) => {
        failure = error.message;
        answer?.(undefined);
      });
      worker.on("exit", () => {
        failure ??= "the worker exited";
        answer?.(undefined);
      });
    } catch (error) {
      failure = error instanceof Error ? error.message : String(error);
      worker = undefined;
    }
  }

  const send = () => {
    if (batch.length === 0) return;
    if (worker !== undefined && failure === undefined)
      worker.postMessage({ type: "add", documents: batch });
    batch = [];
  };

  const replay = (): LexicalIndex => {
    const index = createLexicalIndex();
    for (const operation of operations) {
      if ("add" in operation) index.add(operation.add);
      else index.remove(operation.remove);
    }
    return index;
  };

  return {
    add(documents) {
      operations.push({ add: documents });
      for (const document of documents) batch.push(document);
      if (batch.length >= BATCH_DOCUMENTS) send();
    },
    remove(ids) {
      operations.push({ remove: ids });
      send();
      if (worker !== undefined && failure === undefined)
        worker.postMessage({ type: "remove", ids: [...ids] });
    },
    async finish() {
      send();
      if (worker === undefined || failure !== undefined) {
        void worker?.terminate();
        return { index: replay(), onWorker: false };
      }
      const running = worker;
      const bytes = await new Promise<Uint8Array | undefined>((resolve) => {
        answer = resolve;
        running.postMessage({ type: "finish" });
      });
      void running.terminate();
      if (bytes !== undefined) {
        try {
          return { index: loadLexicalIndex(bytes), onWorker: true };
        } catch {
          // A snapshot that does not load: build here instead.
        }
      }
      return { index: replay(), onWorker: false };
    },
    cancel() {
      failure ??= "cancelled";
      void worker?.terminate();
    },
  };
}
