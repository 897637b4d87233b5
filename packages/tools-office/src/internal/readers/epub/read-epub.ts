import { ToolFailureError } from "@agentool/contract";
import { NodeHtmlMarkdown } from "node-html-markdown";
import {
  attribute,
  childElement,
  childElements,
  findElement,
  findElements,
  parseXml,
  textContent,
} from "../../container/xml.js";
import type { Yielder } from "../../container/yielder.js";
import { openZip } from "../../container/zip.js";
import { resolvePartName } from "../ooxml-package.js";
import type { ReaderInput, TextDocument } from "../types.js";
import { blocks } from "./xhtml-markdown.js";

/**
 * Reads an EPUB (2 or 3): the package document found through `META-INF/container.xml`, the
 * spine's content documents in reading order, each XHTML chapter parsed by the container's XML
 * parser (no DTD processing) and converted by `xhtml-markdown.ts` (headings, nested lists with
 * their blocks, code, tables, links, images by their path in the book).
 * DRM-encrypted content (an `encryption.xml` listing anything but obfuscated fonts) is refused.
 *
 * @internal
 */

/** Largest chapter converted (characters of XHTML). */
const MAX_CHAPTER_CHARS = 20_000_000;

const FONT_OBFUSCATION = /idpf\.org\/2008\/embedding|ns\.adobe\.com\/pdf\/enc#RC/;

/** A title page (pandoc, Calibre): the title is the book's metadata, not a heading of its text. */
const TITLE_PAGE = /<section[^>]*epub:type="titlepage"[^>]*>[\s\S]*?<\/section>/gi;

/** Links between the book's own chapters (`ch001.xhtml#intro`) become plain fragments (`#intro`); others stay. */
function bookInternalLinks(
  html: string,
  chapter: string,
  inBook: (part: string) => boolean,
): string {
  return html.replace(/href="([^"#:?]+)(#[^"]*)?"/gi, (match, file: string, fragment?: string) => {
    if (!inBook(resolvePartName(chapter, decodeURIComponent(file)))) return match;
    const name = file.slice(file.lastIndexOf("/") + 1);
    return `href="${fragment ?? `#${name}`}"`;
  });
}

let lenient: NodeHtmlMarkdown | undefined;

/**
 * A chapter's Markdown: parsed as the XML it must be; a chapter that is not well-formed (raw
 * HTML passed through by its writer) goes through node-html-markdown's forgiving HTML parser.
 */
async function chapterMarkdown(html: string, name: string, yielder: Yielder): Promise<string> {
  try {
    const root = await parseXml(html, name, { yielder, html: true });
    return blocks((findElement(root, "body") ?? root).children).join("\n");
  } catch (error) {
    if (!(error instanceof ToolFailureError) || error.code !== "UNSUPPORTED") throw error;
    lenient ??= new NodeHtmlMarkdown({
      bulletMarker: "-",
      codeBlockStyle: "fenced",
      useInlineLinks: true,
      maxConsecutiveNewlines: 2,
    });
    const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
    // node-html-markdown percent-encodes `_` and `*` in link targets; give them back as written.
    return lenient
      .translate(body)
      .replace(
        /\]\(([^)\s]*)\)/g,
        (_match, url: string) => `](${url.replace(/%5F/gi, "_").replace(/%2A/gi, "*")})`,
      );
  }
}

/**
 * Reads a whole book to Markdown.
 *
 * @param input - the file
 * @returns the book's Markdown (chapters in spine order)
 */
export async function readEpub(input: ReaderInput): Promise<TextDocument> {
  const { label, yielder } = input;
  const archive = openZip(input.bytes, { label });
  if (!archive.has("META-INF/container.xml")) {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${label} is not an EPUB (no META-INF/container.xml).`,
    );
  }
  if (archive.has("META-INF/encryption.xml")) {
    const encryption = await parseXml(
      await archive.readText("META-INF/encryption.xml", yielder),
      "META-INF/encryption.xml",
      { yielder },
    );
    const locked = findElements(encryption, "EncryptedData").some((data) => {
      const method = findElement(data, "EncryptionMethod");
      return !FONT_OBFUSCATION.test((method && attribute(method, "Algorithm")) ?? "");
    });
    if (locked) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${label} is DRM-encrypted — encrypted books are not read.`,
        {
          hint: "Ask the user for a DRM-free copy.",
        },
      );
    }
  }
  const container = await parseXml(
    await archive.readText("META-INF/container.xml", yielder),
    "META-INF/container.xml",
    { yielder },
  );
  const rootfile = findElement(container, "rootfile");
  const opfName = rootfile === undefined ? undefined : attribute(rootfile, "full-path");
  if (opfName === undefined || !archive.has(opfName)) {
    throw new ToolFailureError("UNSUPPORTED", `${label}: its container names no package document.`);
  }
  const opf = await parseXml(await archive.readText(opfName, yielder), opfName, { yielder });
  const manifest = new Map<string, { href: string; type: string }>();
  const manifestElement = childElement(opf, "manifest");
  for (const item of manifestElement === undefined ? [] : childElements(manifestElement, "item")) {
    const href = decodeURIComponent(attribute(item, "href") ?? "");
    manifest.set(attribute(item, "id") ?? "", {
      href: resolvePartName(opfName, href),
      type: attribute(item, "media-type") ?? "",
    });
  }
  const metadata = childElement(opf, "metadata");
  const titleElement = metadata === undefined ? undefined : findElement(metadata, "title");
  const title = titleElement === undefined ? undefined : textContent(titleElement).trim();
  const spine = childElement(opf, "spine");
  const chapters: string[] = [];
  for (const reference of spine === undefined ? [] : childElements(spine, "itemref")) {
    const item = manifest.get(attribute(reference, "idref") ?? "");
    if (item === undefined || !archive.has(item.href) || !/html|xml/.test(item.type)) continue;
    const html = await archive.readText(item.href, yielder);
    if (html.length > MAX_CHAPTER_CHARS) {
      throw new ToolFailureError(
        "TOO_LARGE",
        `${label}: chapter ${item.href} has ${html.length} characters, more than the ${MAX_CHAPTER_CHARS} converted.`,
      );
    }
    const linked = bookInternalLinks(html.replace(TITLE_PAGE, ""), item.href, (part) =>
      archive.has(part),
    );
    const markdown = (await chapterMarkdown(linked, item.href, yielder)).trim();
    if (markdown !== "") chapters.push(markdown);
    await yielder.tick();
  }
  const document: TextDocument = { kind: "text", markdown: chapters.join("\n\n"), notes: [] };
  if (title !== undefined && title !== "") document.title = title;
  return document;
}
