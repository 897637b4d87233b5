/**
 * Request headers a tool drops when it sends a page's request on through its own transport (a
 * rendered page in web_fetch, the browser tool): hop-by-hop and connection headers, the encoding
 * the transport negotiates itself, and proxy credentials.
 */
export const PROXIED_REQUEST_DROPPED_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "accept-encoding",
  "proxy-authorization",
  "proxy-connection",
]);

/**
 * Response headers a tool drops when it hands a transport's decoded body back to a page: the
 * encoding and length of the body as it came over the wire, and connection headers.
 */
export const PROXIED_RESPONSE_DROPPED_HEADERS: ReadonlySet<string> = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);
