import { ToolFailureError } from "@agentool/contract";
import { capText } from "../markdown.js";
import { MarkdownWriter } from "../markdown-writer.js";
import type { DocumentImage, ItemsDocument, ReaderInput } from "../types.js";

/**
 * Reads a Jupyter notebook (nbformat 4, and 3's `worksheets`): one item per cell — Markdown
 * cells as they are, code cells fenced in the kernel's language with their outputs (text capped
 * at {@link MAX_OUTPUT_CHARS} characters each, ANSI colours stripped, tracebacks kept), PNG/JPEG/GIF
 * image outputs as image blocks (at most {@link MAX_IMAGE_BYTES} each). Paged by cell.
 *
 * @internal
 */

/** Most characters of one text output shown. */
export const MAX_OUTPUT_CHARS = 2_000;

/** Largest image output sent as an image block (base64 characters). */
export const MAX_IMAGE_BYTES = 2_000_000;

type Json = Record<string, unknown>;

function joined(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.filter((line) => typeof line === "string").join("");
  return "";
}

function stripAnsi(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are control characters
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
}

function outputBlock(output: Json, cell: number, index: number, images: DocumentImage[]): string[] {
  const type = output.output_type;
  if (type === "stream") return [capText(stripAnsi(joined(output.text)), MAX_OUTPUT_CHARS)];
  if (type === "error") {
    const trace = Array.isArray(output.traceback)
      ? output.traceback.map((line) => stripAnsi(String(line))).join("\n")
      : "";
    return [
      capText(trace || `${String(output.ename)}: ${String(output.evalue)}`, MAX_OUTPUT_CHARS),
    ];
  }
  const data = (output.data ?? {}) as Json;
  for (const mime of ["image/png", "image/jpeg", "image/gif"]) {
    const encoded = joined(data[mime]).replace(/\s+/g, "");
    if (encoded === "") continue;
    if (encoded.length > MAX_IMAGE_BYTES)
      return [`[image output ${mime}, ${encoded.length} base64 characters: too large to show]`];
    images.push({ source: `cell ${cell}, output ${index}`, mime_type: mime, data: encoded });
    return [`[image output ${index}: ${mime}, shown below as "cell ${cell}, output ${index}"]`];
  }
  if (data["image/svg+xml"] !== undefined) return ["[image output: SVG, not shown]"];
  const markdown = joined(data["text/markdown"]);
  if (markdown !== "") return [capText(markdown, MAX_OUTPUT_CHARS)];
  const plain = joined(data["text/plain"]);
  if (plain !== "") return [capText(stripAnsi(plain), MAX_OUTPUT_CHARS)];
  if (data["text/html"] !== undefined) return ["[HTML output, not shown]"];
  return [];
}

/**
 * Reads a notebook's cells.
 *
 * @param input - the file
 * @returns one item per cell
 */
export async function readNotebook(input: ReaderInput): Promise<ItemsDocument> {
  let notebook: Json;
  try {
    notebook = JSON.parse(new TextDecoder().decode(input.bytes)) as Json;
  } catch (error) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${input.label} is not valid notebook JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
  const metadata = (notebook.metadata ?? {}) as Json;
  const language = String(
    ((metadata.language_info ?? {}) as Json).name ??
      ((metadata.kernelspec ?? {}) as Json).language ??
      "",
  );
  const worksheets = Array.isArray(notebook.worksheets) ? (notebook.worksheets as Json[]) : [];
  const cells = (
    Array.isArray(notebook.cells)
      ? notebook.cells
      : worksheets.flatMap((sheet) => (Array.isArray(sheet.cells) ? sheet.cells : []))
  ) as Json[];
  const items: ItemsDocument["items"] = [];
  for (const [position, cell] of cells.entries()) {
    const number = position + 1;
    const images: DocumentImage[] = [];
    const writer = new MarkdownWriter();
    const type = String(cell.cell_type ?? "code");
    const count = cell.execution_count ?? cell.prompt_number;
    writer.block(
      `### Cell ${number} · ${type}${type === "code" && typeof count === "number" ? ` · In [${count}]` : ""}`,
    );
    const source = joined(cell.source ?? cell.input);
    if (type === "markdown") writer.block(source);
    else if (type === "code") writer.code(source.split("\n"), language);
    else writer.code(source.split("\n"));
    const outputs = Array.isArray(cell.outputs) ? (cell.outputs as Json[]) : [];
    for (const [index, output] of outputs.entries()) {
      const lines = outputBlock(output, number, index + 1, images);
      if (lines.length === 0) continue;
      const text = lines.join("\n");
      if (text.startsWith("[")) writer.block(text);
      else writer.code(text.replace(/\n$/, "").split("\n"), "output");
    }
    items.push({ markdown: writer.toString(), images });
    if ((number & 63) === 0) await input.yielder.tick();
  }
  return {
    kind: "items",
    unit: "cells",
    items,
    notes: language === "" ? [] : [`Kernel language: ${language}.`],
  };
}
