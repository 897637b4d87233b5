import { formatCount, formatPageMarker, type NextCallValue } from "@agentool/contract";
import {
  DEFAULT_FETCH_MAX_CHARS,
  DEFAULT_MAX_FEED_ENTRIES,
  MAX_FEED_ENTRIES_PER_CALL,
  WEB_FETCH_TOOL_NAME,
} from "./defaults.js";
import type { WebFetchKind, WebFetchToolData } from "./fetched-document.js";

/** The tool's feed entry limits, for the header and the next call. */
export interface FeedEntryLimits {
  /** Entries listed when the model sends no `max_entries`. */
  defaultEntries: number;
  /** The largest `max_entries`. */
  maxEntries: number;
}

/**
 * The arguments the next call must repeat besides `offset`: the url, `raw`, and a non-default
 * `limit`, `render` or `max_entries`.
 */
function nextCallArgs(
  data: WebFetchToolData,
  defaultLimit: number,
  renderByDefault: boolean,
  feed: FeedEntryLimits,
): Record<string, NextCallValue> {
  const args: Record<string, NextCallValue> = { url: data.url };
  if (data.raw) args.raw = true;
  if (data.rendered === true && !renderByDefault) args.render = true;
  if (data.rendered === false && renderByDefault && data.kind === "html") args.render = false;
  if (data.limit !== defaultLimit) args.limit = data.limit;
  if (data.max_entries !== undefined && data.max_entries !== feed.defaultEntries)
    args.max_entries = data.max_entries;
  return args;
}

/** The header's feed treatment: how many entries, and how to list more when some were left out. */
function describeFeed(data: WebFetchToolData, feed: FeedEntryLimits): string {
  const shown = data.entries?.length ?? 0;
  const total = data.entries_total ?? shown;
  if (total <= shown) return `feed, ${shown} entries`;
  const more =
    (data.max_entries ?? shown) >= feed.maxEntries
      ? "no more can be listed"
      : `max_entries=${Math.min(total, feed.maxEntries)} lists ${total <= feed.maxEntries ? "all" : "more"}`;
  return `feed, the first ${shown} of ${total} entries (${more})`;
}

/**
 * Renders one page of a fetched document: a header (title, final URL, treatment, range, saved
 * file), the content, and the contract's page marker naming the exact next call when text
 * remains (`…[truncated: 64,112 more characters — call web_fetch again with url="…", offset=20001]`).
 *
 * @param data - the fetch tool's data
 * @param toolName - the tool's name, for the marker
 * @param defaultLimit - the tool's default page size (a different `limit` is repeated in the next call)
 * @param renderByDefault - whether the tool renders pages when `render` is not sent (the next call repeats a different choice)
 * @param feed - the tool's feed entry limits (a different `max_entries` is repeated in the next call)
 * @returns model-facing text
 */
export function formatFetchedPage(
  data: WebFetchToolData,
  toolName = WEB_FETCH_TOOL_NAME,
  defaultLimit = DEFAULT_FETCH_MAX_CHARS,
  renderByDefault = false,
  feed: FeedEntryLimits = {
    defaultEntries: DEFAULT_MAX_FEED_ENTRIES,
    maxEntries: MAX_FEED_ENTRIES_PER_CALL,
  },
): string {
  const rendered = data.rendered === true ? ", rendered" : "";
  const lines: string[] = [];
  if (data.title) lines.push(`# ${data.title}`);
  lines.push(
    `URL: ${data.final_url}${data.final_url !== data.url ? ` (redirected from ${data.url})` : ""}`,
  );
  const treatment: Record<WebFetchKind, string> = {
    html: data.main_content
      ? `HTML → Markdown (main content${rendered})`
      : `HTML → Markdown${rendered ? " (rendered)" : ""}`,
    json: "JSON",
    feed: describeFeed(data, feed),
    pdf: `PDF → text, ${data.pages ?? 0} pages`,
    text: data.raw
      ? data.rendered === true
        ? "rendered HTML as received"
        : "as received"
      : data.content_type
        ? `text (${data.content_type.split(";")[0]})`
        : "text",
  };
  const range =
    data.total === 0
      ? "0 characters"
      : `characters ${formatCount(data.offset)}–${formatCount(data.offset + data.content.length - 1)} of ${formatCount(data.total)}`;
  lines.push(`Type: ${treatment[data.kind]} · ${range}${data.cached ? " · cached" : ""}`);
  if (data.saved_as !== undefined) lines.push(`Saved as: ${data.saved_as}`);
  if (data.save_error !== undefined) lines.push(`Not saved: ${data.save_error}`);
  if (data.body_truncated)
    lines.push("Note: the response was larger than the size cap; only its beginning was read.");
  lines.push("");
  if (data.total === 0) {
    lines.push(
      data.rendered === false && data.kind === "html"
        ? `(The document is empty: ${data.final_url} returned no readable text. It may be built by JavaScript — call ${toolName} again with render=true — or need a login.)`
        : `(The document is empty: ${data.final_url} returned no readable text. It may be built by JavaScript or need a login; try another source.)`,
    );
  } else {
    lines.push(data.content);
    if (data.next_offset !== undefined) {
      lines.push(
        formatPageMarker({
          tool: toolName,
          nextOffset: data.next_offset,
          omitted: data.total - data.next_offset + 1,
          unit: "characters",
          args: nextCallArgs(data, defaultLimit, renderByDefault, feed),
        }),
      );
    }
  }
  return lines.join("\n");
}
