import { describe, expect, it } from "vitest";
import { isWhitespaceCode, MarkdownBuffer } from "./markdown-buffer.js";

/** node-html-markdown's appendResult and trailing figures on one plain string: the model. */
class StringModel {
  text = "";
  whitespace = 0;
  newLines = 0;
  append(piece: string, start?: number, spaceIfRepeating?: boolean): void {
    if (!piece && start === undefined) return;
    if (start !== undefined) this.text = this.text.substring(0, start);
    this.text += (spaceIfRepeating && this.text.slice(-1) === piece[0] ? " " : "") + piece;
    this.whitespace = 0;
    this.newLines = 0;
    for (
      let index = this.text.length - 1;
      index >= Math.max(this.text.length - 10, 0);
      index -= 1
    ) {
      const character = this.text.slice(index, index + 1);
      if (!/\s/.test(character)) break;
      this.whitespace += 1;
      if (character === "\r" || character === "\n") this.newLines += 1;
    }
  }
}

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  "",
  " ",
  "\n",
  "\n\n",
  "  \n",
  "\u00a0",
  "a",
  "**",
  "text ",
  "x\r\n",
  "- ",
  "|",
  "\t \n \n",
];

describe("MarkdownBuffer", () => {
  it("matches a plain string through random appends, cuts and reads", () => {
    for (let seed = 1; seed <= 40; seed += 1) {
      const next = random(seed);
      const buffer = new MarkdownBuffer();
      const model = new StringModel();
      for (let step = 0; step < 400; step += 1) {
        const piece = PIECES[Math.floor(next() * PIECES.length)] as string;
        const cut = next() < 0.15 ? Math.floor(next() * (model.text.length + 3)) : undefined;
        const repeat = next() < 0.3;
        buffer.append(piece, cut, repeat);
        model.append(piece, cut, repeat);
        expect(buffer.length).toBe(model.text.length);
        expect(buffer.whitespace).toBe(model.whitespace);
        expect(buffer.newLines).toBe(model.newLines);
        const from = Math.floor(next() * (model.text.length + 2));
        expect(buffer.textFrom(from)).toBe(model.text.substring(from));
      }
      expect(buffer.toString()).toBe(model.text);
    }
  });

  it("tells whitespace as JavaScript's \\s does", () => {
    const disagreements: string[] = [];
    for (let code = 0; code < 0x10000; code += 1) {
      if (isWhitespaceCode(code) !== /\s/.test(String.fromCharCode(code))) {
        disagreements.push(`U+${code.toString(16)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });
});
