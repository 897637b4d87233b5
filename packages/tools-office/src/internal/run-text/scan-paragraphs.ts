/**
 * Scanning a document part's XML (WordprocessingML, DrawingML, OpenDocument) into paragraphs of
 * text pieces, each piece remembering where it sits in the XML — so a replacement can rewrite
 * just the characters it touches and leave every other byte as it was. One linear pass over the
 * string, no DOM, no DTD: the document is never re-serialised.
 *
 * @internal
 */

/** How one XML vocabulary spells paragraphs, runs and their text. */
export interface RunDialect {
  /** Elements that are paragraphs (`w:p`; `a:p`; `text:p`, `text:h`). */
  paragraphs: ReadonlySet<string>;
  /** The element holding a run's text (`w:t`, `a:t`); absent: all character data of a paragraph (OpenDocument). */
  text?: string;
  /** The run element (`w:r`, `a:r`); a run left holding no text is removed. */
  run?: string;
  /** Empty elements that stand for characters (`w:tab` → tab), with the parent they must have (or `*`). */
  atoms: ReadonlyMap<string, { text: string; parent: string }>;
  /** Elements whose character data is not text (OpenDocument: none needed beyond the rule above). */
  skip: ReadonlySet<string>;
}

/** A stretch of a paragraph's text: a text element's content, raw character data, or an atom. */
export interface TextPiece {
  /** `text`: editable characters; `atom`: an element standing for characters (tab, break, spaces). */
  kind: "text" | "atom";
  /** The decoded text it contributes. */
  text: string;
  /** Start of its content in the XML (text) or of the element (atom). */
  start: number;
  /** End of its content (text) or of the element (atom). */
  end: number;
  /** The opening tag of its text element (`<w:t …>`), for `xml:space`; absent for raw character data. */
  openTag?: { start: number; end: number };
  /** Start and end of the whole text element (`<w:t>…</w:t>`). */
  element?: { start: number; end: number };
  /** The run it belongs to (`<w:r>…</w:r>`), when the dialect has runs. */
  run?: { start: number; end: number };
}

/** One paragraph of a part, in document order (a nested one — a text box, a note — on its own). */
export interface ScannedParagraph {
  /** Its pieces in order. */
  pieces: TextPiece[];
  /** Its whole text (the pieces joined). */
  text: string;
}

/** WordprocessingML (.docx). */
export const WORD_DIALECT: RunDialect = {
  paragraphs: new Set(["w:p"]),
  text: "w:t",
  run: "w:r",
  atoms: new Map([
    ["w:tab", { text: "\t", parent: "w:r" }],
    ["w:br", { text: "\n", parent: "w:r" }],
    ["w:cr", { text: "\n", parent: "w:r" }],
  ]),
  skip: new Set(),
};

/** DrawingML text (.pptx slides). */
export const DRAWING_DIALECT: RunDialect = {
  paragraphs: new Set(["a:p"]),
  text: "a:t",
  run: "a:r",
  atoms: new Map([["a:br", { text: "\n", parent: "a:p" }]]),
  skip: new Set(),
};

/** OpenDocument text (.odt content.xml). */
export const OPEN_DOCUMENT_DIALECT: RunDialect = {
  paragraphs: new Set(["text:p", "text:h"]),
  atoms: new Map([
    ["text:tab", { text: "\t", parent: "*" }],
    ["text:line-break", { text: "\n", parent: "*" }],
    ["text:s", { text: " ", parent: "*" }],
  ]),
  skip: new Set(["text:note-citation", "office:annotation", "text:bookmark-ref"]),
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/**
 * Decodes XML character data (the five entities and numeric references).
 *
 * @param raw - character data as stored
 * @returns its text
 */
export function decodeXmlText(raw: string): string {
  if (!raw.includes("&")) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, body: string) => {
    if (body.startsWith("#x")) return String.fromCodePoint(Number.parseInt(body.slice(2), 16));
    if (body.startsWith("#")) return String.fromCodePoint(Number.parseInt(body.slice(1), 10));
    return ENTITIES[body] ?? whole;
  });
}

/**
 * Encodes text as XML character data (`&`, `<`, `>` escaped).
 *
 * @param text - the text
 * @returns character data
 */
export function encodeXmlText(text: string): string {
  return text.replace(/[&<>]/g, (character) =>
    character === "&" ? "&amp;" : character === "<" ? "&lt;" : "&gt;",
  );
}

function tagEnd(xml: string, from: number): number {
  let quote = "";
  for (let at = from; at < xml.length; at += 1) {
    const character = xml[at];
    if (quote !== "") {
      if (character === quote) quote = "";
    } else if (character === '"' || character === "'") quote = character;
    else if (character === ">") return at;
  }
  return xml.length - 1;
}

interface OpenElement {
  name: string;
  start: number;
  openEnd: number;
  paragraph?: ScannedParagraph;
  pieces?: TextPiece[];
}

