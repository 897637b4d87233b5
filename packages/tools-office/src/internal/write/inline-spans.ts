import type { Token, Tokens } from "marked";

/**
 * Markdown inline tokens (from `marked`'s lexer) flattened to styled spans, the shape every
 * writer (Word, PowerPoint, Excel) turns into its own runs.
 *
 * @internal
 */

/** A run of text with one style. */
export interface Span {
  /** The text (or an image's alt text). */
  text: string;
  /** Bold. */
  bold?: boolean;
  /** Italic. */
  italic?: boolean;
  /** Struck through. */
  strike?: boolean;
  /** Inline code (monospace). */
  code?: boolean;
  /** A link's target. */
  link?: string;
  /** An image's path or URL (then `text` is its alt text). */
  image?: string;
  /** A hard line break (text empty). */
  lineBreak?: boolean;
}

type Style = Omit<Span, "text" | "image" | "lineBreak">;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  "#39": "'",
  nbsp: "\u00a0",
};

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|nbsp);/g,
    (_whole, name: string) => ENTITIES[name] ?? "",
  );
}

/**
 * Flattens inline tokens into spans.
 *
 * @param tokens - a block's inline tokens
 * @param style - the style inherited from enclosing tokens
 * @returns the spans in order
 */
export function inlineSpans(tokens: readonly Token[] | undefined, style: Style = {}): Span[] {
  const spans: Span[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case "strong":
        spans.push(...inlineSpans((token as Tokens.Strong).tokens, { ...style, bold: true }));
        break;
      case "em":
        spans.push(...inlineSpans((token as Tokens.Em).tokens, { ...style, italic: true }));
        break;
      case "del":
        spans.push(...inlineSpans((token as Tokens.Del).tokens, { ...style, strike: true }));
        break;
      case "codespan":
        spans.push({ ...style, code: true, text: decodeEntities((token as Tokens.Codespan).text) });
        break;
      case "link": {
        const link = token as Tokens.Link;
        spans.push(...inlineSpans(link.tokens, { ...style, link: link.href }));
        break;
      }
      case "image": {
        const image = token as Tokens.Image;
        spans.push({ ...style, text: image.text, image: image.href });
        break;
      }
      case "br":
        spans.push({ text: "", lineBreak: true });
        break;
      case "text": {
        const text = token as Tokens.Text;
        if (text.tokens !== undefined && text.tokens.length > 0)
          spans.push(...inlineSpans(text.tokens, style));
        else spans.push({ ...style, text: decodeEntities(text.text) });
        break;
      }
      case "escape":
        spans.push({ ...style, text: (token as Tokens.Escape).text });
        break;
      case "html":
        spans.push({ ...style, text: (token as Tokens.HTML).text.replace(/<[^>]*>/g, "") });
        break;
      default:
        if ("text" in token && typeof token.text === "string")
          spans.push({ ...style, text: decodeEntities(token.text) });
    }
  }
  return spans;
}

/**
 * The plain text of spans (images as their alt text).
 *
 * @param spans - spans
 * @returns their text
 */
export function spansText(spans: readonly Span[]): string {
  return spans.map((span) => (span.lineBreak ? "\n" : span.text)).join("");
}

/**
 * Pixel size of a PNG, JPEG or GIF from its header.
 *
 * @param bytes - the image file
 * @returns its type and size, or undefined for other formats
 */
export function imageSize(
  bytes: Uint8Array,
): { type: "png" | "jpg" | "gif"; width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length > 24 && bytes[0] === 0x89 && bytes[1] === 0x50) {
    return { type: "png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length > 10 && bytes[0] === 0x47 && bytes[1] === 0x49) {
    return { type: "gif", width: view.getUint16(6, true), height: view.getUint16(8, true) };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let at = 2; at + 9 < bytes.length; ) {
      if (bytes[at] !== 0xff) return undefined;
      const marker = bytes[at + 1] as number;
      const length = view.getUint16(at + 2);
      if (
        marker >= 0xc0 &&
        marker <= 0xcf &&
        marker !== 0xc4 &&
        marker !== 0xc8 &&
        marker !== 0xcc
      ) {
        return { type: "jpg", width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
      }
      at += 2 + length;
    }
  }
  return undefined;
}
