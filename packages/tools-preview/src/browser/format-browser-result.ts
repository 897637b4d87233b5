import { type ContentBlock, formatPageMarker, type ToolContent } from "@agentool/contract";
import { readLines } from "../engine/format-preview-result.js";
import type { BrowserToolData } from "./browser-data.js";

/**
 * Renders a browser answer for the model: the page line, the op's lines, the events; a shot as a
 * text block and an image block.
 *
 * @param data - the answer
 * @param toolName - the tool's name (for the next call's marker)
 * @returns text, or text and image blocks
 */
export function formatBrowserResult(data: BrowserToolData, toolName = "browser"): ToolContent {
  const lines = [`tab ${data.tab}/${data.tabs} · ${data.title || "(no title)"} · ${data.url}`];
  if (data.failed !== undefined)
    lines.push(
      `Done ${data.completed} of ${data.requested} actions; action ${data.failed.index + 1} (${data.failed.type}) failed: ${data.failed.message}`,
    );
  else if (data.requested !== undefined)
    lines.push(`Done ${data.completed} of ${data.requested} actions.`);
  if (data.navigated === true) lines.push("The actions opened another page; its tree:");
  if (data.changes !== undefined)
    lines.push(
      `Changed since the last snapshot: ${data.changes.added} new lines, ${data.changes.removed} gone.`,
    );
  if (data.find !== undefined)
    lines.push(`Lines with ${JSON.stringify(data.find)}: ${data.total_lines ?? 0}.`);
  if (data.lines !== undefined) {
    lines.push(...data.lines);
    if (data.next_offset !== undefined)
      lines.push(
        formatPageMarker({
          tool: toolName,
          // After act, changed lines are paged by a fresh snapshot; a whole tree, by its next page.
          nextOffset: data.op === "act" && data.changes !== undefined ? 1 : data.next_offset,
          omitted: (data.total_lines ?? 0) - (data.offset ?? 1) + 1 - data.lines.length,
          unit: "lines",
          args: {
            op: "snapshot",
            ...(data.changes === undefined || data.op === "act" ? {} : { changes: true }),
            ...(data.format === "markdown" ? { markdown: true } : {}),
            ...(data.find === undefined ? {} : { find: data.find }),
          },
        }),
      );
  }
  lines.push(...readLines(data.answers ?? []));
  for (const tab of data.tab_list ?? [])
    lines.push(
      `${tab.current ? "*" : " "} tab ${tab.tab}: ${tab.title || "(no title)"} · ${tab.url}`,
    );
  for (const event of data.events)
    lines.push(`[${event.kind}] ${event.text}${event.count > 1 ? ` (×${event.count})` : ""}`);
  if (data.events_omitted > 0) lines.push(`(${data.events_omitted} more events left out)`);
  const text = lines.join("\n");
  if (data.op === "shot" && data.image_base64 !== undefined) {
    const blocks: ContentBlock[] = [
      { type: "text", text },
      { type: "image", data: data.image_base64, mimeType: data.mime_type ?? "image/png" },
    ];
    return blocks;
  }
  return text;
}
