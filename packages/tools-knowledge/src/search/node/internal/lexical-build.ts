/**
 * A first build of a large corpus puts its BM25 index together on a worker thread, in parallel
 * with the reading, chunking and embedding the refresh does on the calling thread; the worker
 * answers with the index's arrays and snapshot, moved (not copied) and rebuilt here without
 * decoding. Tokenizing is most
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
import { errorMessage } from "@agentool/contract";
import type { RawLexicalEngine } from "../../../engine/lexical-engine.js";
import {
  appendLexicalIndex,
  createLexicalIndex,
  importLexicalIndex,
  type LexicalDocument,
  type LexicalIndex,
} from "../../../engine/lexical-index.js";

/** Documents sent to the worker per message. */
const BATCH_DOCUMENTS = 512;

/** Batches posted to the worker and not yet taken; the rest wait here. */
const BATCHES_IN_FLIGHT = 2;

/**
 * What indexing part of the backlog on this thread costs beyond the work itself: a cold tokenizer
 * cache (every word of the vocabulary folded and stemmed again), the join, and a fresh encode of
 * the joined index's snapshot — about 0.3 s on a 2,000-file corpus (CPU profile, issue 12).
 */
const SPLIT_COST_MS = 300;

/** How much faster the worker takes batches once this thread stops competing for the cores. */
const WORKER_ALONE_SPEEDUP = 1.5;

/** One build: operations go in as they happen, the finished index comes out. */
export interface LexicalBuild {
  /** Adds documents (as `LexicalIndex.add`). */
  add(documents: readonly LexicalDocument[]): void;
  /** Removes documents (as `LexicalIndex.remove`). */
  remove(ids: readonly string[]): void;
  /**
   * The index holding every operation, in order.
   *
   * @returns the index; whether the worker built it; how many documents this thread indexed at the
   *   end, while the worker finished its part (0 when the worker kept up)
   */
  finish(): Promise<{ index: LexicalIndex; onWorker: boolean; indexedHere: number }>;
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
      new URL("../../../../dist/search/node/internal/lexical-build-worker.js", import.meta.url),
    );
  workerFile = candidates.find((candidate) => existsSync(fileURLToPath(candidate))) ?? null;
  return workerFile;
}

/**
 * Starts a build on a worker thread (or, when none can start, one that replays on this thread).
 *
 * The worker is sent a batch whenever it takes one (at most two wait for it); the others wait
 * here. When the calling thread finishes, the batches still waiting are split: the first part
 * goes to the worker, the rest is indexed here meanwhile, and the two indexes are joined, so
 * neither thread waits for the other for long.
 *
 * @param useWorker - `false` builds on this thread
 * @returns the build
 */
export function startLexicalBuild(useWorker: boolean): LexicalBuild {
  const operations: Operation[] = [];
  /** Documents not yet in a batch. */
  let batch: LexicalDocument[] = [];
  /** Batches not yet posted to the worker (each as one operation). */
  const waiting: Operation[] = [];
  /** Batches posted and not yet taken by the worker. */
  let inFlight = 0;
  /** The time the worker spent indexing and the batches it indexed, as it last reported. */
  let workerBusyMs = 0;
  let workerBatches = 0;
  let worker: Worker | undefined;
  let failure: string | undefined;
  let answer: ((raw: RawLexicalEngine | undefined) => void) | undefined;
  const file = useWorker ? findWorkerFile() : null;

  const post = (operation: Operation) => {
    if (worker === undefined || failure !== undefined) return;
    if ("add" in operation) worker.postMessage({ type: "add", documents: operation.add });
    else worker.postMessage({ type: "remove", ids: [...operation.remove] });
    inFlight += 1;
  };
  const pump = () => {
    while (inFlight < BATCHES_IN_FLIGHT && waiting.length > 0) post(waiting.shift() as Operation);
  };

  if (file !== null) {
    try {
      worker = new Worker(file);
      worker.unref();
      worker.on(
        "message",
        (message: {
          type: string;
          raw?: RawLexicalEngine;
          message?: string;
          busy_ms?: number;
          batches?: number;
        }) => {
          if (message.type === "taken") {
            workerBusyMs = message.busy_ms ?? 0;
            workerBatches = message.batches ?? 0;
            inFlight -= 1;
            pump();
          } else if (message.type === "done") answer?.(message.raw);
          else {
            failure = message.message ?? "the worker failed";
            answer?.(undefined);
          }
        },
      );
      worker.on("error", (error) => {
        failure = error.message;
        answer?.(undefined);
      });
      worker.on("exit", () => {
        failure ??= "the worker exited";
        answer?.(undefined);
      });
    } catch (error) {
      failure = errorMessage(error);
      worker = undefined;
    }
  }

  const seal = () => {
    if (batch.length === 0) return;
    waiting.push({ add: batch });
    batch = [];
    pump();
  };

  const replay = (list: readonly Operation[]): LexicalIndex => {
    const index = createLexicalIndex();
    for (const operation of list) {
      if ("add" in operation) index.add(operation.add);
      else index.remove(operation.remove);
    }
    return index;
  };

  return {
    add(documents) {
      operations.push({ add: documents });
      for (const document of documents) batch.push(document);
      if (batch.length >= BATCH_DOCUMENTS) seal();
    },
    remove(ids) {
      operations.push({ remove: ids });
      // A removal may name documents of any batch: every batch goes to the worker first.
      seal();
      waiting.push({ remove: ids });
      while (waiting.length > 0) post(waiting.shift() as Operation);
    },
    async finish() {
      if (worker === undefined || failure !== undefined) {
        void worker?.terminate();
        return { index: replay(operations), onWorker: false, indexedHere: 0 };
      }
      const running = worker;
      // What the worker has not been sent is split: the first part goes to the worker, the rest
      // is indexed here meanwhile, so that both finish at about the same time (the worker still
      // has the batch it is on and those posted to it) — unless, at the pace the worker reports
      // (its time spent indexing per batch), it finishes alone sooner than the split would save
      // (see SPLIT_COST_MS).
      if (batch.length > 0) waiting.push({ add: batch });
      batch = [];
      const pace = workerBatches >= 2 ? workerBusyMs / workerBatches : undefined;
      const aloneMs =
        pace === undefined
          ? Number.POSITIVE_INFINITY
          : ((waiting.length + inFlight) * pace) / WORKER_ALONE_SPEEDUP;
      const toWorker =
        aloneMs <= 2 * SPLIT_COST_MS
          ? waiting.length
          : Math.max(0, Math.round((waiting.length - inFlight - 1) / 2));
      for (const operation of waiting.splice(0, toWorker)) post(operation);
      const rest = waiting.splice(0);
      const received = new Promise<RawLexicalEngine | undefined>((resolve) => {
        answer = resolve;
        running.postMessage({ type: "finish" });
      });
      let local: LexicalIndex | undefined;
      try {
        local = rest.length === 0 ? undefined : replay(rest);
      } catch (error) {
        void running.terminate();
        throw error;
      }
      const raw = await received;
      void running.terminate();
      if (raw !== undefined) {
        try {
          const index = importLexicalIndex(raw);
          if (local !== undefined) appendLexicalIndex(index, local);
          return { index, onWorker: true, indexedHere: local?.size ?? 0 };
        } catch {
          // An answer that does not rebuild: build here instead.
        }
      }
      return { index: replay(operations), onWorker: false, indexedHere: 0 };
    },
    cancel() {
      failure ??= "cancelled";
      waiting.length = 0;
      void worker?.terminate();
    },
  };
}
