import { createSecretPathMatcher, formatCount, raceSignal } from "@agentool/contract";
import { PreviewError } from "../preview-backend.js";
import type { PreviewEngineOptions } from "./engine-options.js";

const textDecoder = new TextDecoder();

/**
 * The failure of an artifact over the size cap.
 *
 * @param path - the artifact's path
 * @param size - its size in bytes (or characters)
 * @param maxBytes - the cap
 * @returns the `TOO_LARGE` error
 */
export function tooLargeArtifact(path: string, size: number, maxBytes: number): PreviewError {
  return new PreviewError(
    "TOO_LARGE",
    `${path} is ${formatCount(size)} bytes; preview opens artifacts up to ${formatCount(maxBytes)} bytes.`,
    "Make the artifact smaller (move large data out, or generate it in code).",
  );
}

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
  const content = await readArtifactContent(source, path, signal, maxBytes);
  return typeof content === "string" ? content : textDecoder.decode(content);
}

/**
 * Reads one of the artifact's own files (a script, stylesheet, image…) as bytes, through the same
 * source and cap as the artifact; a secret path is refused before the source is asked.
 *
 * @param source - the engine options holding `read` or `fileSystem`
 * @param path - the normalized workspace path
 * @param signal - the page request's signal
 * @param maxBytes - the size cap
 * @returns the file's bytes
 * @throws PreviewError `BLOCKED` for a secret path, `TOO_LARGE` over the cap, the source's errors
 */
export async function readArtifactBytes(
  source: Pick<PreviewEngineOptions, "read" | "fileSystem">,
  path: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<Uint8Array> {
  if (isSecretPath(path))
    throw new PreviewError(
      "BLOCKED",
      `${path} is a secret path; preview does not serve it.`,
      "This is policy: keep secrets out of the artifact's files.",
    );
  const content = await readArtifactContent(source, path, signal, maxBytes);
  return typeof content === "string" ? textEncoder.encode(content) : content;
}

const isSecretPath = createSecretPathMatcher();
const textEncoder = new TextEncoder();

async function readArtifactContent(
  source: Pick<PreviewEngineOptions, "read" | "fileSystem">,
  path: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<string | Uint8Array> {
  let content: string | Uint8Array;
  // Raced against the call's signal: a read that ignores it (a FIFO, a stuck share) is left
  // behind at the deadline instead of holding the call past it.
  if (source.read !== undefined)
    content = await raceSignal(Promise.resolve(source.read(path, signal)), signal);
  else if (source.fileSystem !== undefined)
    content = await raceSignal(source.fileSystem.readFile(path), signal);
  else
    throw new PreviewError(
      "NOT_CONFIGURED",
      "preview has no artifact source.",
      "The host must pass read or fileSystem (or root on Node).",
    );
  const size = typeof content === "string" ? content.length : content.byteLength;
  if (size > maxBytes) throw tooLargeArtifact(path, size, maxBytes);
  return content;
}
