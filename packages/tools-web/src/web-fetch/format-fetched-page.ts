import { formatCount, formatPageMarker, type NextCallValue } from "@agentool/contract";
import { DEFAULT_FETCH_MAX_CHARS, WEB_FETCH_TOOL_NAME } from "./defaults.js";
import type { WebFetchKind, WebFetchToolData } from "./fetched-document.js";

/** The arguments the next call must repeat besides `offset`: the url, `raw`, and a non-default `limit`. */
function nextCallArgs(
  data: WebFetchToolData,
  defaultLimit: number,
  renderByDefault: boolean,
): Record<string, NextCallValue> {
  const args: Record<string, NextCallValue> = { url: data.url };
  if (data.raw) args.raw = true;
  if (data.rendered === true && !renderByDefault) args.render = true;
  if (data.rendered === false && renderByDefault && data.kind === "html") args.render = false;
  if (data.limit !== defaultLimit) args.limit = data.limit;
  return args;
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
 * @returns model-facing text
 */
export function formatFetchedPage(
  data: WebFetchToolData,
  toolName = WEB_FETCH_TOOL_NAME,
  defaultLimit = DEFAULT_FETCH_MAX_CHARS,
  renderByDefault = false,
): string {
  const rendered = data.rendered === true ? ", rendered" : "";
  const lines: string[] = [];
  if (data.title) lines.push(`# ${data.title}`);
  lines.push(
    `URL: ${data.final_url}${data.final_url !== data.url ? ` (redirected from ${data.url})` : ""}`,
  );
  const feedEntries =
    data.entries_total !== undefined && data.entries_total > (data.entries?.length ?? 0)
      ? `feed, the first ${data.entries?.length ?? 0} of ${data.entries_total} entries (the host keeps no more)`
      : `feed, ${data.entries?.length ?? 0} entries`;
  const treatment: Record<WebFetchKind, string> = {
    html: data.main_content
      ? `HTML → Markdown (main content${rendered})`
      : `HTML → Markdown${rendered ? " (rendered)" : ""}`,
    json: "JSON",
    feed: feedEntries,
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
          args: nextCallArgs(data, defaultLimit, renderByDefault),
        }),
      );
    }
  }
  return lines.join("\n");
}
