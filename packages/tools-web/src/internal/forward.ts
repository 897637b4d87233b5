/**
 * Routes reads through a host proxy: a template with `{url}` (the target as is) or
 * `{urlEncoded}` (encoded for a query parameter), a prefix (no placeholder: the target URL is
 * appended), or a function. The model never sees the proxy URL.
 */
export type ForwardOption = string | ((url: string) => string);

/**
 * Applies a forward option to a target URL.
 *
 * @param forward - the option
 * @param url - the target URL
 * @returns the URL to request
 * @example
 * forwardUrl("/api/read?url={urlEncoded}", "https://a.example/?q=1"); // "/api/read?url=https%3A%2F%2Fa.example%2F%3Fq%3D1"
 * forwardUrl("https://r.jina.ai/", "https://a.example/"); // "https://r.jina.ai/https://a.example/"
 */
export function forwardUrl(forward: ForwardOption | undefined, url: string): string {
  if (forward === undefined) return url;
  if (typeof forward === "function") return forward(url);
  if (forward.includes("{url}") || forward.includes("{urlEncoded}")) {
    return forward.replaceAll("{urlEncoded}", encodeURIComponent(url)).replaceAll("{url}", url);
  }
  return `${forward}${url}`;
}
