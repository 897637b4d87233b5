/**
 * The worker thread of {@link startLexicalBuild}: builds one lexical index from the documents it
 * is sent and answers with the index's arrays and snapshot (transferred, not copied).
 *
 * Messages in: `{ type: "add", documents }`, `{ type: "remove", ids }`, `{ type: "finish" }`.
 * Messages out: `{ type: "taken", busy_ms, batches }` as each add or remove starts (the time
 * spent indexing the batches before it, and how many), then `{ type: "done", raw }`,
 * or `{ type: "failed", message }`.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads";
import { errorMessage } from "@agentool/contract";
import {
  createLexicalIndex,
  exportLexicalIndex,
  type LexicalDocument,
} from "../../../engine/lexical-index.js";

type Message =
  | { type: "add"; documents: LexicalDocument[] }
  | { type: "remove"; ids: string[] }
  | { type: "finish" };

const index = createLexicalIndex();
const port = parentPort;
/** Milliseconds spent indexing so far, and the batches indexed (the worker's pace). */
let busyMs = 0;
let batches = 0;
port?.on("message", (message: Message) => {
  try {
    if (message.type === "add" || message.type === "remove") {
      // Taken: the calling thread may send the next batch while this one is indexed.
      port.postMessage({ type: "taken", busy_ms: busyMs, batches });
      const started = performance.now();
      if (message.type === "add") index.add(message.documents);
      else index.remove(message.ids);
      busyMs += performance.now() - started;
      batches += 1;
    } else {
      // The index's arrays move to the calling thread as they are (no snapshot to decode).
      const raw = exportLexicalIndex(index);
      port.postMessage({ type: "done", raw }, raw.transfer);
    }
  } catch (error) {
    port.postMessage({
      type: "failed",
      message: errorMessage(error),
    });
  }
});
