import { chunkMarkdown, isBinaryContent } from "../../chunk-markdown.js";
import type { FileEntry } from "./corpus-state.js";
import { decodeText, sha256 } from "./decode-text.js";
import type { EmbeddingQueue } from "./embedding-queue.js";
import type { ReadFile } from "./read-in-order.js";
import type { RefreshRun } from "./refresh-run.js";

/**
 * Brings one read file into the index: gone or binary → dropped (a binary one remembered as
 * skipped), same bytes → its size and time updated (touched), new bytes → re-chunked, with the
 * vectors of a file gone with the same bytes (a rename) or its chunks queued for embedding.
 *
 * @param run - the refresh
 * @param read - the file and its bytes
 * @param goneBySha - vectors of files gone, by content hash (a rename takes them)
 * @param queue - the embedding queue
 * @returns `"binary"` when the file was skipped as binary
 */
export async function indexReadFile(
  run: RefreshRun,
  read: ReadFile,
  goneBySha: Map<string, FileEntry>,
  queue: EmbeddingQueue,
): Promise<"binary" | undefined> {
  const { state, report, settings } = run;
  const { file, bytes } = read;
  const previous = state.files.get(file.path);
  if (bytes === undefined) {
    // Vanished between the walk and the read: it drops out.
    if (previous !== undefined) {
      state.removeFile(previous);
      report.removed += 1;
      run.dirty = true;
    }
    return undefined;
  }
  if (isBinaryContent(bytes.subarray(0, 8192))) {
    if (previous !== undefined) {
      state.removeFile(previous);
      report.removed += 1;
    }
    state.skipped.set(file.path, { size: file.size, mtime_ms: file.mtime_ms });
    run.dirty = true;
    return "binary";
  }
  state.skipped.delete(file.path);
  const hash = sha256(bytes);
  run.dirty = true;
  if (previous !== undefined && previous.sha256 === hash) {
    previous.size = file.size;
    previous.mtime_ms = file.mtime_ms;
    report.touched += 1;
    return undefined;
  }
  const document = chunkMarkdown(decodeText(bytes), settings.chunkOptions);
  if (previous !== undefined) state.removeFile(previous);
  const entry: FileEntry = {
    path: file.path,
    size: file.size,
    mtime_ms: file.mtime_ms,
    sha256: hash,
    id_base: state.nextId,
    chunks: document.chunks.map((chunk) => ({
      start_line: chunk.start_line,
      end_line: chunk.end_line,
      heading_trail: chunk.heading_trail,
    })),
    missing: new Set(
      settings.embeddings === undefined ? [] : document.chunks.map((_, index) => index),
    ),
    vectors: undefined,
  };
  state.nextId += entry.chunks.length;
  state.addFile(entry, document);
  if (previous === undefined) report.added += 1;
  else report.changed += 1;
  const renamed = goneBySha.get(hash);
  if (
    renamed !== undefined &&
    renamed.chunks.length === entry.chunks.length &&
    state.dimension > 0
  ) {
    entry.vectors = renamed.vectors;
    state.changed();
    entry.missing.clear();
    goneBySha.delete(hash);
    return undefined;
  }
  queue.add(entry, document);
  await queue.flush(false);
  return undefined;
}
