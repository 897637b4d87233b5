import type { ContentBlock, ToolContent } from "../content.js";
import type { ToolInputSchema } from "../define-tool.js";
import type { ToolResult } from "../result.js";
import { formatTruncationMarker } from "../truncate.js";
import type { ToolCore } from "./tool-core.js";

const DEFAULT_RENDER_CHARACTERS = 50_000;

/**
 * Formats a failure for the model: `Error [CODE]: message` and, when present, the hint.
 *
 * @param error - the failure's error
 * @returns model-facing text
 * @example
 * formatToolError({ code: "FILE_NOT_FOUND", message: "a.md does not exist." }); // "Error [FILE_NOT_FOUND]: a.md does not exist."
 */
export function formatToolError(error: { code: string; message: string; hint?: string }): string {
  const hint = error.hint === undefined ? "" : `\nHint: ${error.hint}`;
  return `Error [${error.code}]: ${error.message}${hint}`;
}

/**
 * Model-facing content for an envelope: the tool's rendering of the data (the data as JSON when
 * it has none or it renders something that is not content), or the formatted error. Never throws.
 *
 * @param core - the tool
 * @param result - the envelope
 * @returns the content
 * @internal
 */
export function renderResult<Input extends ToolInputSchema, Output>(
  core: ToolCore<Input, Output>,
  result: ToolResult<Output>,
): ToolContent {
  try {
    if (!result.success) return formatToolError(result.error);
    const content = core.render ? core.render(result.data) : defaultRender(result.data);
    return isValidContent(content) ? content : defaultRender(result.data);
  } catch (error) {
    return `Error [INTERNAL]: ${core.name} could not render its result (${error instanceof Error ? error.message : String(error)}).`;
  }
}

function defaultRender(data: unknown): string {
  if (typeof data === "string") return data;
  if (data === undefined) return "Done.";
  let text: string;
  try {
    text = JSON.stringify(data, null, 2) ?? String(data);
  } catch {
    text = String(data);
  }
  if (text.length <= DEFAULT_RENDER_CHARACTERS) return text;
  return `${text.slice(0, DEFAULT_RENDER_CHARACTERS)}\n${formatTruncationMarker({
    omitted: text.length - DEFAULT_RENDER_CHARACTERS,
    unit: "characters",
    next: "the full result is in the tool's artifact; ask for a narrower result",
  })}`;
}

function isValidContent(content: unknown): content is ToolContent {
  if (typeof content === "string") return true;
  if (!Array.isArray(content)) return false;
  return content.every((block: ContentBlock) =>
    block?.type === "text"
      ? typeof block.text === "string"
      : block?.type === "image" &&
        typeof block.data === "string" &&
        typeof block.mimeType === "string",
  );
}
