/**
 * Content keys for documents given without an id. Runtime-neutral: Web Crypto's SHA-256
 * (`globalThis.crypto.subtle`, present in Node 20+, browsers, Deno, Bun and edge runtimes).
 *
 * @internal
 */

/** Hex digits of the SHA-256 digest kept in a content key (16 = 64 bits). */
export const CONTENT_KEY_HEX_DIGITS = 16;

/** The prefix of a content key: `sha256-` followed by hex digits. */
export const CONTENT_KEY_PREFIX = "sha256-";

const encoder = new TextEncoder();

/**
 * The hex SHA-256 digest of a text's UTF-8 bytes.
 *
 * @param text - any text
 * @returns 64 lower-case hex digits
 * @internal
 */
export async function sha256Hex(text: string): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw new Error(
      "This runtime has no Web Crypto (globalThis.crypto.subtle) to hash documents without an id; give each document an id.",
    );
  }
  const digest = new Uint8Array(await subtle.digest("SHA-256", encoder.encode(text)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/**
 * The document key of a document given without an id: `sha256-` and the first 16 hex digits of
 * the SHA-256 of its raw text (64 bits: a collision is expected only past ~4 billion documents).
 * The same text always gets the same key, so ingesting it again replaces it.
 *
 * @param text - the document's raw text (before chunking and sanitizing)
 * @returns e.g. `"sha256-3f2a9c1e8b7d6a5f"`
 * @internal
 */
export async function contentDocumentKey(text: string): Promise<string> {
  return `${CONTENT_KEY_PREFIX}${(await sha256Hex(text)).slice(0, CONTENT_KEY_HEX_DIGITS)}`;
}
