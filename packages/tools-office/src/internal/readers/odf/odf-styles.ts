import {
  attribute,
  childElement,
  childElements,
  findElement,
  type XmlElement,
} from "../../container/xml.js";

/**
 * OpenDocument styles as the readers need them: each text/paragraph style's bold, italic,
 * strike and monospace flags and parent (so `P3` → `Source_20_Text` reads as code), and each
 * list style's levels (numbered or bulleted).
 *
 * @internal
 */

interface StyleFacts {
  parent?: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  listStyle?: string;
}

/** The styles of one document (content.xml's automatic styles over styles.xml's). */
export class OdfStyles {
  readonly #styles = new Map<string, StyleFacts>();
  readonly #lists = new Map<string, boolean[]>();

  /** Adds the styles under an `office:styles` / `office:automatic-styles` element. */
  add(container: XmlElement | undefined): void {
    if (container === undefined) return;
    for (const style of childElements(container)) {
      const name = attribute(style, "name");
      if (name === undefined) continue;
      if (style.local === "list-style") {
        const levels: boolean[] = [];
        for (const level of childElements(style)) {
          levels[Number(attribute(level, "level") ?? 1) - 1] =
            level.local === "list-level-style-number";
        }
        this.#lists.set(name, levels);
        continue;
      }
      if (style.local !== "style") continue;
      const text = findElement(style, "text-properties");
      const facts: StyleFacts = {};
      const parent = attribute(style, "parent-style-name");
      if (parent !== undefined) facts.parent = parent;
      const listStyle = attribute(style, "list-style-name");
      if (listStyle !== undefined) facts.listStyle = listStyle;
      if (text !== undefined) {
        const weight = attribute(text, "font-weight");
        if (weight !== undefined) facts.bold = weight === "bold" || Number(weight) >= 600;
        const posture = attribute(text, "font-style");
        if (posture !== undefined) facts.italic = posture === "italic" || posture === "oblique";
        const through = attribute(text, "text-line-through-style");
        if (through !== undefined) facts.strike = through !== "none";
      }
      this.#styles.set(name, facts);
    }
  }

  /**
   * The style's name and its ancestors' (display forms decoded: LibreOffice's `Source_20_Text`
   * and pandoc's `Source_Text` both → `source text`).
   */
  chain(name: string | undefined): string[] {
    const out: string[] = [];
    let current = name;
    for (let hops = 0; current !== undefined && hops < 12; hops += 1) {
      out.push(current.replace(/_20_|_/g, " ").toLowerCase());
      current = this.#styles.get(current)?.parent;
    }
    return out;
  }

  /** A flag of a style, inherited from its parents. */
  flag(name: string | undefined, key: "bold" | "italic" | "strike"): boolean {
    let current = name;
    for (let hops = 0; current !== undefined && hops < 12; hops += 1) {
      const facts = this.#styles.get(current);
      if (facts?.[key] !== undefined) return facts[key] === true;
      current = facts?.parent;
    }
    return false;
  }

  /** Whether a style is a code style (`Source Text`, `Preformatted Text`, monospace names). */
  isCode(name: string | undefined): boolean {
    return this.chain(name).some((style) => /source text|preformatted|^code|verbatim/.test(style));
  }

  /** The list style a paragraph style names, inherited. */
  listStyleOf(name: string | undefined): string | undefined {
    let current = name;
    for (let hops = 0; current !== undefined && hops < 12; hops += 1) {
      const facts = this.#styles.get(current);
      if (facts?.listStyle !== undefined) return facts.listStyle;
      current = facts?.parent;
    }
    return undefined;
  }

  /** Whether a list style numbers a level (0-based); bullets when unknown. */
  isNumbered(listStyle: string | undefined, level: number): boolean {
    return listStyle === undefined ? false : (this.#lists.get(listStyle)?.[level] ?? false);
  }
}

/** Loads the styles of content.xml and styles.xml roots. */
export function odfStyles(content: XmlElement, styles: XmlElement | undefined): OdfStyles {
  const out = new OdfStyles();
  if (styles !== undefined) {
    out.add(childElement(styles, "styles"));
    out.add(childElement(styles, "automatic-styles"));
  }
  out.add(childElement(content, "automatic-styles"));
  return out;
}
