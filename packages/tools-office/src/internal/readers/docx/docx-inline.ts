import { attribute, childElement, findElement, type XmlElement } from "../../container/xml.js";
import { type InlineSegment, markdownLink } from "../markdown.js";
import type { DocxParts } from "./docx-parts.js";

/**
 * A .docx paragraph's inline content as formatted segments: runs (bold, italic, strike,
 * verbatim), hyperlinks (relationship or HYPERLINK field), tracked insertions `{++…++}` and
 * deletions `{--…--}`, footnote/endnote references `[^n]`, comment markers `[comment n]`,
 * images as `![description](word/media/image1.png)`; field codes left out, their results kept.
 *
 * @internal
 */

/** What inline conversion reports back to the body. */
export interface InlineContext {
  parts: DocxParts;
  /** Bookmark name → `#slug` of the heading it marks (see docx-anchors). */
  anchors: Map<string, string>;
  /** Footnote ids referenced, in order (the body renders them at the end). */
  footnotes: string[];
  /** Endnote ids referenced, in order. */
  endnotes: string[];
  /** Comment ids referenced, in order. */
  comments: string[];
  /** Images seen (part names). */
  images: string[];
}

function isOn(properties: XmlElement | undefined, local: string): boolean {
  const element = properties === undefined ? undefined : childElement(properties, local);
  if (element === undefined) return false;
  const value = attribute(element, "val");
  return value === undefined || (value !== "0" && value !== "false" && value !== "none");
}

interface Field {
  instruction: string;
  result: InlineSegment[];
  inResult: boolean;
}

class InlineWalker {
  readonly out: InlineSegment[] = [];
  readonly #context: InlineContext;
  readonly #fields: Field[] = [];

  constructor(context: InlineContext) {
    this.#context = context;
  }

