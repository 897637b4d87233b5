import type { TextStyleToken } from "./layer-spec.js";

/**
 * Design tokens written as CSS custom properties.
 *
 * @internal
 */

/** A token name as a CSS identifier: `Brand/Primary` → `brand-primary`. */
export function cssName(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .toLowerCase();
}

/** A token value as CSS: aliases `{a/b}` become `var(--prefix-a-b)`, bare numbers px. */
function cssValue(value: string | number | boolean, prefix: string, unit: boolean): string {
  if (typeof value === "number") return unit && value !== 0 ? `${value}px` : String(value);
  if (typeof value === "boolean") return String(value);
  const alias = /^\{(.+)\}$/.exec(value);
  if (alias?.[1] !== undefined) return `var(--${prefix}-${cssName(alias[1])})`;
  return value;
}

/** The groups written. */
export interface CssTokenGroups {
  colors: Record<string, string | number | boolean>;
  typography: Record<string, TextStyleToken>;
  spacing: Record<string, string | number | boolean>;
  radii: Record<string, string | number | boolean>;
  effects: Record<string, string>;
  numbers: Record<string, string | number | boolean>;
  modes: Record<string, Record<string, string | number | boolean>>;
}

/**
 * The tokens as one `:root { … }` block (and one `[data-mode="…"]` block per extra mode).
 *
 * @param groups - the tokens
 * @returns the CSS text
 */
export function tokensToCss(groups: CssTokenGroups): string {
  const lines: string[] = [":root {"];
  const put = (name: string, value: string) => lines.push(`  --${name}: ${value};`);
  for (const [name, value] of Object.entries(groups.colors))
    put(`color-${cssName(name)}`, cssValue(value, "color", false));
  for (const [name, style] of Object.entries(groups.typography)) {
    const base = `text-${cssName(name)}`;
    if (style.font_family !== undefined)
      put(`${base}-font-family`, JSON.stringify(style.font_family));
    if (style.font_size !== undefined) put(`${base}-font-size`, `${style.font_size}px`);
    if (style.font_weight !== undefined) put(`${base}-font-weight`, String(style.font_weight));
    if (style.line_height !== undefined) {
      put(
        `${base}-line-height`,
        typeof style.line_height === "number" ? `${style.line_height}px` : style.line_height,
      );
    }
    if (style.letter_spacing !== undefined)
      put(`${base}-letter-spacing`, `${style.letter_spacing}px`);
    if (style.font_style !== undefined && /italic/i.test(style.font_style))
      put(`${base}-font-style`, "italic");
    if (style.text_case !== undefined)
      put(
        `${base}-text-transform`,
        style.text_case === "upper"
          ? "uppercase"
          : style.text_case === "lower"
            ? "lowercase"
            : style.text_case === "title"
              ? "capitalize"
              : style.text_case,
      );
    if (style.text_decoration !== undefined)
      put(
        `${base}-text-decoration`,
        style.text_decoration === "strikethrough" ? "line-through" : style.text_decoration,
      );
  }
  for (const [name, value] of Object.entries(groups.spacing))
    put(`spacing-${cssName(name)}`, cssValue(value, "spacing", true));
  for (const [name, value] of Object.entries(groups.radii))
    put(`radius-${cssName(name)}`, cssValue(value, "radius", true));
  for (const [name, value] of Object.entries(groups.effects)) {
    const blur = /^(backdrop-)?blur\(/.test(value);
    put(
      `${blur ? "effect" : "shadow"}-${cssName(name)}`,
      blur ? value.replace(/^backdrop-blur/, "blur") : value,
    );
  }
  for (const [name, value] of Object.entries(groups.numbers))
    put(`number-${cssName(name)}`, cssValue(value, "number", false));
  lines.push("}");
  for (const [mode, values] of Object.entries(groups.modes)) {
    lines.push(`[data-mode="${cssName(mode)}"] {`);
    for (const [name, value] of Object.entries(values)) {
      const prefix =
        name in groups.colors
          ? "color"
          : name in groups.spacing
            ? "spacing"
            : name in groups.radii
              ? "radius"
              : "number";
      put(
        `${prefix}-${cssName(name)}`,
        cssValue(value, prefix, prefix === "spacing" || prefix === "radius"),
      );
    }
    lines.push("}");
  }
  return lines.join("\n");
}
