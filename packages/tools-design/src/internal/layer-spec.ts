/**
 * The compact layout spec both readers produce (`svg_read` from an SVG, `design_read` from a
 * Figma file): a flat list of layers in drawing order, each with its depth, and the colours,
 * text styles and effects they use as deduplicated tokens referenced by name.
 *
 * @internal
 */

/** One layer of a layout spec. Keys are snake_case: this crosses the tool boundary. */
export interface DesignLayer {
  /** The layer's id: a Figma node id (`1:23`), or an SVG element's path (`3.1.2`) or its `id`. */
  id: string;
  /** Nesting depth below the page or frame read (0 for its top layers). */
  depth: number;
  /** What it is: `frame`, `group`, `text`, `instance`, `component`, `rect`, `ellipse`, `vector`, `path`… */
  role: string;
  /** The layer's name (Figma), or its `id` / `<title>` (SVG), when it has one. */
  name?: string;
  /** Left edge, px, relative to the frame or page read (SVG: user units after transforms). */
  x?: number;
  /** Top edge. */
  y?: number;
  /** Width. */
  width?: number;
  /** Height. */
  height?: number;
  /** Rotation in degrees, when not 0. */
  rotation?: number;
  /** Opacity, when below 1. */
  opacity?: number;
  /** Fill colour tokens (names of `tokens.colors`), topmost last. */
  fills?: string[];
  /** Stroke colour tokens. */
  strokes?: string[];
  /** Stroke width. */
  stroke_width?: number;
  /** Corner radius (one number) or the four corners (top-left, top-right, bottom-right, bottom-left). */
  radius?: number | number[];
  /** Effect tokens (names of `tokens.effects`). */
  effects?: string[];
  /** Auto-layout, for a frame that has it. */
  layout?: AutoLayout;
  /** How the layer sizes inside an auto-layout parent: `fixed`, `hug` or `fill`, per axis. */
  sizing?: { horizontal?: string; vertical?: string };
  /** The text, for a text layer. */
  text?: string;
  /** The text style token (name of `tokens.text_styles`). */
  text_style?: string;
  /** The component an instance is of (its name), or the component set a component belongs to. */
  component?: string;
  /** Variant and component property values of an instance (`[{ name: "State", value: "Hover" }]`). */
  properties?: Array<{ name: string; value: string | boolean }>;
  /** A path's data, for SVG paths (cut to a few hundred characters). */
  path_data?: string;
  /** A polygon's or polyline's points (SVG), as written. */
  points?: string;
  /** Facts that do not fit the fields above (`bbox approximate`, `hidden`). */
  notes?: string[];
}

/** An auto-layout frame's layout. */
export interface AutoLayout {
  /** `row` (horizontal), `column` (vertical), or `grid`. */
  direction: "row" | "column" | "grid";
  /** Space between items, px. */
  gap?: number;
  /** Space between wrapped rows, px. */
  wrap_gap?: number;
  /** Whether items wrap. */
  wrap?: boolean;
  /** Padding: top, right, bottom, left, px. */
  padding?: [number, number, number, number];
  /** Alignment along the direction: `start`, `center`, `end`, `space-between`. */
  justify?: string;
  /** Alignment across the direction: `start`, `center`, `end`, `baseline`, or `stretch` when every child fills the cross axis. */
  align?: string;
}

/** A text style token's value. */
export interface TextStyleToken {
  /** Font family. */
  font_family?: string;
  /** Font size, px. */
  font_size?: number;
  /** Font weight (400, 700…). */
  font_weight?: number | string;
  /** Font style name (`Italic`, `Semi Bold`…). */
  font_style?: string;
  /** Line height, px (or `normal`). */
  line_height?: number | string;
  /** Letter spacing, px. */
  letter_spacing?: number;
  /** Horizontal alignment. */
  text_align?: string;
  /** Text case transform. */
  text_case?: string;
  /** Decoration (`underline`, `strikethrough`). */
  text_decoration?: string;
  /** The text's colour token. */
  color?: string;
}

/** A named token value. */
export interface NamedValue {
  /** The token's name (a style's name such as `Brand/Primary`, or `c1`, `e1`…). */
  name: string;
  /** Its CSS value (`#1e1e1e`, `#00000080`, `linear-gradient(…)`, `0px 4px 12px 0px #0000001a`). */
  value: string;
}

/** The deduplicated tokens a spec's layers reference by name. */
export interface SpecTokens {
  /** Colour tokens. */
  colors: NamedValue[];
  /** Text style tokens, each with its name. */
  text_styles: Array<TextStyleToken & { name: string }>;
  /** Effect tokens (shadows as CSS shadow lists, blurs). */
  effects: NamedValue[];
}

/** The tokens while a spec is built: name → value (internal; the data carries {@link SpecTokens}). */
export interface TokenRecords {
  colors: Record<string, string>;
  text_styles: Record<string, TextStyleToken>;
  effects: Record<string, string>;
}

/**
 * Hands out token names for values, once per distinct value: the first colour `#ff0000` gets
 * `c1`, the next new one `c2`; a value seen again gets its old name. A value that already has a
 * name (a Figma style name) keeps that name.
 */
export class TokenTable<T> {
  readonly #names = new Map<string, string>();
  readonly #values: Record<string, T> = {};
  readonly #prefix: string;
  #next = 1;

  /** @param prefix - the prefix of generated names (`c`, `t`, `e`) */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /**
   * The token name of a value.
   *
   * @param value - the value
   * @param preferred - a name to use when this value is new (a style's name)
   * @returns the name
   */
  name(value: T, preferred?: string): string {
    const key = typeof value === "string" ? value : JSON.stringify(value);
    if (preferred === undefined) {
      const known = this.#names.get(key);
      if (known !== undefined) return known;
      let name = `${this.#prefix}${this.#next}`;
      while (name in this.#values) {
        this.#next += 1;
        name = `${this.#prefix}${this.#next}`;
      }
      this.#next += 1;
      this.#values[name] = value;
      this.#names.set(key, name);
      return name;
    }
    for (let suffix = 1; ; suffix += 1) {
      const name = suffix === 1 ? preferred : `${preferred} ${suffix}`;
      const existing = this.#values[name];
      if (existing === undefined) {
        this.#values[name] = value;
        return name;
      }
      const existingKey = typeof existing === "string" ? existing : JSON.stringify(existing);
      if (existingKey === key) return name;
    }
  }

  /** Every token, name → value, in the order first named. */
  entries(): Record<string, T> {
    return this.#values;
  }
}

/** Rounds a measure to two decimals (`12.3456` → `12.35`), the precision a spec shows. */
export function roundMeasure(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? 0 : rounded;
}
