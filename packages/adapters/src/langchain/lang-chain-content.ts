import type { ToolContent } from "@agentool/contract";

/** A LangChain text content block. */
export interface LangChainTextBlock {
  type: "text";
  text: string;
}

/** A LangChain standard image content block with base64 data. */
export interface LangChainImageBlock {
  type: "image";
  mimeType: string;
  data: string;
}

/** The content of a LangChain `ToolMessage` made from a rendered tool result. */
export type LangChainToolContent = string | Array<LangChainTextBlock | LangChainImageBlock>;

/**
 * Turns rendered tool content into `ToolMessage` content: text stays a string, blocks become
 * LangChain standard blocks (`{ type: "text", text }`, `{ type: "image", mimeType, data }`).
 *
 * @param content - what `tool.renderResult` returned
 * @returns LangChain message content
 * @example
 * toLangChainContent([{ type: "image", data, mimeType: "image/png" }]); // [{ type: "image", mimeType: "image/png", data }]
 */
export function toLangChainContent(content: ToolContent): LangChainToolContent {
  if (typeof content === "string") return content;
  return content.map((block) =>
    block.type === "text"
      ? { type: "text", text: block.text }
      : { type: "image", mimeType: block.mimeType, data: block.data },
  );
}
