import { createHash } from "node:crypto";

/**
 * A file's text: UTF-8, a byte order mark dropped.
 *
 * @param bytes - the file's bytes
 * @returns its text
 */
export function decodeText(bytes: Buffer): string {
  const text = bytes.toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A file's content hash as the sidecar keeps it: SHA-256, base64url.
 *
 * @param bytes - the file's bytes
 * @returns the hash
 */
export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("base64url");
}
