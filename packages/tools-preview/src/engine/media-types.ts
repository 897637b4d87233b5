/** Media types by file extension (anything else is served as bytes, never sniffed). */
const MEDIA_TYPES: Readonly<Record<string, string>> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  cjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  webmanifest: "application/manifest+json",
  txt: "text/plain; charset=utf-8",
  md: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
};

/**
 * The media type of a file by its extension.
 *
 * @param path - a workspace path
 * @returns the `content-type` to serve it with
 */
export function mediaTypeOf(path: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? "";
  return MEDIA_TYPES[extension] ?? "application/octet-stream";
}

/** HTTP status of each failure of the reader. */
const STATUS_OF_CODE: Readonly<Record<string, number>> = {
  FILE_NOT_FOUND: 404,
  BLOCKED: 403,
  INVALID_PATH: 403,
  PERMISSION_DENIED: 403,
  TOO_LARGE: 413,
};

/**
 * The HTTP status a page sees when one of its files could not be read: by the failure's shared
 * code (`ENOENT` counts as not found), 500 for anything else.
 *
 * @param error - what the reader threw
 * @returns the status
 */
export function statusOfFailure(error: unknown): number {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return 404;
  return (typeof code === "string" ? STATUS_OF_CODE[code] : undefined) ?? 500;
}
