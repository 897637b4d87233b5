import { ToolFailureError } from "@agentool/contract";
import { SaxesParser } from "saxes";
import { NEVER_YIELD, type Yielder } from "./yielder.js";

/**
 * XML for documents from strangers, on `saxes`: a DTD is never processed — no external entity
 * is fetched and no entity is expanded, so XXE and billion-laughs are impossible; a document
 * that declares entities (`<!ENTITY`) is refused with `BLOCKED`, one that uses an undeclared
 * entity fails as malformed. Text is fed in slices with yields between them, and nesting is
 * capped (recursive readers stay far from the stack limit).
 *
 * Two shapes: {@link parseXml} builds a small tree (parts up to tens of MB: a document body, a
 * slide); {@link createXmlStream} is SAX for parts read row by row (a 100,000-row sheet).
 *
 * @internal
 */

/** An element of a parsed tree. */
export interface XmlElement {
  /** The qualified name as written (`w:p`). */
  name: string;
  /** The name without its prefix (`p`). */
  local: string;
  /** Attributes by qualified name (`w:val`). */
  attributes: Record<string, string>;
  /** Child elements and text, in document order. */
  children: XmlNode[];
}

/** A node of a parsed tree: an element or a run of text. */
export type XmlNode = XmlElement | string;

/** Deepest element nesting accepted. */
export const MAX_XML_DEPTH = 1_000;

const SLICE_CHARS = 262_144;

/** Named character references XHTML content documents use (an EPUB chapter), besides XML's five. */
const XHTML_ENTITIES: Record<string, string> = {
  nbsp: "\u00a0",
  copy: "©",
  reg: "®",
  trade: "™",
  mdash: "—",
  ndash: "–",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  shy: "\u00ad",
  times: "×",
  deg: "°",
  eacute: "é",
  egrave: "è",
  agrave: "à",
  uuml: "ü",
  ouml: "ö",
  auml: "ä",
  szlig: "ß",
};

/** Handlers of {@link createXmlStream}. */
export interface XmlStreamHandlers {
  /** An element opened. */
  open?(name: string, attributes: Record<string, string>): void;
  /** Text (entities decoded; CDATA included). */
  text?(text: string): void;
  /** An element closed. */
  close?(name: string): void;
}

/** A SAX parser fed text in pieces. */
export interface XmlStream {
  /** Feeds the next piece of text. */
  write(text: string): void;
  /** Ends the document (checks it is complete). */
  close(): void;
}

