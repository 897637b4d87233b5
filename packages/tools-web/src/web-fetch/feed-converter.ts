import { ok } from "@agentool/contract";
import { type FeedEntry, parseFeed, sniffFeed } from "../internal/feed.js";
import type { Converter } from "./conversion-job.js";
import type { FetchedDocument } from "./fetched-document.js";

/** The numbered list of entries a feed document reads as (title, link, date, summary). */
function listEntries(entries: readonly FeedEntry[]): string {
  return entries
    .map(
      (entry, index) =>
        `${index + 1}. ${entry.title}${entry.url ? `\n   ${entry.url}` : ""}${entry.date ? `\n   ${entry.date}` : ""}${entry.summary ? `\n   ${entry.summary}` : ""}`,
    )
    .join("\n");
}

/**
 * RSS / Atom → a numbered list of entries (title, link, date, summary), at most
 * `maxFeedEntries` of them (the most a call may ask for; {@link limitFeedEntries} keeps a call's).
 *
 * @param job - the response
 * @param settings - the entry cap
 * @returns the document, or `undefined` when the body is not a feed
 */
export const convertFeed: Converter = (job, settings) => {
  const feedFormat = sniffFeed(job.trimmed);
  if (feedFormat === undefined && !/(rss|atom)\+xml/.test(job.contentType)) return undefined;
  const feed = parseFeed(job.text, { baseUrl: job.finalUrl });
  if (feed === undefined) return undefined;
  const entries = feed.entries.slice(0, settings.maxFeedEntries);
  return ok({
    ...job.base,
    title: feed.title,
    kind: "feed",
    text: listEntries(entries),
    entries,
    entries_total: feed.entries.length,
  });
};

/**
 * A feed document with only its first `count` entries (its text listing those); any other
 * document as it is.
 *
 * @param document - the whole document (a feed keeps every entry a call may ask for)
 * @param count - the entries this call asked for
 * @returns the document this call reads
 */
export function limitFeedEntries(document: FetchedDocument, count: number): FetchedDocument {
  if (document.kind !== "feed" || document.entries === undefined) return document;
  if (document.entries.length <= count) return document;
  const entries = document.entries.slice(0, count);
  return { ...document, entries, text: listEntries(entries) };
}
