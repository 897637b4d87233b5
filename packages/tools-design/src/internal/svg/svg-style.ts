import type { TextStyleToken } from "../layer-spec.js";

/**
 * SVG presentation properties: read from attributes and the `style` attribute, inherited down
 * the tree as SVG inherits them.
 *
 * @internal
 */

/** The presentation properties the spec uses. */
export interface SvgStyle {
  fill?: string;
  stroke?: string;
  "stroke-width"?: string;
  "fill-opacity"?: string;
  "stroke-opacity"?: string;
  opacity?: string;
  color?: string;
  "font-family"?: string;
  "font-size"?: string;
  "font-weight"?: string;
  "font-style"?: string;
  "text-anchor"?: string;
  "letter-spacing"?: string;
  "text-decoration"?: string;
  display?: string;
  visibility?: string;
}

const PROPERTIES: readonly (keyof SvgStyle)[] = [
  "fill",
  "stroke",
  "stroke-width",
  "fill-opacity",
  "stroke-opacity",
  "opacity",
  "color",
  "font-family",
  "font-size",
  "font-weight",
  "font-style",
  "text-anchor",
  "letter-spacing",
  "text-decoration",
  "display",
  "visibility",
];

const NOT_INHERITED: ReadonlySet<keyof SvgStyle> = new Set(["opacity", "display"]);

const KNOWN: ReadonlySet<string> = new Set(PROPERTIES);

/**
 * The style of an element: its parent's inherited properties, then its attributes, then its
 * `style` attribute (which wins, as in CSS).
 *
 * @param parent - the parent's computed style
 * @param attributes - the element's attributes
 * @returns the element's computed style
 */
export function elementStyle(parent: SvgStyle, attributes: Record<string, string>): SvgStyle {
  const style: SvgStyle = {};
  for (const key of PROPERTIES) {
    const value = parent[key];
    if (value !== undefined && !NOT_INHERITED.has(key)) style[key] = value;
  }
  for (const key of PROPERTIES) {
    const value = attributes[key];
    if (value !== undefined && value !== "inherit") style[key] = value.trim();
  }
  const inline = attributes.style;
  if (inline !== undefined) {
    for (const declaration of inline.split(";")) {
      const colon = declaration.indexOf(":");
      if (colon < 0) continue;
      const key = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration
        .slice(colon + 1)
        .replace(/!important/i, "")
        .trim();
      if (KNOWN.has(key) && value !== "" && value !== "inherit")
        style[key as keyof SvgStyle] = value;
    }
  }
  return style;
}

/**
 * Reads a length (`12`, `12px`, `1.5em` is not resolved) as a number of user units.
 *
 * @param value - the attribute
 * @returns the number, or `undefined` for a missing, relative or unreadable length
 */
export function readLength(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^\s*(-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*(px)?\s*$/i.exec(value);
  if (match?.[1] === undefined) return undefined;
  const number = Number(match[1]);
  return Number.isFinite(number) ? number : undefined;
}

/** The text style token of a `<text>` element's computed style. */
export function textStyleOf(style: SvgStyle, fill: string | undefined): TextStyleToken {
  const token: TextStyleToken = {};
  if (style["font-family"] !== undefined)
    token.font_family = style["font-family"].replace(/["']/g, "");
  const size = readLength(style["font-size"]);
  if (size !== undefined) token.font_size = size;
  if (style["font-weight"] !== undefined) {
    const weight = style["font-weight"];
    token.font_weight = /^\d+$/.test(weight)
      ? Number(weight)
      : weight === "bold"
        ? 700
        : weight === "normal"
          ? 400
          : weight;
  }
  if (style["font-style"] !== undefined && style["font-style"] !== "normal")
    token.font_style = style["font-style"];
  if (style["text-anchor"] !== undefined && style["text-anchor"] !== "start")
    token.text_align = style["text-anchor"];
  const spacing = readLength(style["letter-spacing"]);
  if (spacing !== undefined && spacing !== 0) token.letter_spacing = spacing;
  if (style["text-decoration"] !== undefined && style["text-decoration"] !== "none")
    token.text_decoration = style["text-decoration"];
  if (fill !== undefined) token.color = fill;
  return token;
}