/** The name without its prefix: `w:p` → `p`. */
export function localName(name: string): string {
  const colon = name.indexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

/**
 * Creates a SAX parser that never processes a DTD.
 *
 * @param handlers - element and text callbacks
 * @param label - the part's name for messages (`word/document.xml`)
 * @param options - `html: true` accepts XHTML's common named entities (`&nbsp;`)
 * @returns the stream
 * @throws ToolFailureError `BLOCKED` on an entity declaration, `UNSUPPORTED` on malformed XML
 */
export function createXmlStream(
  handlers: XmlStreamHandlers,
  label: string,
  options: { html?: boolean } = {},
): XmlStream {
  const parser = new SaxesParser({ position: false });
  if (options.html) Object.assign(parser.ENTITIES, XHTML_ENTITIES);
  let depth = 0;
  parser.on("doctype", (doctype) => {
    if (/<!ENTITY/i.test(doctype)) {
      throw new ToolFailureError(
        "BLOCKED",
        `${label} declares XML entities in a DTD — never processed (external entities and entity expansion are refused).`,
        { hint: "The file is crafted or damaged; ask the user for a clean copy." },
      );
    }
  });
  parser.on("opentag", (tag) => {
    depth += 1;
    if (depth > MAX_XML_DEPTH) {
      throw new ToolFailureError(
        "UNSUPPORTED",
        `${label} nests elements more than ${MAX_XML_DEPTH} deep — refused.`,
      );
    }
    handlers.open?.(tag.name, tag.attributes as Record<string, string>);
  });
  parser.on("closetag", (tag) => {
    depth -= 1;
    handlers.close?.(tag.name);
  });
  if (handlers.text !== undefined) {
    const onText = handlers.text;
    parser.on("text", onText);
    parser.on("cdata", onText);
  }
  parser.on("error", (error) => {
    throw new ToolFailureError(
      "UNSUPPORTED",
      `${label} is not well-formed XML (${error.message.replace(/^[^:]*:\d+:\d+: /, "")}).`,
      { hint: "The file may be damaged; ask the user for a fresh copy." },
    );
  });
  return {
    write: (text) => {
      parser.write(text);
    },
    close: () => {
      parser.close();
    },
  };
}

/**
 * Feeds a whole text to a stream in slices, yielding between them.
 *
 * @param stream - the parser
 * @param text - the XML text
 * @param yielder - yields to the event loop between slices
 */
export async function feedXml(stream: XmlStream, text: string, yielder: Yielder): Promise<void> {
  for (let at = 0; at < text.length; at += SLICE_CHARS) {
    stream.write(text.slice(at, at + SLICE_CHARS));
    await yielder.tick();
  }
  stream.close();
}

/**
 * Parses a part into a tree (no DTD processing; see the module's notes).
 *
 * @param text - the XML text
 * @param label - the part's name for messages
 * @param options - the yielder, and `html` for XHTML's named entities
 * @returns the root element
 */
export async function parseXml(
  text: string,
  label: string,
  options: { yielder?: Yielder; html?: boolean } = {},
): Promise<XmlElement> {
  const root: XmlElement = { name: "#document", local: "#document", attributes: {}, children: [] };
  const stack: XmlElement[] = [root];
  const stream = createXmlStream(
    {
      open: (name, attributes) => {
        const element: XmlElement = { name, local: localName(name), attributes, children: [] };
        stack[stack.length - 1]?.children.push(element);
        stack.push(element);
      },
      close: () => {
        stack.pop();
      },
      text: (value) => {
        const parent = stack[stack.length - 1];
        if (parent !== undefined && stack.length > 1) parent.children.push(value);
      },
    },
    label,
    options.html ? { html: true } : {},
  );
  await feedXml(stream, text, options.yielder ?? NEVER_YIELD);
  const first = root.children.find((node): node is XmlElement => typeof node !== "string");
  if (first === undefined) {
    throw new ToolFailureError("UNSUPPORTED", `${label} has no root element.`);
  }
  return first;
}

/** The child elements of an element (optionally only those of one local name). */
export function childElements(element: XmlElement, local?: string): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of element.children) {
    if (typeof node !== "string" && (local === undefined || node.local === local)) out.push(node);
  }
  return out;
}

/** The first child element of a local name. */
export function childElement(element: XmlElement, local: string): XmlElement | undefined {
  for (const node of element.children) {
    if (typeof node !== "string" && node.local === local) return node;
  }
  return undefined;
}

/** The first descendant element of a local name (depth first). */
export function findElement(element: XmlElement, local: string): XmlElement | undefined {
  for (const node of element.children) {
    if (typeof node === "string") continue;
    if (node.local === local) return node;
    const found = findElement(node, local);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every descendant element of a local name, in document order. */
export function findElements(element: XmlElement, local: string, out: XmlElement[] = []) {
  for (const node of element.children) {
    if (typeof node === "string") continue;
    if (node.local === local) out.push(node);
    else findElements(node, local, out);
  }
  return out;
}

/** An attribute by local name (whatever its prefix), e.g. `attribute(el, "val")` for `w:val`. */
export function attribute(element: XmlElement, local: string): string | undefined {
  const direct = element.attributes[local];
  if (direct !== undefined) return direct;
  for (const key in element.attributes) {
    if (localName(key) === local) return element.attributes[key];
  }
  return undefined;
}

/** A prefixed attribute by local name (`r:id`, never a bare `id`): relationship references. */
export function prefixedAttribute(element: XmlElement, local: string): string | undefined {
  for (const key in element.attributes) {
    if (key.includes(":") && localName(key) === local) return element.attributes[key];
  }
  return undefined;
}

/** All text below an element, concatenated. */
export function textContent(element: XmlElement): string {
  let out = "";
  for (const node of element.children) out += typeof node === "string" ? node : textContent(node);
  return out;
}
