import { ok } from "@agentool/contract";
import { parseFeed, sniffFeed } from "../internal/feed.js";
import type { Converter } from "./conversion-job.js";

/**
 * RSS / Atom → a numbered list of entries (title, link, date, summary), at most
 * `maxFeedEntries` of them.
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
  const lines = entries.map(
    (entry, index) =>
      `${index + 1}. ${entry.title}${entry.url ? `\n   ${entry.url}` : ""}${entry.date ? `\n   ${entry.date}` : ""}${entry.summary ? `\n   ${entry.summary}` : ""}`,
  );
  return ok({
    ...job.base,
    title: feed.title,
    kind: "feed",
    text: lines.join("\n"),
    entries,
    entries_total: feed.entries.length,
  });
};
