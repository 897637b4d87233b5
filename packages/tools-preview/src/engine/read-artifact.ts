import { formatCount } from "@agentool/contract";
import { PreviewError } from "../preview-backend.js";
import type { PreviewEngineOptions } from "./engine-options.js";

const textDecoder = new TextDecoder();

/**
 * Reads an artifact through the host's `read` or `fileSystem`, refusing one over the size cap.
 *
 * @param source - the engine options holding `read` or `fileSystem`
 * @param path - the normalized path
 * @param signal - the call's signal (given to `read`)
 * @param maxBytes - the size cap
 * @returns the artifact's text
 * @throws PreviewError `NOT_CONFIGURED` without a source, `TOO_LARGE` over the cap
 */
export async function readArtifact(
  source: Pick<PreviewEngineOptions, "read" | "fileSystem">,
  path: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<string> {
  let content: string | Uint8Array;
  if (source.read !== undefined) content = await source.read(path, signal);
  else if (source.fileSystem !== undefined) content = await source.fileSystem.readFile(path);
  else
    throw new PreviewError(
      "NOT_CONFIGURED",
      "preview has no artifact source.",
      "The host must pass read or fileSystem (or root on Node).",
    );
  const size = typeof content === "string" ? content.length : content.byteLength;
  if (size > maxBytes)
    throw new PreviewError(
      "TOO_LARGE",
      `${path} is ${formatCount(size)} bytes; preview opens artifacts up to ${formatCount(maxBytes)} bytes.`,
      "Make the artifact smaller (move large data out, or generate it in code).",
    );
  return typeof content === "string" ? content : textDecoder.decode(content);
}
