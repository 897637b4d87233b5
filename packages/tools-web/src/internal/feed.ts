import { clip, decodeEntities, httpUrl, stripTags } from "./text.js";

/** One entry of an RSS 2.0 or Atom feed. */
export interface FeedEntry {
  /** The entry's title (plain text). */
  title: string;
  /** The entry's link (absolute), or `""` when it has none. */
  url: string;
  /** Its date as published (ISO 8601 when it parses), or `""`. */
  date: string;
  /** A plain-text summary, cut to the summary cap. */
  summary: string;
}

/** A parsed feed. */
export interface ParsedFeed {
  /** `"rss"` or `"atom"`. */
  format: "rss" | "atom";
  /** The feed's title. */
  title: string;
  /** Every entry, in document order. */
  entries: FeedEntry[];
}

/** Default cap on a feed entry's summary, in characters. */
export const DEFAULT_FEED_SUMMARY_CHARACTERS = 300;

function unwrapCdata(text: string): string {
  return text.replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1");
}

function element(xml: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const escaped = name.replace(/[.*+?^${}()|[\]\\:]/g, "\\$&");
    const match = new RegExp(`<${escaped}(?:\\s[^>]*)?>([\\s\\S]*?)</${escaped}\\s*>`, "i").exec(
      xml,
    );
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function text(xml: string | undefined): string {
  if (xml === undefined) return "";
  const unwrapped = unwrapCdata(xml);
  // Escaped HTML inside (e.g. &lt;p&gt;) is decoded, then its tags stripped.
  return stripTags(decodeEntities(unwrapped.replace(/<[^>]*>/g, " ")));
}

function isoDate(value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) return "";
  const time = Date.parse(trimmed);
  return Number.isNaN(time) ? trimmed : new Date(time).toISOString();
}

function resolve(link: string, baseUrl: string | undefined): string {
  const trimmed = decodeEntities(unwrapCdata(link)).trim();
  if (trimmed.length === 0) return "";
  try {
    return httpUrl(new URL(trimmed, baseUrl).href) ?? "";
  } catch {
    return "";
  }
}

function atomLink(entry: string, baseUrl: string | undefined): string {
  let fallback = "";
  for (const match of entry.matchAll(/<link\b([^>]*)\/?>/gi)) {
    const attributes = match[1] ?? "";
    const href = /\bhref\s*=\s*["']([^"']*)["']/i.exec(attributes)?.[1];
    if (href === undefined) continue;
    const rel = /\brel\s*=\s*["']([^"']*)["']/i.exec(attributes)?.[1] ?? "alternate";
    if (rel === "alternate") return resolve(href, baseUrl);
    if (fallback === "") fallback = resolve(href, baseUrl);
  }
  return fallback;
}

/**
 * Tells whether a body looks like an RSS 2.0 / RDF or Atom feed (by its first elements).
 *
 * @param body - the start of the body
 * @returns `"rss"`, `"atom"` or `undefined`
 */
export function sniffFeed(body: string): "rss" | "atom" | undefined {
  const head = body
    .slice(0, 2_000)
    .replace(/<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->/g, "")
    .trimStart();
  if (/^<rss[\s>]/i.test(head) || /^<rdf:RDF[\s>]/i.test(head)) return "rss";
  if (/^<feed[\s>]/i.test(head)) return "atom";
  return undefined;
}

/**
 * Parses an RSS 2.0 (or RSS 1.0/RDF) or Atom feed without a DOM (any runtime). Tolerates CDATA,
 * escaped HTML in descriptions and a cut-off body (complete entries are kept).
 *
 * @param xml - the feed document
 * @param options - the base URL for relative links and the summary cap
 * @returns the feed, or `undefined` when the document is not a feed
 * @example
 * parseFeed(rssText, { baseUrl: "https://blog.example/feed" })?.entries[0]; // { title, url, date, summary }
 */
export function parseFeed(
  xml: string,
  options: { baseUrl?: string; maxSummaryCharacters?: number } = {},
): ParsedFeed | undefined {
  const format = sniffFeed(xml);
  if (format === undefined) return undefined;
  const maxSummary = options.maxSummaryCharacters ?? DEFAULT_FEED_SUMMARY_CHARACTERS;
  const entries: FeedEntry[] = [];
  const entryPattern =
    format === "rss"
      ? /<item\b[^>]*>([\s\S]*?)<\/item\s*>/gi
      : /<entry\b[^>]*>([\s\S]*?)<\/entry\s*>/gi;
  const firstEntry = xml.search(format === "rss" ? /<item\b/i : /<entry\b/i);
  const header = firstEntry === -1 ? xml : xml.slice(0, firstEntry);
  const title = text(element(header, ["title"]));
  for (const match of xml.matchAll(entryPattern)) {
    const body = match[1] ?? "";
    const url =
      format === "rss"
        ? resolve(element(body, ["link"]) ?? element(body, ["guid"]) ?? "", options.baseUrl)
        : atomLink(body, options.baseUrl);
    const date = isoDate(
      text(
        element(
          body,
          format === "rss" ? ["pubDate", "dc:date", "updated"] : ["published", "updated"],
        ),
      ),
    );
    const summary = clip(
      text(
        element(
          body,
          format === "rss" ? ["description", "content:encoded", "summary"] : ["summary", "content"],
        ),
      ),
      maxSummary,
    );
    entries.push({
      title: text(element(body, ["title"])) || url || "(untitled)",
      url,
      date,
      summary,
    });
  }
  return { format, title, entries };
}
