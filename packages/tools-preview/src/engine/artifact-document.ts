import { DRIVER_SOURCE } from "./driver-source.generated.js";
import { WEBRTC_WALL_SOURCE } from "./webrtc-wall.js";

/**
 * The Content-Security-Policy an artifact runs under: nothing from the network, inline scripts
 * and styles, `data:` / `blob:` for media, fonts and fetches of the artifact's own blobs, and —
 * when the backend serves the artifact's own files ({@link PreviewBackend.assetOrigin}) — that
 * one origin for scripts, styles, images, fonts, media and fetches; no forms, frames, workers or
 * base URL.
 *
 * @param assetOrigin - the origin the backend serves the artifact's files from, if any
 * @returns the policy
 */
export function artifactContentSecurityPolicy(assetOrigin?: string): string {
  const own = assetOrigin === undefined ? "" : ` ${assetOrigin}`;
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' 'unsafe-eval' data: blob:${own}`,
    `style-src 'unsafe-inline' data: blob:${own}`,
    `img-src data: blob:${own}`,
    `font-src data: blob:${own}`,
    `media-src data: blob:${own}`,
    `connect-src data: blob:${own}`,
    "worker-src 'none'",
    "frame-src 'none'",
    "child-src 'none'",
    "object-src 'none'",
    "manifest-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** The policy of a backend that serves no files (the iframe backend): nothing but inline and `data:`. */
export const ARTIFACT_CONTENT_SECURITY_POLICY = artifactContentSecurityPolicy();

/** Options of {@link prepareArtifactDocument}. */
export interface ArtifactDocumentOptions {
  /** The iframe backend's postMessage channel token; empty for the Node backend. */
  channel: string;
  /** Most console entries kept between two calls. */
  maxEntries: number;
  /** Longest console entry kept, in characters. */
  maxEntryCharacters: number;
  /** The artifact's workspace path (error locations name it). */
  path?: string;
  /** Where the backend serves the artifact's folder (`origin/`), if it does. */
  assetBase?: string;
  /** The policy to put in the document's `<meta>`. Default {@link ARTIFACT_CONTENT_SECURITY_POLICY}. */
  contentSecurityPolicy?: string;
  /** Whether the page's `fetch` of its own files goes to the host over the channel (iframe). */
  fetchBridge?: boolean;
  /** Problems met while preparing the document, shown as console errors. */
  notes?: string[];
  /** A one-line `<script type="importmap">` placed after the driver (inlined modules). */
  importMap?: string;
}

/**
 * A `<script` tag with a `src` and no `crossorigin` attribute. The document's origin is opaque,
 * so its classic scripts are cross-origin: without `crossorigin` their errors reach the page as
 * "Script error." with no file or line.
 */
const CLASSIC_SCRIPT_TAG = /<script\b(?=[^>]*\bsrc\s*=)(?![^>]*\bcrossorigin\b)/gi;

/** Stands for the inserted text's length in the driver's config until that length is known. */
const INSERTED_LENGTH_PLACEHOLDER = "__LENGTH__";

const LEADING = /^(?:\uFEFF|\s|<!--[\s\S]*?-->)*(?:<!doctype[^>]*>)?/i;

/**
 * The artifact's HTML with the CSP `<meta>`, the WebRTC wall and the driver placed ahead of
 * everything the artifact declares (after its doctype, so the document keeps its standards mode).
 * The driver comes as one `data:` URL script on the doctype's line, so the artifact's own lines
 * keep their numbers: an error on line 5 of the artifact is reported on line 5.
 *
 * @param html - the artifact as written
 * @param options - channel and console caps
 * @returns the document to load
 */
export function prepareArtifactDocument(html: string, options: ArtifactDocumentOptions): string {
  // With served files, classic scripts load with CORS (the backend answers `*`) so their errors
  // keep their file and line; the tag is rewritten in place, on its line.
  const body =
    options.assetBase === undefined || options.fetchBridge === true
      ? html
      : html.replace(CLASSIC_SCRIPT_TAG, "<script crossorigin");
  const leading = LEADING.exec(body)?.[0] ?? "";
  const leadingLines = leading.split("\n");
  const config = JSON.stringify({
    channel: options.channel,
    maxEntries: options.maxEntries,
    maxEntryCharacters: options.maxEntryCharacters,
    ...(options.path === undefined ? {} : { path: options.path }),
    ...(options.assetBase === undefined ? {} : { assetBase: options.assetBase }),
    ...(options.fetchBridge === true ? { fetchBridge: true } : {}),
    ...(options.notes === undefined || options.notes.length === 0 ? {} : { notes: options.notes }),
    inserted: {
      line: leadingLines.length,
      column: leadingLines[leadingLines.length - 1]?.length ?? 0,
      length: INSERTED_LENGTH_PLACEHOLDER,
    },
  });
  const driver = DRIVER_SOURCE.replace("__CONFIG__", () => config);
  const policy = options.contentSecurityPolicy ?? ARTIFACT_CONTENT_SECURITY_POLICY;
  const source = `data:text/javascript;charset=utf-8,${encodeURIComponent(`${WEBRTC_WALL_SOURCE}\n${driver}`)}`;
  const head = `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/"/g, "&quot;")}"><script src="${source}"></script>${(options.importMap ?? "").replace(/\n/g, " ")}`;
  // The inserted text's length, written into its own config without changing that length.
  const length = String(head.length).padStart(INSERTED_LENGTH_PLACEHOLDER.length, "0");
  const filled = head.replace(INSERTED_LENGTH_PLACEHOLDER, length);
  return `${leading}${filled}${body.slice(leading.length)}`;
}
