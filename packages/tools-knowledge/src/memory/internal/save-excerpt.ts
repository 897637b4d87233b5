import {
  containsPrivateKey,
  errorMessage,
  fail,
  ok,
  type ToolContext,
  type ToolResult,
} from "@agentool/contract";
import { contentDocumentKey } from "../../engine/content-hash.js";
import { QUOTED_MESSAGE_CHARACTERS } from "../../engine/knowledge-source-error.js";
import type { Embeddings, VectorStore } from "../../engine/types.js";
import { ingest } from "../../search/ingest.js";
import type { RememberToolData } from "../remember.js";
import { StageError } from "./stage-tracked-store.js";

/** What `remember` was configured with, for one save. @internal */
export interface ExcerptSaver {
  /** The tool's name, for its messages. */
  name: string;
  /** The store, its failures marked as store failures. */
  writer: VectorStore;
  /** The embedder, its failures marked as embedder failures. */
  embedder: Embeddings | undefined;
  /** `ingest`'s options passed through. */
  ingestOptions: {
    maxChunkCharacters?: number;
    minAlnumChars?: number;
    embedHeadingTrail?: boolean;
    sanitize?: (text: string) => string;
  };
  /** The clock for `created_at`. */
  now: () => Date;
}

/** The excerpt one `remember` call sends. @internal */
export interface ExcerptRequest {
  text: string;
  source?: string | undefined;
  tags?: string[] | undefined;
}

/** The refusal of a blank excerpt or one holding a private key, if any. @internal */
export function refuseExcerpt(
  name: string,
  text: string,
): ToolResult<RememberToolData> | undefined {
  if (text.trim().length === 0) {
    return fail("INVALID_INPUT", `${name} refused the excerpt: text is blank.`, {
      hint: `Call ${name} with the words to keep.`,
    });
  }
  if (containsPrivateKey(text)) {
    return fail(
      "BLOCKED",
      `${name} refused the excerpt: it holds a private key, and keys are never stored.`,
      {
        hint: "This is policy, not a mistake in the call: save the excerpt without the key block.",
      },
    );
  }
  return undefined;
}

/** The failure of an embedder or store that threw (retryable: saving again is safe). */
function stageFailure(name: string, error: StageError): ToolResult<RememberToolData> {
  return fail(
    "NETWORK_ERROR",
    error.stage === "embedder"
      ? `${name} could not save the excerpt: the embedder failed (${errorMessage(error.original, QUOTED_MESSAGE_CHARACTERS)}); nothing was written.`
      : `${name} could not save the excerpt: the store failed (${errorMessage(error.original, QUOTED_MESSAGE_CHARACTERS)}).`,
    {
      hint:
        error.stage === "embedder"
          ? `Call ${name} again shortly with the same text.`
          : `Call ${name} again with the same text: saving it twice is safe (same key, same passages).`,
      retryable: true,
    },
  );
}

/**
 * One `remember` call: refuses a blank excerpt or a private key, then chunks, embeds and stores
 * the excerpt through `ingest` under its content key, and reports what was stored.
 *
 * @param saver - the configured store, embedder and options
 * @param request - the excerpt, its source and tags
 * @param context - the call's signal and progress
 * @returns the tool result
 * @internal
 */
export async function saveExcerpt(
  saver: ExcerptSaver,
  request: ExcerptRequest,
  context: ToolContext,
): Promise<ToolResult<RememberToolData>> {
  const { name, writer, embedder } = saver;
  const text = request.text;
  const refusal = refuseExcerpt(name, text);
  if (refusal !== undefined) return refusal;
  const source = request.source?.trim();
  const tags = [
    ...new Set((request.tags ?? []).map((tag) => tag.trim()).filter((tag) => tag.length > 0)),
  ];
  const documentKey = await contentDocumentKey(text);
  let alreadySaved: boolean | undefined;
  try {
    if (writer.range !== undefined) {
      alreadySaved = (await writer.range(documentKey, 0, 0, { signal: context.signal })).length > 0;
    }
    const createdAt = saver.now();
    const result = await ingest([{ id: documentKey, text, ...(source ? { source } : {}), tags }], {
      store: writer,
      ...(embedder === undefined ? {} : { embeddings: embedder }),
      ...saver.ingestOptions,
      signal: context.signal,
      now: () => createdAt,
      onProgress: (progress) =>
        context.progress({
          message: progress.stage === "embed" ? "embedding" : "saving",
          completed: progress.completed,
          total: progress.total,
        }),
    });
    const document = result.documents[0];
    if (document === undefined || document.records === 0) {
      return fail(
        "INVALID_INPUT",
        `${name} refused the excerpt: nothing searchable is left after clean-up (control characters, blank or too-short passages).`,
        { hint: `Call ${name} with the words to keep as plain text.` },
      );
    }
    const data: RememberToolData = {
      document_key: documentKey,
      stored_chunks: document.records,
      dropped_chunks: document.droppedChunks,
      characters: text.length,
      tags,
      created_at: createdAt.toISOString(),
    };
    if (source) data.source = source;
    if (alreadySaved !== undefined) data.already_saved = alreadySaved;
    return ok(data);
  } catch (error) {
    if (context.signal.aborted) throw error;
    if (error instanceof StageError) return stageFailure(name, error);
    throw error;
  }
}
