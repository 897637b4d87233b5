/**
 * The worker thread of {@link startLexicalBuild}: builds one lexical index from the documents it
 * is sent and answers with the index's snapshot bytes (transferred, not copied).
 *
 * Messages in: `{ type: "add", documents }`, `{ type: "remove", ids }`, `{ type: "finish" }`.
 * Messages out: `{ type: "taken" }` as each add or remove starts, then `{ type: "done", bytes }`,
 * or `{ type: "failed", message }`.
 *
 * @internal
 */
import { parentPort } from "node:worker_threads";
import { createLexicalIndex, type LexicalDocument } from "../../lexical-index.js";

type Message =
  | { type: "add"; documents: LexicalDocument[] }
  | { type: "remove"; ids: string[] }
  | { type: "finish" };

const index = createLexicalIndex();
const port = parentPort;
port?.on("message", (message: Message) => {
  try {
    if (message.type === "add" || message.type === "remove") {
      // Taken: the calling thread may send the next batch while this one is indexed.
      port.postMessage({ type: "taken" });
      if (message.type === "add") index.add(message.documents);
      else index.remove(message.ids);
    } else {
      const bytes = index.toBytes();
      port.postMessage({ type: "done", bytes }, [bytes.buffer as ArrayBuffer]);
    }
  } catch (error) {
    port.postMessage({
      type: "failed",
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
