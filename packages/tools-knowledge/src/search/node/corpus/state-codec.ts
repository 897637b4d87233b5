import { adoptLexicalSnapshot } from "../../../engine/lexical-index.js";
import {
  decodeIndex,
  IndexFileError,
  type StoredFile,
  type StoredIndex,
} from "../internal/index-file.js";
import { CorpusState } from "./corpus-state.js";

/** A binary file's row in the sidecar's file table: its path behind this prefix, no chunks. */
const SKIPPED_PREFIX = "\u0000skipped:";

/**
 * Reads a sidecar into an index.
 *
 * @param buffer - the sidecar's bytes
 * @param fingerprint - what the index must have been built with
 * @returns the index
 * @throws IndexFileError when the file is damaged, old or built with another fingerprint
 */
export function stateFromSidecar(buffer: Buffer, fingerprint: string): CorpusState {
  const stored = decodeIndex(buffer);
  if (stored.fingerprint !== fingerprint) {
    throw new IndexFileError(
      "old_version",
      describeFingerprintChange(stored.fingerprint, fingerprint),
    );
  }
  const state = new CorpusState(fingerprint, adoptLexicalSnapshot(stored.lexical));
  state.dimension = stored.dimension;
  state.nextId = stored.next_id;
  for (const file of stored.files) {
    if (file.path.startsWith(SKIPPED_PREFIX)) {
      state.skipped.set(file.path.slice(SKIPPED_PREFIX.length), {
        size: file.size,
        mtime_ms: file.mtime_ms,
      });
      continue;
    }
    state.restoreFile({
      path: file.path,
      size: file.size,
      mtime_ms: file.mtime_ms,
      sha256: file.sha256,
      id_base: file.id_base,
      chunks: file.chunks,
      missing: new Set(file.missing),
      vectors: file.vectors,
    });
  }
  if (state.lexical.size !== state.chunkCount) {
    throw new IndexFileError("corrupt", "the BM25 index and the file table disagree");
  }
  return state;
}

/**
 * What the sidecar holds of an index (the BM25 index as bytes; the vectors as views of the
 * files' own arrays).
 *
 * @param state - the index
 * @returns the sidecar's content
 */
export function sidecarOfState(state: CorpusState): StoredIndex {
  const files: StoredFile[] = [];
  for (const entry of state.files.values()) {
    const stored: StoredFile = {
      path: entry.path,
      size: entry.size,
      mtime_ms: entry.mtime_ms,
      sha256: entry.sha256,
      id_base: entry.id_base,
      chunks: entry.chunks,
      missing: [...entry.missing].sort((left, right) => left - right),
    };
    if (entry.vectors !== undefined) stored.vectors = entry.vectors;
    files.push(stored);
  }
  for (const [path, skipped] of state.skipped) {
    files.push({
      path: `${SKIPPED_PREFIX}${path}`,
      size: skipped.size,
      mtime_ms: skipped.mtime_ms,
      sha256: "",
      id_base: 0,
      chunks: [],
      missing: [],
    });
  }
  return {
    fingerprint: state.fingerprint,
    dimension: state.dimension,
    next_id: state.nextId,
    files,
    lexical: state.lexical.toBytes(),
  };
}

/** Why an index built with `stored` cannot serve `now`, for the warning. */
function describeFingerprintChange(stored: string, now: string): string {
  try {
    const before = JSON.parse(stored) as { chunk?: unknown; embedder?: unknown; format?: unknown };
    const current = JSON.parse(now) as { chunk?: unknown; embedder?: unknown };
    const parts: string[] = [];
    if (JSON.stringify(before.embedder) !== JSON.stringify(current.embedder)) {
      parts.push(
        `the embedder changed (${JSON.stringify(before.embedder)} → ${JSON.stringify(current.embedder)})`,
      );
    }
    if (before.chunk !== current.chunk)
      parts.push(`the chunk size changed (${String(before.chunk)} → ${String(current.chunk)})`);
    return parts.length > 0 ? parts.join(" and ") : "the index was built by another configuration";
  } catch {
    return "the index was built by another configuration";
  }
}
