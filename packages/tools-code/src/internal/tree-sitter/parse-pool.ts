import { existsSync, readdirSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { ParsedLanguage } from "./languages.js";
import type { ParseJob } from "./parse-jobs.js";
import {
  DEFAULT_PARSE_TIMEOUT_MS,
  ParseFailure,
  type ParseFailureReason,
  preloadLanguagesInThread,
} from "./runtime.js";

/**
 * Where the engine parses: a small pool of worker threads (`tree-sitter-worker.ts`), each with
 * its own WebAssembly runtime and grammars (loaded lazily), so that no parse — however hostile
 * the text — blocks the event loop, and every call's time limit can stop one. The main thread
 * sends a {@link ParseJob} (text, language, what to extract) and gets plain data back.
 *
 * A parse stops itself past its time limit or when its WebAssembly memory passes
 * {@link PoolLimits.parseMemoryBytes} (the worker's progress callback); a worker that does not
 * answer by the time limit plus {@link HARD_GRACE_MS}, whose call is aborted (the tool's time
 * limit fired, or the caller cancelled), whose JavaScript heap passes its cap, or whose
 * WebAssembly memory stays over {@link PoolLimits.retireMemoryBytes} after a job (it never
 * shrinks) is terminated — which gives its memory back — and replaced on the next job. Idle
 * workers are unref'ed (they never keep a process alive) and end after {@link IDLE_MS}.
 *
 * When no worker can start (the compiled worker is missing — running from the TypeScript sources
 * without a fresh `dist/` — or the platform has no worker threads), jobs run on the calling
 * thread, one at a time after a turn of the event loop, under the same limits: the call still
 * ends, but a long parse then blocks the loop ({@link parsePoolMode} says which mode is on).
 *
 * @internal
 */

/** The pool's limits. */
export interface PoolLimits {
  /** Worker threads at most. Default 2 (1 on a single core). */
  maxWorkers: number;
  /** JavaScript heap cap of one worker, MiB. Default 256. */
  maxHeapMb: number;
  /** WebAssembly memory at which a parse stops itself (`too_large`). Default 256 MiB. */
  parseMemoryBytes: number;
  /** Hard cap of a worker's WebAssembly memory (an allocation past it fails the parse). Default 768 MiB. */
  maxMemoryBytes: number;
  /** A worker whose WebAssembly memory is over this after a job is replaced. Default 160 MiB. */
  retireMemoryBytes: number;
}

const MIB = 1_048_576;

const DEFAULT_LIMITS: PoolLimits = {
  maxWorkers: Math.max(1, Math.min(2, availableParallelism())),
  maxHeapMb: 256,
  parseMemoryBytes: 256 * MIB,
  maxMemoryBytes: 768 * MIB,
  retireMemoryBytes: 160 * MIB,
};

/** How long past its time limit a job may run before its worker is terminated. */
export const HARD_GRACE_MS = 1_000;
/** How long an idle worker is kept. */
export const IDLE_MS = 30_000;

/** Options of {@link runInPool}. */
export interface PoolRunOptions {
  /** The call's signal: when it aborts, the job's worker is terminated at once. */
  signal?: AbortSignal | undefined;
  /** Most milliseconds the parse may take. Default {@link DEFAULT_PARSE_TIMEOUT_MS}. */
  timeoutMs?: number | undefined;
}

interface Reply {
  id: number;
  ok: boolean;
  result?: unknown;
  failure?: { reason: ParseFailureReason; message: string };
  memoryBytes: number;
}

interface Pending {
  id: number;
  job: ParseJob;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  running: Pending | undefined;
  deadline: NodeJS.Timeout | undefined;
  idle: NodeJS.Timeout | undefined;
  gone: boolean;
}

const limits: PoolLimits = DEFAULT_LIMITS;
const slots: Slot[] = [];
const queue: Pending[] = [];
let nextId = 0;
let file: URL | null | undefined;

/** Newest modification time of the engine's TypeScript sources under `folder`. */
function newestSource(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts") || entry.name.endsWith(".test.ts")) continue;
    newest = Math.max(newest, statSync(`${entry.parentPath}/${entry.name}`).mtimeMs);
  }
  return newest;
}

