/**
 * SVG gradients as colour token values: the stops a `<linearGradient>` / `<radialGradient>`
 * collects, and a `url(#id)` paint replaced by `linear-gradient(…)` of them.
 *
 * @internal
 */

/** A gradient's stops (`#rrggbb offset`), with its kind. */
export type GradientStops = string[] & { kind?: string };

/**
 * A property from a `style="…"` attribute (a stop's colour is often written there).
 *
 * @param attributes - the element's attributes
 * @param property - the property name, lower case
 * @returns its value, or `undefined`
 */
export function stopProperty(
  attributes: Record<string, string>,
  property: string,
): string | undefined {
  for (const declaration of (attributes.style ?? "").split(";")) {
    const colon = declaration.indexOf(":");
    if (colon > 0 && declaration.slice(0, colon).trim().toLowerCase() === property) {
      return declaration.slice(colon + 1).trim();
    }
  }
  return undefined;
}

/**
 * The CSS gradient a `url(#id)` paint names, when the file defines it with stops.
 *
 * @param value - a colour token's value
 * @param gradients - the gradients read, by id
 * @returns `linear-gradient(…)` / `radial-gradient(…)`, or `undefined` for anything else
 */
export function gradientValue(
  value: string,
  gradients: ReadonlyMap<string, GradientStops>,
): string | undefined {
  const reference = /^url\(\s*#([^)]+)\)$/.exec(value);
  const stops = reference?.[1] === undefined ? undefined : gradients.get(reference[1]);
  if (stops === undefined || stops.length === 0) return undefined;
  return `${stops.kind ?? "linear"}-gradient(${stops.join(", ")})`;
}
