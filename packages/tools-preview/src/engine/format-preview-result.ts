import {
  type ContentBlock,
  formatCount,
  formatTruncationMarker,
  type ToolContent,
} from "@agentool/contract";
import type { PreviewReadAnswer, PreviewSessionData, PreviewToolData } from "./preview-data.js";

function sessionLine(session: PreviewSessionData): string {
  return `session: ${session.path} · ${session.state} · ${session.calls} call${session.calls === 1 ? "" : "s"} · ${session.backend} · closes after ${formatCount(Math.round(session.idle_timeout_ms / 1000))} s idle`;
}

/**
 * The lines of DOM read answers (preview's `read` and the browser's): each query, its match
 * count and values, a bad selector's error, and the contract's marker when a value was cut.
 *
 * @param answers - the answers
 * @returns one line per answer (and a marker line after a cut one)
 */
export function readLines(answers: readonly PreviewReadAnswer[]): string[] {
  const lines: string[] = [];
  for (const answer of answers) {
    const head = `${answer.css}${answer.attr === "text" ? "" : ` [${answer.attr}]`}`;
    if (answer.error !== undefined) {
      lines.push(`${head}: ${answer.error}`);
      continue;
    }
    if (answer.count === 0) {
      lines.push(`${head}: no element matches`);
      continue;
    }
    const shown = answer.values.map((value) =>
      value === null ? "(absent)" : JSON.stringify(value),
    );
    const more =
      answer.count > answer.values.length
        ? ` (first ${answer.values.length} of ${answer.count} matches)`
        : answer.count > 1
          ? ` (${answer.count} matches)`
          : "";
    lines.push(`${head}${more}: ${shown.join(", ")}`);
    if (answer.truncated)
      lines.push(
        formatTruncationMarker({
          omitted: answer.omitted_characters ?? 0,
          unit: "characters",
          next: "query a narrower selector, or eval to read a part",
        }),
      );
  }
  return lines;
}

function evalLines(data: PreviewToolData): string[] {
  if (data.thrown !== undefined) return [`The code threw: ${data.thrown}`];
  const lines = [
    data.value_json === null
      ? `Returned ${data.value_type === "undefined" ? "undefined (an expression answers its value; a body, what it returns)" : data.value_type}.`
      : `Returned (${data.value_type}): ${data.value_json}`,
  ];
  if (data.value_truncated)
    lines.push(
      formatTruncationMarker({
        omitted: (data.value_characters ?? 0) - (data.value_json?.length ?? 0),
        unit: "characters",
        next: "return a smaller part of the value",
      }),
    );
  return lines;
}

/** The lines of each op's own outcome. */
const OP_LINES: Record<PreviewToolData["op"], (data: PreviewToolData) => string[]> = {
  open: (data) => [
    `Opened ${data.session.path} (${formatCount(data.characters ?? 0)} characters${data.title ? `, title ${JSON.stringify(data.title)}` : ""}; viewport ${data.width}×${data.height}; ${data.canvases ?? 0} canvas${data.canvases === 1 ? "" : "es"}).`,
  ],
  act: (data) => [
    data.failed === undefined
      ? `Did ${data.completed} of ${data.requested} action${data.requested === 1 ? "" : "s"}.`
      : `Did ${data.completed} of ${data.requested} actions; actions[${data.failed.index}] (${data.failed.type}) failed: ${data.failed.message}. The rest were not run — read the DOM to find the right target.`,
  ],
  read: (data) => readLines(data.answers ?? []),
  eval: evalLines,
  shot: (data) => [
    `Shot of the ${data.source === "canvas" ? `largest canvas (${data.selector}, ${data.canvases} in the document)` : "viewport"}: ${data.width}×${data.height} PNG, ${formatCount(data.bytes ?? 0)} bytes.`,
  ],
  close: (data) => [data.closed ? "Closed the session." : "No session was open."],
};

function consoleLines(data: PreviewToolData): string[] {
  if (data.console.length === 0 && data.console_omitted === 0)
    return ["console: (nothing since the last call)"];
  const lines = ["console (since the last call):"];
  for (const entry of data.console)
    lines.push(`[${entry.level}] ${entry.text}${entry.count > 1 ? ` ×${entry.count}` : ""}`);
  if (data.console_omitted > 0)
    lines.push(
      formatTruncationMarker({
        omitted: data.console_omitted,
        unit: "entries",
        next: "log less, or read the state with eval",
      }),
    );
  return lines;
}

/**
 * The model-facing text of a preview result: the op's outcome, the session line and the console.
 *
 * @param data - a preview result
 * @returns text, or a text block and an image block for a shot
 */
export function formatPreviewResult(data: PreviewToolData): ToolContent {
  const text = [...OP_LINES[data.op](data), sessionLine(data.session), ...consoleLines(data)].join(
    "\n",
  );
  if (data.op === "shot" && data.image_base64 !== undefined) {
    const blocks: ContentBlock[] = [
      { type: "text", text },
      { type: "image", data: data.image_base64, mimeType: data.mime_type ?? "image/png" },
    ];
    return blocks;
  }
  return text;
}
