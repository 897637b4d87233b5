import type { XmlElement, XmlNode } from "../../container/xml.js";
import { attribute, textContent } from "../../container/xml.js";
import {
  escapeBlockStart,
  type InlineSegment,
  markdownLink,
  markdownTable,
  markdownTableCell,
  renderInline,
} from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";

/**
 * An XHTML content document (an EPUB chapter, parsed by the container's XML parser) → Markdown:
 * headings, paragraphs, nested lists with their blocks (paragraphs, code) indented under the
 * item as CommonMark wants, block quotes, code blocks, GFM tables, links and images.
 *
 * @internal
 */

const HEADING = /^h([1-6])$/;
const CONTAINERS = new Set([
  "div",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "aside",
  "nav",
  "figure",
  "body",
  "center",
  "hgroup",
  "details",
  "summary",
  "address",
  "form",
  "fieldset",
]);
const SKIPPED = new Set([
  "script",
  "style",
  "head",
  "title",
  "svg",
  "math",
  "object",
  "video",
  "audio",
]);

type Format = Omit<InlineSegment, "text">;

function inline(node: XmlNode, format: Format, out: InlineSegment[]): void {
  if (typeof node === "string") {
    out.push({ ...format, text: format.code ? node : node.replace(/\s+/g, " ") });
    return;
  }
  const name = node.local.toLowerCase();
  if (SKIPPED.has(name)) return;
  switch (name) {
    case "br":
      out.push({ text: "\n", raw: true });
      return;
    case "img": {
      const alt = (attribute(node, "alt") ?? "").replace(/[[\]\n]/g, " ");
      const src = attribute(node, "src") ?? "";
      if (src !== "")
        out.push({ text: `![${alt}](${src.replace(/[()\s]/g, encodeURIComponent)})`, raw: true });
      return;
    }
    case "a": {
      const inner: InlineSegment[] = [];
      for (const child of node.children) inline(child, format, inner);
      const text = renderInline(inner).replace(/\n/g, " ").trim();
      const href = attribute(node, "href");
      if (href === undefined || href === "") out.push(...inner);
      else
        out.push({
          text: markdownLink(text, href),
          raw: true,
        });
      return;
    }
    default:
      break;
  }
  const next: Format = { ...format };
  if (name === "em" || name === "i" || name === "cite" || name === "dfn") next.italic = true;
  if (name === "strong" || name === "b") next.bold = true;
  if (name === "del" || name === "s" || name === "strike") next.strike = true;
  if (name === "code" || name === "kbd" || name === "samp" || name === "tt") next.code = true;
  for (const child of node.children) inline(child, next, out);
}

function isBlock(node: XmlNode): node is XmlElement {
  if (typeof node === "string") return false;
  const name = node.local.toLowerCase();
  return (
    HEADING.test(name) ||
    CONTAINERS.has(name) ||
    [
      "p",
      "ul",
      "ol",
      "li",
      "pre",
      "blockquote",
      "table",
      "hr",
      "dl",
      "dt",
      "dd",
      "figcaption",
    ].includes(name)
  );
}

function list(element: XmlElement, ordered: boolean): string[] {
  const lines: string[] = [];
  let counter = Number(attribute(element, "start") ?? 1) - 1;
  for (const item of element.children) {
    if (typeof item === "string" || item.local.toLowerCase() !== "li") continue;
    counter += 1;
    const marker = ordered ? `${counter}.` : "-";
    const body = blocks(item.children);
    const pad = " ".repeat(marker.length + 1);
    const loose = body.includes("");
    if (loose && lines.length > 0) lines.push("");
    body.forEach((line, index) => {
      lines.push(index === 0 ? `${marker} ${line}` : line === "" ? "" : `${pad}${line}`);
    });
    if (body.length === 0) lines.push(marker);
  }
  return lines;
}

function table(element: XmlElement): string[] {
  const rows: string[][] = [];
  const walk = (node: XmlElement) => {
    for (const child of node.children) {
      if (typeof child === "string") continue;
      const name = child.local.toLowerCase();
      if (name === "tr") {
        const cells: string[] = [];
        for (const cell of child.children) {
          if (typeof cell === "string" || !/^t[hd]$/i.test(cell.local)) continue;
          const segments: InlineSegment[] = [];
          for (const part of cell.children) inline(part, {}, segments);
          cells.push(markdownTableCell(renderInline(segments).trim()));
          const span = Math.min(64, Number(attribute(cell, "colspan") ?? 1));
          for (let extra = 1; extra < span; extra += 1) cells.push("");
        }
        rows.push(cells);
      } else if (["thead", "tbody", "tfoot"].includes(name)) walk(child);
    }
  };
  walk(element);
  return rows.length === 0 ? [] : markdownTable(rows);
}

function block(element: XmlElement): string[] {
  const name = element.local.toLowerCase();
  const heading = HEADING.exec(name);
  if (heading !== null) {
    const segments: InlineSegment[] = [];
    for (const child of element.children) inline(child, {}, segments);
    const text = renderInline(segments)
      .replace(/\s*\n\s*/g, " ")
      .trim();
    return text === "" ? [] : [`${"#".repeat(Number(heading[1]))} ${text}`];
  }
  if (name === "ul" || name === "ol") return list(element, name === "ol");
  if (name === "pre")
    return MarkdownWriter.fenced(textContent(element).replace(/\n$/, "").split("\n"));
  if (name === "blockquote")
    return blocks(element.children).map((line) => (line === "" ? ">" : `> ${line}`));
  if (name === "table") return table(element);
  if (name === "hr") return ["---"];
  return blocks(element.children);
}

/**
 * Converts a sequence of nodes to Markdown lines (blocks separated by one blank line).
 *
 * @param nodes - an element's children
 * @returns the lines
 */
export function blocks(nodes: readonly XmlNode[]): string[] {
  const out: string[][] = [];
  let segments: InlineSegment[] = [];
  const flush = () => {
    const text = renderInline(segments).trim();
    if (text !== "")
      out.push(
        escapeBlockStart(text)
          .replace(/ *\n */g, "\\\n")
          .split("\n"),
      );
    segments = [];
  };
  for (const node of nodes) {
    if (typeof node !== "string" && SKIPPED.has(node.local.toLowerCase())) continue;
    if (!isBlock(node)) {
      inline(node, {}, segments);
      continue;
    }
    flush();
    const lines = block(node);
    if (lines.length > 0) out.push(lines);
  }
  flush();
  return out.flatMap((lines, index) => (index === 0 ? lines : ["", ...lines]));
}