function spaceCount(tag: string): number {
  const match = /\stext:c\s*=\s*["'](\d+)["']/.exec(tag);
  return match === null ? 1 : Math.min(10_000, Number(match[1]));
}

/**
 * Scans a part's XML into its paragraphs, in document order.
 *
 * @param xml - the part's text
 * @param dialect - the vocabulary
 * @returns every paragraph (empty ones included, so numbers match what a reader shows)
 */
export function scanParagraphs(xml: string, dialect: RunDialect): ScannedParagraph[] {
  const paragraphs: ScannedParagraph[] = [];
  const stack: OpenElement[] = [];
  const open: ScannedParagraph[] = [];
  let textElement: OpenElement | undefined;
  let skipDepth = 0;
  let at = 0;
  const addData = (start: number, end: number) => {
    const paragraph = open[open.length - 1];
    if (paragraph === undefined || skipDepth > 0 || end <= start) return;
    if (dialect.text !== undefined && textElement === undefined) return;
    const piece: TextPiece = {
      kind: "text",
      text: decodeXmlText(xml.slice(start, end)),
      start,
      end,
    };
    if (textElement !== undefined) {
      piece.openTag = { start: textElement.start, end: textElement.openEnd };
      textElement.pieces?.push(piece);
    }
    paragraph.pieces.push(piece);
  };
  while (at < xml.length) {
    const lt = xml.indexOf("<", at);
    if (lt === -1) break;
    addData(at, lt);
    if (xml.startsWith("<!--", lt)) {
      const close = xml.indexOf("-->", lt + 4);
      at = close === -1 ? xml.length : close + 3;
      continue;
    }
    if (xml.startsWith("<![CDATA[", lt) || xml.startsWith("<?", lt) || xml.startsWith("<!", lt)) {
      const close = xml.startsWith("<![CDATA[", lt) ? xml.indexOf("]]>", lt) + 2 : tagEnd(xml, lt);
      at = close <= lt ? xml.length : close + 1;
      continue;
    }
    const gt = tagEnd(xml, lt + 1);
    at = gt + 1;
    if (xml[lt + 1] === "/") {
      const name = xml.slice(lt + 2, gt).trim();
      closeElement(name, gt + 1);
      continue;
    }
    const selfClosing = xml[gt - 1] === "/";
    const name = /^[^\s/>]+/.exec(xml.slice(lt + 1, gt))?.[0] ?? "";
    const element: OpenElement = { name, start: lt, openEnd: gt + 1 };
    const atom = dialect.atoms.get(name);
    const parent = stack[stack.length - 1]?.name;
    const paragraph = open[open.length - 1];
    if (atom !== undefined && paragraph !== undefined && skipDepth === 0) {
      if (atom.parent === "*" || atom.parent === parent) {
        const count = name === "text:s" ? spaceCount(xml.slice(lt, gt)) : 1;
        const piece: TextPiece = {
          kind: "atom",
          text: atom.text.repeat(count),
          start: lt,
          end: gt + 1,
        };
        paragraph.pieces.push(piece);
        if (dialect.run !== undefined) findRun(stack, dialect.run)?.pieces?.push(piece);
      }
    }
    if (selfClosing) continue;
    if (dialect.paragraphs.has(name)) {
      element.paragraph = { pieces: [], text: "" };
      open.push(element.paragraph);
      paragraphs.push(element.paragraph);
    }
    if (dialect.skip.has(name)) skipDepth += 1;
    if (name === dialect.text && paragraph !== undefined) {
      element.pieces = [];
      textElement = element;
    }
    if (name === dialect.run) element.pieces = [];
    stack.push(element);
  }
  for (const paragraph of paragraphs) {
    paragraph.text = paragraph.pieces.map((piece) => piece.text).join("");
  }
  return paragraphs;

  function closeElement(name: string, end: number): void {
    // Pop to the matching element (tolerates a stray close tag).
    let index = stack.length - 1;
    while (index >= 0 && stack[index]?.name !== name) index -= 1;
    if (index < 0) return;
    while (stack.length > index) {
      const element = stack.pop() as OpenElement;
      if (element.paragraph !== undefined) open.splice(open.lastIndexOf(element.paragraph), 1);
      if (dialect.skip.has(element.name)) skipDepth -= 1;
      if (element === textElement) {
        for (const piece of element.pieces ?? []) {
          piece.element = { start: element.start, end };
          const run = dialect.run === undefined ? undefined : findRun(stack, dialect.run);
          if (run !== undefined) run.pieces?.push(piece);
        }
        if (element.pieces?.length === 0) {
          // An empty text element: an empty piece keeps the run editable.
          const paragraph = open[open.length - 1];
          const piece: TextPiece = {
            kind: "text",
            text: "",
            start: element.openEnd,
            end: element.openEnd,
            openTag: { start: element.start, end: element.openEnd },
            element: { start: element.start, end },
          };
          paragraph?.pieces.push(piece);
          findRun(stack, dialect.run ?? "")?.pieces?.push(piece);
        }
        textElement = undefined;
      }
      if (element.name === dialect.run) {
        for (const piece of element.pieces ?? []) piece.run = { start: element.start, end };
      }
    }
  }
}

function findRun(stack: readonly OpenElement[], run: string): OpenElement | undefined {
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const element = stack[index];
    if (element?.name === run) return element;
  }
  return undefined;
}
