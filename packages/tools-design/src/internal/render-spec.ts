import type { DesignLayer, SpecTokens, TextStyleToken, TokenRecords } from "./layer-spec.js";

/**
 * The model-facing text of a layout spec: one line per layer, indented by depth, then the tokens
 * the lines name. Every value in `data` appears here; nothing is invented.
 *
 * @internal
 */

function number(value: number): string {
  return String(value);
}

function quote(text: string): string {
  return JSON.stringify(text);
}

/**
 * One layer as a line: `frame "Card" 1:2 at 0,0 320×200 row gap=8 pad=16 …`.
 *
 * @param layer - the layer
 * @returns the line, indented two spaces per depth
 */
export function formatLayer(layer: DesignLayer): string {
  const parts: string[] = [layer.role];
  if (layer.name !== undefined) parts.push(quote(layer.name));
  parts.push(`#${layer.id}`);
  if (layer.component !== undefined) parts.push(`of ${quote(layer.component)}`);
  if (layer.x !== undefined && layer.y !== undefined)
    parts.push(`@${number(layer.x)},${number(layer.y)}`);
  if (layer.width !== undefined && layer.height !== undefined) {
    parts.push(`${number(layer.width)}×${number(layer.height)}`);
  }
  if (layer.sizing !== undefined) {
    parts.push(`size=${layer.sizing.horizontal ?? "fixed"}/${layer.sizing.vertical ?? "fixed"}`);
  }
  const layout = layer.layout;
  if (layout !== undefined) {
    parts.push(layout.direction);
    if (layout.wrap === true) parts.push("wrap");
    if (layout.gap !== undefined) parts.push(`gap=${layout.gap}`);
    if (layout.wrap_gap !== undefined) parts.push(`wrap_gap=${layout.wrap_gap}`);
    if (layout.padding !== undefined) parts.push(`pad=${layout.padding.join(",")}`);
    if (layout.justify !== undefined) parts.push(`justify=${layout.justify}`);
    if (layout.align !== undefined) parts.push(`align=${layout.align}`);
  }
  if (layer.rotation !== undefined) parts.push(`rotate=${layer.rotation}`);
  if (layer.opacity !== undefined) parts.push(`opacity=${layer.opacity}`);
  if (layer.fills !== undefined) parts.push(`fill=${layer.fills.join("+")}`);
  if (layer.strokes !== undefined) {
    parts.push(
      `stroke=${layer.strokes.join("+")}${layer.stroke_width === undefined ? "" : `/${layer.stroke_width}`}`,
    );
  }
  if (layer.radius !== undefined) {
    parts.push(`radius=${Array.isArray(layer.radius) ? layer.radius.join(",") : layer.radius}`);
  }
  if (layer.effects !== undefined) parts.push(`effects=${layer.effects.join("+")}`);
  if (layer.text_style !== undefined) parts.push(`style=${layer.text_style}`);
  if (layer.properties !== undefined) {
    parts.push(
      layer.properties
        .map(
          ({ name, value }) =>
            `${name}=${typeof value === "string" ? quote(value) : String(value)}`,
        )
        .join(" "),
    );
  }
  if (layer.points !== undefined) parts.push(`points=${quote(layer.points)}`);
  if (layer.path_data !== undefined) parts.push(`d=${quote(layer.path_data)}`);
  if (layer.notes !== undefined) parts.push(`(${layer.notes.join("; ")})`);
  if (layer.text !== undefined) parts.push(`: ${quote(layer.text)}`);
  return `${"  ".repeat(layer.depth)}${parts.join(" ")}`;
}

function formatTextStyle(style: TextStyleToken): string {
  const parts: string[] = [];
  if (style.font_family !== undefined) parts.push(quote(style.font_family));
  if (style.font_size !== undefined) parts.push(`${style.font_size}px`);
  if (style.font_weight !== undefined) parts.push(String(style.font_weight));
  if (style.font_style !== undefined) parts.push(style.font_style);
  if (style.line_height !== undefined) {
    parts.push(
      `line=${typeof style.line_height === "number" ? `${style.line_height}px` : style.line_height}`,
    );
  }
  if (style.letter_spacing !== undefined) parts.push(`tracking=${style.letter_spacing}px`);
  if (style.text_align !== undefined) parts.push(`align=${style.text_align}`);
  if (style.text_case !== undefined) parts.push(`case=${style.text_case}`);
  if (style.text_decoration !== undefined) parts.push(style.text_decoration);
  if (style.color !== undefined) parts.push(`color=${style.color}`);
  return parts.join(" ");
}

/**
 * The tokens as lines: `colors: c1=#1e1e1e c2=#ffffff`, one text style per line, effects.
 *
 * @param tokens - the tokens
 * @returns the lines (none when there are no tokens)
 */
export function formatTokens(tokens: SpecTokens): string[] {
  const lines: string[] = [];
  if (tokens.colors.length > 0) {
    lines.push("colors:", ...tokens.colors.map(({ name, value }) => `  ${name} = ${value}`));
  }
  if (tokens.text_styles.length > 0) {
    lines.push(
      "text styles:",
      ...tokens.text_styles.map(({ name, ...style }) => `  ${name} = ${formatTextStyle(style)}`),
    );
  }
  if (tokens.effects.length > 0) {
    lines.push("effects:", ...tokens.effects.map(({ name, value }) => `  ${name} = ${value}`));
  }
  return lines;
}

/**
 * The tokens the given layers name, and the colours their text styles name.
 *
 * @param layers - the layers of one page
 * @param tokens - every token
 * @returns the tokens used on the page
 */
export function tokensUsed(layers: readonly DesignLayer[], tokens: TokenRecords): SpecTokens {
  const used: TokenRecords = { colors: {}, text_styles: {}, effects: {} };
  const color = (name: string) => {
    const value = tokens.colors[name];
    if (value !== undefined) used.colors[name] = value;
  };
  for (const layer of layers) {
    for (const name of [...(layer.fills ?? []), ...(layer.strokes ?? [])]) color(name);
    for (const name of layer.effects ?? []) {
      const value = tokens.effects[name];
      if (value !== undefined) used.effects[name] = value;
    }
    if (layer.text_style !== undefined) {
      const style = tokens.text_styles[layer.text_style];
      if (style !== undefined) {
        used.text_styles[layer.text_style] = style;
        if (style.color !== undefined) color(style.color);
      }
    }
  }
  return {
    colors: Object.entries(used.colors).map(([name, value]) => ({ name, value })),
    text_styles: Object.entries(used.text_styles).map(([name, style]) => ({ name, ...style })),
    effects: Object.entries(used.effects).map(([name, value]) => ({ name, value })),
  };
}
