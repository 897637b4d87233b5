/**
 * Cuts one page at a 0-based `start`: at a line break near the end when there is one, never
 * inside a surrogate pair, never empty.
 *
 * @param text - the whole document
 * @param start - where the page starts
 * @param maxChars - the page size
 * @returns the page and where it ends
 */
export function cutPage(
  text: string,
  start: number,
  maxChars: number,
): { content: string; end: number } {
  let end = Math.min(text.length, start + maxChars);
  if (end < text.length) {
    const newline = text.lastIndexOf("\n", end - 1);
    if (newline >= start && newline + 1 > start + maxChars * 0.8) end = newline + 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end = end - 1 > start ? end - 1 : end + 1;
  }
  return { content: text.slice(start, end), end };
}
