import { describe, expect, it } from "vitest";
import { countAlphanumericCharacters, sanitizeText } from "./sanitize.js";

describe("sanitizeText", () => {
  it("strips every C0 control but tab and line feed, DEL and every C1 control", () => {
    let all = "";
    for (let code = 0; code <= 0xa0; code += 1) all += String.fromCharCode(code);
    const cleaned = sanitizeText(all);
    const kept = [...cleaned].map((character) => character.charCodeAt(0));
    expect(kept).toContain(0x09);
    expect(kept).toContain(0x0a);
    for (const code of kept) {
      expect(code === 0x09 || code === 0x0a || (code >= 0x20 && code < 0x7f) || code === 0xa0).toBe(
        true,
      );
    }
    // 0x20–0x7E (95 printable ASCII) + tab + line feed + U+00A0
    expect(cleaned.length).toBe(95 + 2 + 1);
  });

  it("cleans the bytes scraped PDFs carry and keeps the text around them", () => {
    expect(sanitizeText("Vout\u0002 = 5\u0000 V\tmax\u000e\nnext\u0085 line\r")).toBe(
      "Vout = 5 V\tmax\nnext line",
    );
  });

  it("returns the very same string when there is nothing to strip, and leaves other scripts alone", () => {
    const text = "東京 café — naïve 🚀\tok\n";
    expect(sanitizeText(text)).toBe(text);
    expect(sanitizeText("")).toBe("");
  });

  it("gives the same answer on repeated calls (no state left in the global pattern)", () => {
    for (let round = 0; round < 3; round += 1) {
      expect(sanitizeText("a\u0001b")).toBe("ab");
      expect(sanitizeText("plain")).toBe("plain");
    }
  });
});

describe("countAlphanumericCharacters", () => {
  it("counts letters and digits of any script, not punctuation, spaces or marks", () => {
    expect(countAlphanumericCharacters("| 200-400mA | 5V |")).toBe(10);
    expect(countAlphanumericCharacters("---")).toBe(0);
    expect(countAlphanumericCharacters("## Setup")).toBe(5);
    expect(countAlphanumericCharacters("東京都 123")).toBe(6);
    expect(countAlphanumericCharacters("e\u0301")).toBe(1);
  });

  it("stops at the floor it is given", () => {
    expect(countAlphanumericCharacters("a".repeat(10_000), 8)).toBe(8);
    expect(countAlphanumericCharacters("abc", 8)).toBe(3);
  });
});
