import { describe, expect, it } from "vitest";
import { convertLargeTables, splitLargeHtml } from "./html-pieces.js";

function table(rows: number): string {
  const body = Array.from(
    { length: rows },
    (_, index) => `<tr><td>${index}</td><td>Name ${index} ${"padding ".repeat(4)}</td></tr>`,
  ).join("");
  return `<table><thead><tr><th>#</th><th>Name</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** Records the chunks it is given and answers a two-line header plus one line per chunk. */
function recorder(): { chunks: string[]; translate: (piece: string) => string } {
  const chunks: string[] = [];
  return {
    chunks,
    translate: (piece) => {
      chunks.push(piece);
      return `| h |\n| - |\n| chunk ${chunks.length} |`;
    },
  };
}

describe("convertLargeTables", () => {
  it("chunks a large table by 100 rows, the header row in each chunk", () => {
    const { chunks, translate } = recorder();
    const html = `<p>before</p>${table(650)}<p>after</p>`;
    const result = convertLargeTables(html, translate);
    expect(chunks).toHaveLength(7);
    for (const chunk of chunks) expect(chunk).toMatch(/^<table><thead><tr><th>#<\/th>/);
    expect(chunks[0]).toContain("<td>0</td>");
    expect(chunks[6]).toContain("<td>648</td>");
    const [key, markdown] = [...result.tables][0] as [string, string];
    expect(result.html).toBe(`<p>before</p><p>${key}</p><p>after</p>`);
    expect(markdown.split("\n")).toEqual([
      "| h |",
      "| - |",
      ...Array.from({ length: 7 }, (_, index) => `| chunk ${index + 1} |`),
    ]);
  });

  it("leaves a table whose rows cannot be told apart, and tables with no end, as they are", () => {
    const { chunks, translate } = recorder();
    const broken = table(650)
      .replace("<tr><td>649</td>", "<tr<td>649</td>")
      .replace(/<\/tr><\/tbody>/, "</tbody>");
    for (const html of [
      broken,
      `<p>${"<table".repeat(20_000)}</p>`,
      `<p>${"<table>".repeat(20_000)}</p>`,
      `<table>${"<tr".repeat(20_000)}</table>`,
      `<table>${"<tr>x".repeat(20_000)}</table>`,
    ]) {
      const result = convertLargeTables(html, translate);
      expect(result.html).toBe(html);
      expect(result.tables.size).toBe(0);
    }
    expect(chunks).toHaveLength(0);
  });
});

describe("splitLargeHtml", () => {
  it("cuts a large page between the children of a neutral container, losing nothing", () => {
    const section = `<section><h2>Part</h2><p>${"text ".repeat(200)}</p></section>`;
    const html = `<html><body><main>${section.repeat(300)}</main></body></html>`;
    const pieces = splitLargeHtml(html);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("")).toBe(html);
  });

  it("gives the page back whole when no tag ends (a run of < with no >)", () => {
    const html = "<a".repeat(100_000);
    expect(splitLargeHtml(html)).toEqual([html]);
  });
});
