/** A text block of model-facing content. */
export interface TextContentBlock {
  type: "text";
  text: string;
}

/** An image block of model-facing content (base64 data, no data: prefix). */
export interface ImageContentBlock {
  type: "image";
  /** Base64-encoded bytes. */
  data: string;
  /** e.g. `"image/png"`. */
  mimeType: string;
}

/** One block of model-facing content. */
export type ContentBlock = TextContentBlock | ImageContentBlock;

/** What a tool shows the model: plain text, or blocks when it has images. */
export type ToolContent = string | ContentBlock[];

/**
 * Flattens content to text (images become a short placeholder naming their type and size).
 *
 * @param content - a tool's rendered content
 * @returns plain text
 * @example
 * contentToText([{ type: "text", text: "shot" }, { type: "image", data, mimeType: "image/png" }]);
 */
export function contentToText(content: ToolContent): string {
  if (typeof content === "string") return content;
  return content
    .map((block) =>
      block.type === "text"
        ? block.text
        : `[image ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`,
    )
    .join("\n");
}
