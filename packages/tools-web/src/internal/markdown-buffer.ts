/** How many trailing characters node-html-markdown looks at for its trailing-whitespace figures. */
const TRAILING_WINDOW = 10;

/** True for the UTF-16 code units JavaScript's `\s` matches. */
export function isWhitespaceCode(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/**
 * The Markdown being written, kept as a list of pieces instead of one growing string.
 *
 * node-html-markdown appends to one string and then reads its last characters, which makes V8
 * flatten the whole rope on every append: quadratic in the output. Here appends push a piece,
 * the last characters come from the last pieces, and only the content of an element being
 * post-processed is joined — each character once per enclosing post-processed element, so the
 * cost is linear for a bounded nesting depth.
 */
export class MarkdownBuffer {
  /** The pieces, none empty. */
  readonly #pieces: string[] = [];
  /** Offset just past each piece. */
  readonly #ends: number[] = [];
  #length = 0;
  /** Trailing whitespace characters within the last {@link TRAILING_WINDOW}. */
  whitespace = 0;
  /** Line breaks (`\r`, `\n`) among them. */
  newLines = 0;

  /** Characters written so far. */
  get length(): number {
    return this.#length;
  }

  /**
   * Appends text, first cutting the buffer back to `startPosition` when given, as
   * node-html-markdown's `appendResult` does (a space first when `spaceIfRepeatingCharacter` and
   * the text starts with the character that ends the buffer).
   */
  append(text: string, startPosition?: number, spaceIfRepeatingCharacter?: boolean): void {
    if (!text && startPosition === undefined) return;
    if (startPosition !== undefined) this.#truncate(startPosition);
    if (spaceIfRepeatingCharacter && text.length > 0 && this.#lastCharacter() === text[0]) {
      this.#push(" ");
    }
    this.#push(text);
    this.#measureTrailing();
  }

  /** The text from `start` to the end. */
  textFrom(start: number): string {
    const pieces = this.#pieces;
    const ends = this.#ends;
    let index = pieces.length;
    while (index > 0 && (ends[index - 1] as number) > start) index -= 1;
    if (index === pieces.length) return "";
    const first = pieces[index] as string;
    const firstStart = (ends[index] as number) - first.length;
    const head = start > firstStart ? first.slice(start - firstStart) : first;
    if (index === pieces.length - 1) return head;
    const tail = pieces.slice(index + 1);
    tail.unshift(head);
    return tail.join("");
  }

  /** The whole text. */
  toString(): string {
    return this.#pieces.join("");
  }

  #push(text: string): void {
    if (text.length === 0) return;
    this.#length += text.length;
    this.#pieces.push(text);
    this.#ends.push(this.#length);
  }

  #truncate(position: number): void {
    if (position >= this.#length) return;
    const pieces = this.#pieces;
    const ends = this.#ends;
    while (
      pieces.length > 0 &&
      (ends[ends.length - 1] as number) - (pieces.at(-1) as string).length >= position
    ) {
      pieces.pop();
      ends.pop();
    }
    const last = pieces.length - 1;
    if (last >= 0 && (ends[last] as number) > position) {
      const piece = pieces[last] as string;
      const start = (ends[last] as number) - piece.length;
      pieces[last] = piece.slice(0, position - start);
      ends[last] = position;
    }
    this.#length = Math.max(0, Math.min(position, this.#length));
  }

  #lastCharacter(): string {
    const last = this.#pieces.at(-1);
    return last === undefined ? "" : (last.at(-1) as string);
  }

  #measureTrailing(): void {
    let whitespace = 0;
    let newLines = 0;
    let budget = TRAILING_WINDOW;
    const pieces = this.#pieces;
    scan: for (let index = pieces.length - 1; index >= 0 && budget > 0; index -= 1) {
      const piece = pieces[index] as string;
      for (let at = piece.length - 1; at >= 0 && budget > 0; at -= 1, budget -= 1) {
        const code = piece.charCodeAt(at);
        if (!isWhitespaceCode(code)) break scan;
        whitespace += 1;
        if (code === 0x0a || code === 0x0d) newLines += 1;
      }
    }
    this.whitespace = whitespace;
    this.newLines = newLines;
  }
}
