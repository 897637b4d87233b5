import { describe, expect, it } from "vitest";
import { CommandOutputCollector } from "./command-output-collector.js";

describe("CommandOutputCollector", () => {
  it("handles escape codes, characters and CRLF split across chunks, with exact counts", () => {
    const collector = new CommandOutputCollector(10, 10, 100);
    const bytes = new TextEncoder().encode("\u001b[31mré\u001b[0md\r\n50%\r100%\r\nend");
    // Split inside the escape sequence and inside "é" (two bytes).
    for (const [from, to] of [
      [0, 3],
      [3, 7],
      [7, 9],
      [9, bytes.length],
    ] as const) {
      collector.push(bytes.subarray(from, to));
    }
    collector.finish();
    const data = collector.arrange(10_000);
    expect(data).toMatchObject({
      text: "réd\n100%\nend",
      tail: "",
      lines: 3,
      bytes: bytes.length,
      omitted_lines: 0,
      truncated: false,
    });
  });

  it("keeps head and tail within the budget and counts what lies between", () => {
    const collector = new CommandOutputCollector(100, 100, 100);
    collector.push(
      new TextEncoder().encode(Array.from({ length: 50 }, (_, i) => `row ${i + 1}\n`).join("")),
    );
    collector.finish();
    const data = collector.arrange(60);
    expect(data.text.length + data.tail.length).toBeLessThanOrEqual(60);
    expect(data.text.startsWith("row 1\nrow 2")).toBe(true);
    expect(data.tail.endsWith("row 49\nrow 50")).toBe(true);
    const shown = data.text.split("\n").length + data.tail.split("\n").length;
    expect(data.omitted_lines).toBe(50 - shown);
    expect(data.tail_start_line).toBe(50 - data.tail.split("\n").length + 1);
  });

  it("keeps the first and last characters of a long line, however its pieces arrive", () => {
    const encode = (text: string) => new TextEncoder().encode(text);
    for (const pieces of [
      ["start", "b".repeat(100), "c".repeat(100), "!"],
      [`start${"b".repeat(200)}`, "\u001b[1m", "c".repeat(49), "\u001b[0m!"],
      ["s", "t", "a", "r", "t", ..."b".repeat(150), ..."c".repeat(49), "!"],
    ]) {
      const collector = new CommandOutputCollector(10, 10, 100);
      for (const piece of pieces) collector.push(encode(piece));
      collector.finish();
      const data = collector.arrange(10_000);
      expect(data.text).toBe(`start${"b".repeat(45)}${"c".repeat(49)}!`);
      const length = pieces.join("").replaceAll("\u001b[1m", "").replaceAll("\u001b[0m", "").length;
      expect(data.cut_lines).toEqual([
        { line: 1, omitted_characters: length - 100, omitted_after: 50 },
      ]);
    }
  });
});
