/**
 * Colours as one CSS spelling: lower-case `#rrggbb`, or `#rrggbbaa` when not opaque.
 *
 * @internal
 */

const NAMED_COLORS: Readonly<Record<string, string>> = {
  black: "#000000",
  white: "#ffffff",
  red: "#ff0000",
  green: "#008000",
  lime: "#00ff00",
  blue: "#0000ff",
  yellow: "#ffff00",
  cyan: "#00ffff",
  aqua: "#00ffff",
  magenta: "#ff00ff",
  fuchsia: "#ff00ff",
  gray: "#808080",
  grey: "#808080",
  silver: "#c0c0c0",
  maroon: "#800000",
  olive: "#808000",
  navy: "#000080",
  purple: "#800080",
  teal: "#008080",
  orange: "#ffa500",
  transparent: "#00000000",
};

function hexByte(value: number): string {
  return Math.max(0, Math.min(255, Math.round(value)))
    .toString(16)
    .padStart(2, "0");
}

/**
 * Writes red, green, blue (0–1 each) and alpha (0–1) as `#rrggbb` or `#rrggbbaa`.
 *
 * @param red - 0 to 1
 * @param green - 0 to 1
 * @param blue - 0 to 1
 * @param alpha - 0 to 1 (default 1)
 * @returns the hex colour
 */
export function hexColor(red: number, green: number, blue: number, alpha = 1): string {
  const rgb = `#${hexByte(red * 255)}${hexByte(green * 255)}${hexByte(blue * 255)}`;
  return alpha >= 0.999 ? rgb : `${rgb}${hexByte(alpha * 255)}`;
}

/**
 * Normalises an SVG/CSS colour (`#abc`, `#aabbcc`, `rgb(…)`, `rgba(…)`, a common name) to hex.
 *
 * @param value - the colour as written
 * @param opacity - an opacity to fold in (`fill-opacity`), 0 to 1
 * @returns the hex colour, `none`, `currentColor`, a `url(#…)` reference as written, or `undefined` when unreadable
 */
export function normalizeColor(value: string, opacity = 1): string | undefined {
  const text = value.trim().toLowerCase();
  if (text === "") return undefined;
  if (text === "none") return "none";
  if (text === "currentcolor") return "currentColor";
  if (text.startsWith("url(")) return value.trim();
  let red: number;
  let green: number;
  let blue: number;
  let alpha = 1;
  const hex = /^#([0-9a-f]{3,8})$/.exec(text);
  const functional = /^rgba?\(\s*([^)]*)\)$/.exec(text);
  if (hex?.[1] !== undefined) {
    const digits = hex[1];
    if (digits.length === 3 || digits.length === 4) {
      const expanded = [...digits].map((digit) => digit + digit).join("");
      return normalizeColor(`#${expanded}`, opacity);
    }
    if (digits.length !== 6 && digits.length !== 8) return undefined;
    red = Number.parseInt(digits.slice(0, 2), 16) / 255;
    green = Number.parseInt(digits.slice(2, 4), 16) / 255;
    blue = Number.parseInt(digits.slice(4, 6), 16) / 255;
    if (digits.length === 8) alpha = Number.parseInt(digits.slice(6, 8), 16) / 255;
  } else if (functional?.[1] !== undefined) {
    const parts = functional[1].split(/[\s,/]+/).filter(Boolean);
    const channel = (part: string | undefined, scale: number): number =>
      part === undefined
        ? Number.NaN
        : part.endsWith("%")
          ? Number.parseFloat(part) / 100
          : Number.parseFloat(part) / scale;
    red = channel(parts[0], 255);
    green = channel(parts[1], 255);
    blue = channel(parts[2], 255);
    if (parts[3] !== undefined) alpha = channel(parts[3], 1);
    if ([red, green, blue, alpha].some(Number.isNaN)) return undefined;
  } else {
    const named = NAMED_COLORS[text];
    if (named === undefined) return undefined;
    return opacity >= 0.999 ? named : normalizeColor(named, opacity);
  }
  return hexColor(red, green, blue, alpha * opacity);
}