  #sink(): InlineSegment[] {
    const field = this.#fields[this.#fields.length - 1];
    return field === undefined ? this.out : field.inResult ? field.result : [];
  }

  push(segment: InlineSegment): void {
    this.#sink().push(segment);
  }

  walk(element: XmlElement, change?: "ins" | "del"): void {
    for (const node of element.children) {
      if (typeof node === "string") continue;
      switch (node.local) {
        case "r":
          this.#run(node, change);
          break;
        case "hyperlink":
          this.#hyperlink(node, change);
          break;
        case "ins":
        case "moveTo":
          this.#marked(node, "ins");
          break;
        case "del":
        case "moveFrom":
          this.#marked(node, "del");
          break;
        case "fldSimple":
          this.#simpleField(node, change);
          break;
        case "smartTag":
        case "customXml":
        case "sdtContent":
        case "dir":
        case "bdo":
          this.walk(node, change);
          break;
        case "sdt": {
          const content = childElement(node, "sdtContent");
          if (content !== undefined) this.walk(content, change);
          break;
        }
        case "oMath":
        case "oMathPara":
          this.push({ text: mathText(node) });
          break;
        default:
          break;
      }
    }
  }

  #marked(node: XmlElement, change: "ins" | "del"): void {
    const inner = new InlineWalker(this.#context);
    inner.walk(node, change);
    if (inner.out.length === 0) return;
    this.push({ text: change === "ins" ? "{++" : "{--", raw: true });
    for (const segment of inner.out) this.push(segment);
    this.push({ text: change === "ins" ? "++}" : "--}", raw: true });
  }

  #link(target: string | undefined, inner: InlineSegment[]): void {
    if (target === undefined || target === "") {
      for (const segment of inner) this.push(segment);
      return;
    }
    const text = renderLinkText(inner);
    const heading = target.startsWith("#") ? this.#context.anchors.get(target.slice(1)) : undefined;
    this.push({
      text: markdownLink(text, heading ?? target),
      raw: true,
    });
  }

  #hyperlink(node: XmlElement, change?: "ins" | "del"): void {
    const inner = new InlineWalker(this.#context);
    inner.walk(node, change);
    const id = attribute(node, "id");
    const anchor = attribute(node, "anchor");
    const relationship = id === undefined ? undefined : this.#context.parts.relationships.get(id);
    let target = relationship?.target;
    if (target !== undefined && anchor !== undefined) target = `${target}#${anchor}`;
    this.#link(target ?? (anchor === undefined ? undefined : `#${anchor}`), inner.out);
  }

  #simpleField(node: XmlElement, change?: "ins" | "del"): void {
    const inner = new InlineWalker(this.#context);
    inner.walk(node, change);
    this.#link(hyperlinkTarget(attribute(node, "instr") ?? ""), inner.out);
  }

  #run(run: XmlElement, change?: "ins" | "del"): void {
    const properties = childElement(run, "rPr");
    const style = properties === undefined ? undefined : childElement(properties, "rStyle");
    const styleName = (attribute(style ?? run, "val") ?? "").toLowerCase();
    const format: Omit<InlineSegment, "text"> = {
      bold: isOn(properties, "b"),
      italic: isOn(properties, "i"),
      strike: isOn(properties, "strike") || isOn(properties, "dstrike"),
      code: /verbatim|code|source/.test(styleName),
    };
    for (const node of run.children) {
      if (typeof node === "string") continue;
      this.#runChild(node, format, change);
    }
  }

  #runChild(node: XmlElement, format: Omit<InlineSegment, "text">, change?: "ins" | "del"): void {
    const context = this.#context;
    switch (node.local) {
      case "t":
        this.push({ ...format, text: textOf(node) });
        break;
      case "delText":
        if (change === "del") this.push({ ...format, text: textOf(node) });
        break;
      case "tab":
        this.push({ text: "\t" });
        break;
      case "br":
      case "cr":
        if (attribute(node, "type") !== "page") this.push({ text: "\n", raw: true });
        break;
      case "noBreakHyphen":
        this.push({ ...format, text: "-" });
        break;
      case "sym": {
        const code = Number.parseInt(attribute(node, "char") ?? "", 16);
        if (Number.isFinite(code)) this.push({ ...format, text: String.fromCharCode(code) });
        break;
      }
      case "footnoteReference":
      case "endnoteReference": {
        const id = attribute(node, "id") ?? "";
        const foot = node.local === "footnoteReference";
        (foot ? context.footnotes : context.endnotes).push(id);
        this.push({ text: `[^${foot ? "" : "e"}${id}]`, raw: true });
        break;
      }
      case "commentReference": {
        const id = attribute(node, "id") ?? "";
        context.comments.push(id);
        this.push({ text: `[comment ${id}]`, raw: true });
        break;
      }
      case "drawing":
      case "pict":
      case "object":
        this.#image(node);
        break;
      case "fldChar":
        this.#fieldChar(attribute(node, "fldCharType"));
        break;
      case "instrText": {
        const field = this.#fields[this.#fields.length - 1];
        if (field !== undefined && !field.inResult) field.instruction += textOf(node);
        break;
      }
      default:
        break;
    }
  }

  #fieldChar(type: string | undefined): void {
    if (type === "begin") {
      this.#fields.push({ instruction: "", result: [], inResult: false });
      return;
    }
    const field = this.#fields[this.#fields.length - 1];
    if (field === undefined) return;
    if (type === "separate") field.inResult = true;
    if (type !== "end") return;
    this.#fields.pop();
    this.#link(hyperlinkTarget(field.instruction), field.result);
  }

  #image(node: XmlElement): void {
    const blip = findElement(node, "blip") ?? findElement(node, "imagedata");
    const id =
      blip === undefined
        ? undefined
        : (attribute(blip, "embed") ?? attribute(blip, "id") ?? attribute(blip, "link"));
    const target = id === undefined ? undefined : this.#context.parts.relationships.get(id)?.target;
    const properties = findElement(node, "docPr");
    const description =
      (properties &&
        (attribute(properties, "descr") ||
          attribute(properties, "title") ||
          attribute(properties, "name"))) ||
      "image";
    if (target === undefined) {
      const box = findElement(node, "txbxContent");
      if (box !== undefined) this.push({ text: ` ${mathText(box)} ` });
      return;
    }
    this.#context.images.push(target);
    this.push({
      text: `![${description.replace(/[[\]\n]/g, " ")}](${target.replace(/[()\s]/g, encodeURIComponent)})`,
      raw: true,
    });
  }
}

function textOf(element: XmlElement): string {
  let out = "";
  for (const node of element.children) if (typeof node === "string") out += node;
  return out;
}

function mathText(element: XmlElement): string {
  let out = "";
  for (const node of element.children) {
    if (typeof node === "string") continue;
    out += node.local === "t" ? textOf(node) : mathText(node);
  }
  return out;
}

function renderLinkText(segments: InlineSegment[]): string {
  return segments
    .map((segment) => (segment.raw ? segment.text : segment.text.replace(/[[\]]/g, "\\$&")))
    .join("")
    .replace(/\n/g, " ")
    .trim();
}

/** The target of a `HYPERLINK "url" \l "anchor"` field instruction (or `HYPERLINK \l "anchor"`, Word's table of contents). */
export function hyperlinkTarget(instruction: string): string | undefined {
  const match = /^\s*HYPERLINK\s+(?:"([^"]*)"|([^\s\\]\S*))?(?:.*?\\l\s+"([^"]*)")?/i.exec(
    instruction,
  );
  if (match === null) return undefined;
  const url = match[1] ?? match[2] ?? "";
  const anchor = match[3];
  return anchor === undefined ? url : `${url}#${anchor}`;
}

/**
 * Converts a paragraph's (or any container's) inline children to segments.
 *
 * @param paragraph - a `w:p`
 * @param context - parts and the collectors of notes, comments and images
 * @returns the segments in order
 */
export function paragraphSegments(paragraph: XmlElement, context: InlineContext): InlineSegment[] {
  const walker = new InlineWalker(context);
  walker.walk(paragraph);
  return walker.out;
}
