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
});
