/**
 * Assembles a Markdown document block by block with CommonMark spacing: one blank line between
 * blocks, none between the items of one list, nested items indented four spaces a level.
 *
 * @internal
 */
export class MarkdownWriter {
  readonly #lines: string[] = [];
  #last: "none" | "block" | "list" = "none";

  /** Adds a block (a paragraph, heading, table…) of one or more lines. */
  block(lines: readonly string[] | string): void {
    const list = typeof lines === "string" ? lines.split("\n") : lines;
    if (list.length === 0 || list.every((line) => line.trim() === "")) return;
    if (this.#last !== "none") this.#lines.push("");
    this.#lines.push(...list);
    this.#last = "block";
  }

  /**
   * Adds a list item.
   *
   * @param depth - 0 for a top-level item
   * @param marker - `-` or `3.`
   * @param text - the item's text (later lines are indented under it)
   */
  listItem(depth: number, marker: string, text: string): void {
    if (this.#last === "block") this.#lines.push("");
    const indent = "    ".repeat(Math.max(0, Math.min(depth, 9)));
    const [first = "", ...rest] = text.split("\n");
    this.#lines.push(`${indent}${marker} ${first}`.trimEnd());
    for (const line of rest) this.#lines.push(`${indent}${" ".repeat(marker.length + 1)}${line}`);
    this.#last = "list";
  }

  /**
   * Adds a block that continues the list item above it (a second paragraph, a code block): a
   * blank line, then the lines indented under the item of that depth.
   *
   * @param depth - the item's depth (0 for a top-level item)
   * @param lines - the block's lines
   */
  continuation(depth: number, lines: readonly string[]): void {
    if (lines.length === 0) return;
    const indent = "    ".repeat(Math.max(0, Math.min(depth, 9)) + 1);
    this.#lines.push("");
    for (const line of lines) this.#lines.push(line === "" ? "" : `${indent}${line}`);
    this.#last = "block";
  }

  /** The lines of a fenced code block (for {@link continuation}). */
  static fenced(lines: readonly string[], language = ""): string[] {
    const longest = Math.max(2, ...lines.map((line) => /^`+/.exec(line)?.[0].length ?? 0));
    const fence = "`".repeat(longest + 1);
    return [`${fence}${language}`, ...lines, fence];
  }

  /** Adds a fenced code block. */
  code(lines: readonly string[], language = ""): void {
    this.block(MarkdownWriter.fenced(lines, language));
  }

  /** The document so far. */
  toString(): string {
    return this.#lines.join("\n");
  }
}
