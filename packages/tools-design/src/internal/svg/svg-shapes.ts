import { pathBounds } from "./path-bounds.js";
import { readLength } from "./svg-style.js";
import type { Box } from "./transform.js";

/**
 * The boxes of SVG's basic shapes in their own units (before transforms).
 *
 * @internal
 */

/** The box around two boxes (either may be missing). */
export function union(first: Box | undefined, second: Box | undefined): Box | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return {
    minX: Math.min(first.minX, second.minX),
    minY: Math.min(first.minY, second.minY),
    maxX: Math.max(first.maxX, second.maxX),
    maxY: Math.max(first.maxY, second.maxY),
  };
}

/** The numbers of a list attribute (`points`, `viewBox`). */
export function numbers(text: string | undefined): number[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map(Number)
    .filter(Number.isFinite);
}

/** The element's own box before transforms, and notes on how it was found. */
export function ownBox(
  local: string,
  attributes: Record<string, string>,
): { box?: Box; approximate?: boolean } {
  const length = (name: string) => readLength(attributes[name]) ?? 0;
  switch (local) {
    case "rect":
    case "image":
    case "use": {
      const width = readLength(attributes.width);
      const height = readLength(attributes.height);
      if (width === undefined || height === undefined) return {};
      const x = length("x");
      const y = length("y");
      return { box: { minX: x, minY: y, maxX: x + width, maxY: y + height } };
    }
    case "circle": {
      const r = length("r");
      return {
        box: {
          minX: length("cx") - r,
          minY: length("cy") - r,
          maxX: length("cx") + r,
          maxY: length("cy") + r,
        },
      };
    }
    case "ellipse": {
      const rx = length("rx");
      const ry = length("ry");
      return {
        box: {
          minX: length("cx") - rx,
          minY: length("cy") - ry,
          maxX: length("cx") + rx,
          maxY: length("cy") + ry,
        },
      };
    }
    case "line":
      return {
        box: {
          minX: Math.min(length("x1"), length("x2")),
          minY: Math.min(length("y1"), length("y2")),
          maxX: Math.max(length("x1"), length("x2")),
          maxY: Math.max(length("y1"), length("y2")),
        },
      };
    case "polyline":
    case "polygon": {
      const values = numbers(attributes.points);
      if (values.length < 2) return {};
      const xs = values.filter((_, index) => index % 2 === 0);
      const ys = values.filter((_, index) => index % 2 === 1);
      return {
        box: {
          minX: Math.min(...xs),
          minY: Math.min(...ys),
          maxX: Math.max(...xs),
          maxY: Math.max(...ys),
        },
      };
    }
    case "path": {
      const box = pathBounds(attributes.d ?? "");
      return box === undefined ? {} : { box, approximate: box.approximate };
    }
    default:
      return {};
  }
}