/**
 * The worker's file: the compiled module beside this one. Running from the TypeScript sources (a
 * test runner), the package's compiled copy — only when it is newer than every engine source, so
 * that a test never runs yesterday's rules; else `null` (jobs run on the calling thread).
 */
function workerFile(): URL | null {
  if (file !== undefined) return file;
  file = null;
  try {
    const beside = new URL("./tree-sitter-worker.js", import.meta.url);
    if (!import.meta.url.endsWith(".ts")) {
      if (existsSync(fileURLToPath(beside))) file = beside;
    } else {
      const compiled = new URL(
        "../../../dist/internal/tree-sitter/tree-sitter-worker.js",
        import.meta.url,
      );
      const path = fileURLToPath(compiled);
      if (
        existsSync(path) &&
        statSync(path).mtimeMs >= newestSource(fileURLToPath(new URL(".", import.meta.url)))
      )
        file = compiled;
    }
  } catch {
    file = null;
  }
  return file;
}

/**
 * Whether jobs run on worker threads or, as a fallback, on the calling thread.
 *
 * @returns `workers` or `in-thread`
 */
export function parsePoolMode(): "workers" | "in-thread" {
  return workerFile() === null ? "in-thread" : "workers";
}

/**
 * Worker threads alive now (busy or idle).
 *
 * @returns the count
 */
export function parseWorkerCount(): number {
  return slots.length;
}

function spawn(): Slot | undefined {
  const url = workerFile();
  if (url === null) return undefined;
  let worker: Worker;
  try {
    worker = new Worker(url, {
      workerData: { maxMemoryBytes: limits.maxMemoryBytes },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 32 },
      stdout: false,
      stderr: false,
    });
  } catch {
    file = null;
    return undefined;
  }
  worker.unref();
  const slot: Slot = {
    worker,
    running: undefined,
    deadline: undefined,
    idle: undefined,
    gone: false,
  };
  worker.on("message", (reply: Reply) => onReply(slot, reply));
  worker.on("error", (error: Error) => {
    const outOfMemory = (error as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY";
    retire(
      slot,
      new ParseFailure(
        outOfMemory ? "too_large" : "failed",
        outOfMemory
          ? `extracting needed more than ${limits.maxHeapMb} MiB of memory.`
          : `the parse worker failed (${error.message}).`,
      ),
    );
  });
  worker.on("exit", (code) =>
    retire(slot, new ParseFailure("failed", `the parse worker exited (${code}).`)),
  );
  slots.push(slot);
  return slot;
}

/** Ends a worker; its running job (if any) fails with `failure`. */
function retire(slot: Slot, failure?: unknown): void {
  if (slot.gone) return;
  slot.gone = true;
  clearTimeout(slot.deadline);
  clearTimeout(slot.idle);
  const index = slots.indexOf(slot);
  if (index !== -1) slots.splice(index, 1);
  void slot.worker.terminate();
  const running = slot.running;
  slot.running = undefined;
  if (running !== undefined) settle(running, failure ?? new ParseFailure("failed", "stopped"));
  pump();
}

function settle(pending: Pending, error: unknown, value?: unknown): void {
  if (pending.onAbort !== undefined) pending.signal?.removeEventListener("abort", pending.onAbort);
  if (error === undefined) pending.resolve(value);
  else pending.reject(error);
}

function onReply(slot: Slot, reply: Reply): void {
  const running = slot.running;
  if (running === undefined || running.id !== reply.id) return;
  slot.running = undefined;
  clearTimeout(slot.deadline);
  if (reply.ok) settle(running, undefined, reply.result);
  else {
    const failure = reply.failure ?? { reason: "failed" as const, message: "the parse failed" };
    settle(running, new ParseFailure(failure.reason, failure.message));
  }
  // WebAssembly memory never shrinks, and a failed runtime may be unusable: start afresh.
  if (reply.memoryBytes > limits.retireMemoryBytes || reply.failure?.reason === "failed")
    retire(slot);
  else idle(slot);
}

