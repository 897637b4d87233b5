import { formatCount, listWords, type MountedTools } from "@agentool/contract";

/** What the fetch may reach besides public addresses, as the host configured it. */
export interface FetchReach {
  /** Private, loopback and link-local addresses and `localhost` are allowed. */
  allowPrivate?: boolean;
  /** Hosts reachable whatever they are. */
  allowHosts?: readonly string[];
}

/** Most allowed hosts the description names; the rest are counted. */
const MAX_NAMED_HOSTS = 8;

/**
 * The sentence saying which URLs work: only public ones unless the host allowed more, and then
 * the allowed hosts by name (the first {@link MAX_NAMED_HOSTS}, the rest counted).
 *
 * @param reach - the host's `allowPrivate` and `allowHosts`
 * @returns the sentence
 * @example
 * reachSentence({ allowHosts: ["127.0.0.1:8080"] }); // "Public http(s) URLs work, and these hosts too: 127.0.0.1:8080."
 */
export function reachSentence(reach: FetchReach): string {
  const hosts = reach.allowHosts ?? [];
  const base =
    reach.allowPrivate === true
      ? "Public and private-network (localhost, LAN) http(s) URLs work"
      : "Public http(s) URLs work";
  if (hosts.length === 0)
    return reach.allowPrivate === true ? `${base}.` : "Only public http(s) URLs work.";
  const named = hosts.slice(0, MAX_NAMED_HOSTS);
  const rest = hosts.length - named.length;
  const listed = rest > 0 ? [...named, `${formatCount(rest)} more`] : named;
  return `${base}, and these hosts too: ${listWords(listed, "and")}.`;
}

/**
 * The default description of `web_fetch`: what each content kind becomes, the paging, where URLs
 * come from (naming only the mounted search tools), rendering, saving.
 *
 * @param saving - whether fetched documents are saved
 * @param mounted - the tools mounted beside it
 * @param render - whether (and by default) pages are rendered
 * @param reach - what the host allowed besides public addresses
 * @param pdf - whether PDFs are converted (the `pdf` option)
 * @returns the description
 */
export function defaultDescription(
  saving: boolean,
  mounted: MountedTools,
  render: { byDefault: boolean } | undefined,
  reach: FetchReach = {},
  pdf = true,
): string {
  const sources = mounted.filter(["web_search", "wiki_search"]);
  return [
    pdf
      ? "Reads a page or file by URL: HTML becomes Markdown (the main article when found), JSON pretty-printed, RSS/Atom feeds entries, PDFs text; binary is refused."
      : "Reads a page or file by URL: HTML becomes Markdown (the main article when found), JSON pretty-printed, RSS/Atom feeds entries; PDFs and binary are refused.",
    "A cut page ends with the exact next call; later pages reuse the first page's fetch.",
    `For URLs ${sources.length > 0 ? `from ${listWords(sources)} results, ` : ""}from the user or a page. ${reachSentence(reach)}`,
    render === undefined
      ? "Pages built by JavaScript may come back nearly empty; then use another source."
      : render.byDefault
        ? "HTML pages are rendered in a browser (their JavaScript runs) before they are read; render=false reads a page as served, which is faster."
        : "Pages built by JavaScript may come back nearly empty or say JavaScript is needed — then call again with render=true, which runs the page's scripts in a browser first (slower; use it only then).",
    saving
      ? "Every fetched document is also saved as a Markdown file; the result names it so you can search or re-read it later."
      : "",
  ]
    .filter(Boolean)
    .join(" ");
}
