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
  // indexOf-based: /<!\[CDATA\[([\s\S]*?)\]\]>/g is quadratic on many unclosed sections.
  let index = text.indexOf("<![CDATA[");
  if (index === -1) return text;
  let out = "";
  let copied = 0;
  while (index !== -1) {
    const end = text.indexOf("]]>", index + 9);
    if (end === -1) break;
    out += text.slice(copied, index) + text.slice(index + 9, end);
    copied = end + 3;
    index = text.indexOf("<![CDATA[", copied);
  }
  return out + text.slice(copied);
}

/** Replaces every `<…>` with `replacement` in one pass (an unclosed `<` ends the scan). */
function replaceTags(text: string, replacement: string): string {
  let index = text.indexOf("<");
  if (index === -1) return text;
  let out = "";
  let copied = 0;
  while (index !== -1) {
    const end = text.indexOf(">", index + 1);
    if (end === -1) break;
    out += text.slice(copied, index) + replacement;
    copied = end + 1;
    index = text.indexOf("<", copied);
  }
  return out + text.slice(copied);
}

/** Lower-cases ASCII letters only, so indexes stay those of the original text. */
const asciiLower = (text: string): string => text.replace(/[A-Z]+/g, (run) => run.toLowerCase());

/** Whether `character` may follow an element name in a start tag. */
const endsName = (character: string | undefined): boolean =>
  character === ">" || (character !== undefined && /\s/.test(character));

/**
 * Finds the first complete `<name …>…</name>` at or after `from` with indexOf (linear: no
 * pattern rescans the rest of the document from every unclosed start tag).
 * `lower` is the document lower-cased (names match case-insensitively).
 */
function findElement(
  lower: string,
  name: string,
  from: number,
  wordBoundary: boolean,
): { start: number; contentStart: number; contentEnd: number; end: number } | undefined {
  const open = `<${name}`;
  const closeTag = `</${name}`;
  let index = lower.indexOf(open, from);
  while (index !== -1) {
    const after = lower[index + open.length];
    if (wordBoundary ? !/\w/.test(after ?? "") : endsName(after)) {
      const tagEnd = lower.indexOf(">", index + open.length);
      if (tagEnd === -1) return undefined;
      let close = lower.indexOf(closeTag, tagEnd + 1);
      while (close !== -1) {
        let cursor = close + closeTag.length;
        while (/\s/.test(lower[cursor] ?? "")) cursor += 1;
        if (lower[cursor] === ">") {
          return { start: index, contentStart: tagEnd + 1, contentEnd: close, end: cursor + 1 };
        }
        close = lower.indexOf(closeTag, close + 1);
      }
      return undefined; // no closing tag after this one: none after later ones either
    }
    index = lower.indexOf(open, index + 1);
  }
  return undefined;
}

function element(xml: string, names: readonly string[]): string | undefined {
  const lower = asciiLower(xml);
  for (const name of names) {
    const found = findElement(lower, name.toLowerCase(), 0, false);
    if (found !== undefined) return xml.slice(found.contentStart, found.contentEnd);
  }
  return undefined;
}

function text(xml: string | undefined): string {
  if (xml === undefined) return "";
  const unwrapped = unwrapCdata(xml);
  // Escaped HTML inside (e.g. &lt;p&gt;) is decoded, then its tags stripped.
  return stripTags(replaceTags(decodeEntities(replaceTags(unwrapped, " ")), ""));
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
  const lower = asciiLower(entry);
  for (
    let index = lower.indexOf("<link");
    index !== -1;
    index = lower.indexOf("<link", index + 1)
  ) {
    if (/[\w]/.test(lower[index + 5] ?? "")) continue;
    const end = lower.indexOf(">", index + 5);
    if (end === -1) break;
    const attributes = entry.slice(index + 5, end);
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
  const entryName = format === "rss" ? "item" : "entry";
  const lower = asciiLower(xml);
  const first = findElement(lower, entryName, 0, true);
  let firstEntry = lower.search(format === "rss" ? /<item\b/ : /<entry\b/);
  if (first !== undefined && firstEntry === -1) firstEntry = first.start;
  const header = firstEntry === -1 ? xml : xml.slice(0, firstEntry);
  const title = text(element(header, ["title"]));
  for (
    let found = first;
    found !== undefined;
    found = findElement(lower, entryName, found.end, true)
  ) {
    const body = xml.slice(found.contentStart, found.contentEnd);
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