function idle(slot: Slot): void {
  slot.worker.unref();
  clearTimeout(slot.idle);
  slot.idle = setTimeout(() => retire(slot), IDLE_MS);
  slot.idle.unref();
  pump();
}

function start(slot: Slot, pending: Pending): void {
  clearTimeout(slot.idle);
  slot.running = pending;
  slot.worker.ref();
  slot.deadline = setTimeout(
    () =>
      retire(
        slot,
        new ParseFailure("timeout", `parsing took longer than ${pending.timeoutMs} ms.`),
      ),
    pending.timeoutMs + HARD_GRACE_MS,
  );
  slot.worker.postMessage({
    type: "job",
    id: pending.id,
    job: pending.job,
    limits: { timeoutMs: pending.timeoutMs, maxMemoryBytes: limits.parseMemoryBytes },
  });
}

function pump(): void {
  while (queue.length > 0) {
    let slot = slots.find((candidate) => candidate.running === undefined && !candidate.gone);
    if (slot === undefined && slots.length < limits.maxWorkers) slot = spawn();
    if (slot === undefined) {
      if (slots.length === 0) drainInThread();
      return;
    }
    start(slot, queue.shift() as Pending);
  }
}

let draining = false;

/** The fallback: queued jobs run here, one per turn of the event loop. */
function drainInThread(): void {
  if (draining) return;
  draining = true;
  void (async () => {
    try {
      const { runParseJob } = await import("./parse-jobs.js");
      for (let pending = queue.shift(); pending !== undefined; pending = queue.shift()) {
        await new Promise((resolve) => setImmediate(resolve));
        if (pending.signal?.aborted) {
          settle(pending, pending.signal.reason);
          continue;
        }
        try {
          settle(
            pending,
            undefined,
            await runParseJob(pending.job, {
              timeoutMs: pending.timeoutMs,
              maxMemoryBytes: limits.parseMemoryBytes,
            }),
          );
        } catch (error) {
          settle(pending, error);
        }
      }
    } finally {
      draining = false;
    }
  })();
}

/**
 * Runs one job on a parse worker (or, as a fallback, here).
 *
 * @param job - the job
 * @param options - the call's signal and the parse time limit
 * @returns the job's result
 * @throws ParseFailure when the parse timed out, needed too much memory, failed or its grammar is
 *   unavailable; the signal's reason when the call was aborted
 */
export function runInPool<Result>(job: ParseJob, options: PoolRunOptions = {}): Promise<Result> {
  const signal = options.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  nextId += 1;
  return new Promise<Result>((resolve, reject) => {
    const pending: Pending = {
      id: nextId,
      job,
      timeoutMs: options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS,
      signal,
      resolve: resolve as (value: unknown) => void,
      reject,
    };
    if (signal !== undefined) {
      pending.onAbort = () => {
        const queued = queue.indexOf(pending);
        if (queued !== -1) {
          queue.splice(queued, 1);
          settle(pending, signal.reason);
          return;
        }
        const slot = slots.find((candidate) => candidate.running === pending);
        // The job is running: its worker is stopped mid-parse (and its memory given back).
        if (slot !== undefined) retire(slot, signal.reason);
      };
      signal.addEventListener("abort", pending.onAbort, { once: true });
    }
    queue.push(pending);
    pump();
  });
}

/**
 * Starts parse workers and has them load the runtime and the given grammars without waiting, so
 * that a caller who will parse soon overlaps the WebAssembly compilation with its own work (a
 * listing, a scan). With languages, every worker the pool may use is started; without, one.
 *
 * @param languages - the languages about to be parsed
 */
export function preloadLanguages(languages: Iterable<ParsedLanguage> = []): void {
  const list = [...languages];
  if (parsePoolMode() === "in-thread") {
    preloadLanguagesInThread(list);
    return;
  }
  const wanted = list.length === 0 ? 1 : limits.maxWorkers;
  while (slots.length < wanted && spawn() !== undefined) {
    const slot = slots[slots.length - 1] as Slot;
    idle(slot);
  }
  if (list.length === 0) return;
  for (const slot of slots) slot.worker.postMessage({ type: "preload", languages: list });
}
