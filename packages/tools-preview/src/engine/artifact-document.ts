import { DRIVER_SOURCE } from "./driver-source.generated.js";
import { WEBRTC_WALL_SOURCE } from "./webrtc-wall.js";

/**
 * The Content-Security-Policy every artifact runs under (both backends): nothing from the
 * network, inline scripts and styles only, `data:` / `blob:` for media, fonts and fetches of
 * the artifact's own blobs; no forms, frames, workers or base URL.
 */
export const ARTIFACT_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'unsafe-inline' 'unsafe-eval' data: blob:",
  "style-src 'unsafe-inline' data: blob:",
  "img-src data: blob:",
  "font-src data: blob:",
  "media-src data: blob:",
  "connect-src data: blob:",
  "worker-src 'none'",
  "frame-src 'none'",
  "child-src 'none'",
  "object-src 'none'",
  "manifest-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join("; ");

/** Options of {@link prepareArtifactDocument}. */
export interface ArtifactDocumentOptions {
  /** The iframe backend's postMessage channel token; empty for the Node backend. */
  channel: string;
  /** Most console entries kept between two calls. */
  maxEntries: number;
  /** Longest console entry kept, in characters. */
  maxEntryCharacters: number;
}

const LEADING = /^(?:\uFEFF|\s|<!--[\s\S]*?-->)*(?:<!doctype[^>]*>)?/i;

/**
 * The artifact's HTML with the CSP `<meta>`, the WebRTC wall and the driver placed ahead of
 * everything the artifact declares (after its doctype, so the document keeps its standards mode).
 *
 * @param html - the artifact as written
 * @param options - channel and console caps
 * @returns the document to load
 */
export function prepareArtifactDocument(html: string, options: ArtifactDocumentOptions): string {
  const config = JSON.stringify({
    channel: options.channel,
    maxEntries: options.maxEntries,
    maxEntryCharacters: options.maxEntryCharacters,
  });
  const driver = DRIVER_SOURCE.replace("__CONFIG__", config).replace(/<\/script/gi, "<\\/script");
  const head = `<meta http-equiv="Content-Security-Policy" content="${ARTIFACT_CONTENT_SECURITY_POLICY.replace(/"/g, "&quot;")}"><script>${WEBRTC_WALL_SOURCE}\n${driver}</script>`;
  const leading = LEADING.exec(html)?.[0] ?? "";
  return `${leading}${head}${html.slice(leading.length)}`;
}
