import type { Effect, Paint, TypeStyle } from "@figma/rest-api-spec";
import { hexColor } from "../color.js";
import { roundMeasure, type TextStyleToken } from "../layer-spec.js";

/**
 * Figma paints, effects and type styles as CSS-like token values.
 *
 * @internal
 */

/**
 * One paint as a CSS value: a solid as hex (its opacity folded into the alpha), a gradient as
 * `linear-gradient(…)` with its stops, an image as `image(<ref>)`.
 *
 * @param paint - the paint
 * @returns the value, or `undefined` for a hidden paint
 */
export function paintValue(paint: Paint): string | undefined {
  if (paint.visible === false) return undefined;
  const opacity = paint.opacity ?? 1;
  switch (paint.type) {
    case "SOLID":
      return hexColor(paint.color.r, paint.color.g, paint.color.b, paint.color.a * opacity);
    case "GRADIENT_LINEAR":
    case "GRADIENT_RADIAL":
    case "GRADIENT_ANGULAR":
    case "GRADIENT_DIAMOND": {
      const kind = paint.type.slice("GRADIENT_".length).toLowerCase();
      const stops = paint.gradientStops.map(
        (stop) =>
          `${hexColor(stop.color.r, stop.color.g, stop.color.b, stop.color.a * opacity)} ${roundMeasure(stop.position * 100)}%`,
      );
      return `${kind}-gradient(${stops.join(", ")})`;
    }
    case "IMAGE":
      return `image(${paint.imageRef} ${paint.scaleMode.toLowerCase()})`;
    default:
      return `pattern(${paint.sourceNodeId})`;
  }
}

/**
 * One effect as a CSS value: shadows as `box-shadow` parts, blurs as `blur(…)` /
 * `backdrop-blur(…)`.
 *
 * @param effect - the effect
 * @returns the value, or `undefined` for a hidden effect
 */
export function effectValue(effect: Effect): string | undefined {
  if (effect.visible === false) return undefined;
  if (
    effect.type === "DROP_SHADOW" ||
    effect.type === "INNER_SHADOW" ||
    effect.type === undefined
  ) {
    const shadow = effect as Extract<Effect, { offset: unknown }>;
    const color = hexColor(shadow.color.r, shadow.color.g, shadow.color.b, shadow.color.a);
    const inset = effect.type === "DROP_SHADOW" ? "" : "inset ";
    return `${inset}${roundMeasure(shadow.offset.x)}px ${roundMeasure(shadow.offset.y)}px ${roundMeasure(shadow.radius)}px ${roundMeasure(shadow.spread ?? 0)}px ${color}`;
  }
  if (effect.type === "LAYER_BLUR") return `blur(${roundMeasure(effect.radius)}px)`;
  if (effect.type === "BACKGROUND_BLUR") return `backdrop-blur(${roundMeasure(effect.radius)}px)`;
  return effect.type.toLowerCase();
}

/**
 * A Figma type style as a text style token.
 *
 * @param style - the node's `style`
 * @param color - the text's colour token, when it has one
 * @returns the token
 */
export function textStyleValue(style: TypeStyle, color: string | undefined): TextStyleToken {
  const token: TextStyleToken = {};
  if (style.fontFamily !== undefined) token.font_family = style.fontFamily;
  if (style.fontSize !== undefined) token.font_size = roundMeasure(style.fontSize);
  if (style.fontWeight !== undefined) token.font_weight = style.fontWeight;
  if (style.fontStyle !== undefined && !/^regular$/i.test(style.fontStyle))
    token.font_style = style.fontStyle;
  if (style.lineHeightUnit === "INTRINSIC_%") token.line_height = "normal";
  else if (style.lineHeightPx !== undefined) token.line_height = roundMeasure(style.lineHeightPx);
  if (style.letterSpacing !== undefined && style.letterSpacing !== 0) {
    token.letter_spacing = roundMeasure(style.letterSpacing);
  }
  if (style.textAlignHorizontal !== undefined && style.textAlignHorizontal !== "LEFT") {
    token.text_align = style.textAlignHorizontal.toLowerCase();
  }
  if (style.textCase !== undefined && style.textCase !== "ORIGINAL")
    token.text_case = style.textCase.toLowerCase();
  if (style.textDecoration !== undefined && style.textDecoration !== "NONE") {
    token.text_decoration = style.textDecoration.toLowerCase();
  }
  if (color !== undefined) token.color = color;
  return token;
}
