import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { chunkMarkdown } from "../../chunk-markdown.js";
import { decodeText, sha256 } from "./decode-text.js";
import type { EmbeddingQueue } from "./embedding-queue.js";
import type { RefreshRun } from "./refresh-run.js";

/**
 * Queues the chunks whose embedding failed before (their file unchanged since), re-reading and
 * re-chunking each such file.
 *
 * @param run - the refresh
 * @param queue - the embedding queue
 * @param corpusRoot - the corpus root, real path
 */
export async function resumeEmbeddings(
  run: RefreshRun,
  queue: EmbeddingQueue,
  corpusRoot: string,
): Promise<void> {
  const { state, settings } = run;
  if (settings.embeddings === undefined || queue.down) return;
  for (const entry of state.files.values()) {
    if (queue.down) break;
    if (entry.missing.size === 0 || queue.has(entry)) continue;
    const bytes = await readFile(join(corpusRoot, ...entry.path.split("/"))).catch(() => undefined);
    if (bytes === undefined || sha256(bytes) !== entry.sha256) continue; // the next walk sees it
    const document = chunkMarkdown(decodeText(bytes), settings.chunkOptions);
    if (document.chunks.length !== entry.chunks.length) continue;
    queue.add(entry, document, entry.missing);
    await queue.flush(false);
  }
}
