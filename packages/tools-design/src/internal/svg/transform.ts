/**
 * SVG `transform` attributes as affine matrices, and boxes mapped through them.
 *
 * @internal
 */

/** An affine matrix `[a, b, c, d, e, f]`: x' = a·x + c·y + e, y' = b·x + d·y + f. */
export type Matrix = readonly [number, number, number, number, number, number];

/** The identity matrix. */
export const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** A box: left, top, right, bottom. */
export interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * `outer · inner`: applies `inner` first, then `outer`.
 *
 * @param outer - the parent's matrix
 * @param inner - the element's own
 * @returns the product
 */
export function multiply(outer: Matrix, inner: Matrix): Matrix {
  const [a1, b1, c1, d1, e1, f1] = outer;
  const [a2, b2, c2, d2, e2, f2] = inner;
  return [
    a1 * a2 + c1 * b2,
    b1 * a2 + d1 * b2,
    a1 * c2 + c1 * d2,
    b1 * c2 + d1 * d2,
    a1 * e2 + c1 * f2 + e1,
    b1 * e2 + d1 * f2 + f1,
  ];
}

/**
 * Parses a `transform` attribute (`translate`, `scale`, `rotate`, `skewX`, `skewY`, `matrix`,
 * several in a row).
 *
 * @param text - the attribute
 * @returns the matrix, or `undefined` when it cannot be read
 */
export function parseTransform(text: string): Matrix | undefined {
  let matrix: Matrix = IDENTITY;
  const pattern = /([a-zA-Z]+)\s*\(([^)]*)\)/g;
  let consumed = 0;
  for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
    const between = text.slice(consumed, found.index);
    if (!/^[\s,]*$/.test(between)) return undefined;
    consumed = found.index + found[0].length;
    const values = (found[2] ?? "")
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    if (values.some((value) => !Number.isFinite(value))) return undefined;
    const step = transformStep(found[1] ?? "", values);
    if (step === undefined) return undefined;
    matrix = multiply(matrix, step);
  }
  if (!/^[\s,]*$/.test(text.slice(consumed))) return undefined;
  return matrix;
}

function transformStep(kind: string, values: number[]): Matrix | undefined {
  const [first = 0, second, third] = values;
  switch (kind) {
    case "translate":
      return [1, 0, 0, 1, first, second ?? 0];
    case "scale":
      return [first, 0, 0, second ?? first, 0, 0];
    case "rotate": {
      const radians = (first * Math.PI) / 180;
      const cos = Math.cos(radians);
      const sin = Math.sin(radians);
      const turn: Matrix = [cos, sin, -sin, cos, 0, 0];
      if (second === undefined) return turn;
      const centerY = third ?? 0;
      return multiply(multiply([1, 0, 0, 1, second, centerY], turn), [
        1,
        0,
        0,
        1,
        -second,
        -centerY,
      ]);
    }
    case "skewX":
      return [1, 0, Math.tan((first * Math.PI) / 180), 1, 0, 0];
    case "skewY":
      return [1, Math.tan((first * Math.PI) / 180), 0, 1, 0, 0];
    case "matrix":
      return values.length === 6 ? (values as unknown as Matrix) : undefined;
    default:
      return undefined;
  }
}

/**
 * The box around a box mapped through a matrix (its four corners).
 *
 * @param box - the box in the element's own units
 * @param matrix - the element's full matrix
 * @returns the box in the document's units
 */
export function mapBox(box: Box, matrix: Matrix): Box {
  const [a, b, c, d, e, f] = matrix;
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [box.minX, box.minY],
    [box.maxX, box.minY],
    [box.minX, box.maxY],
    [box.maxX, box.maxY],
  ] as const) {
    xs.push(a * x + c * y + e);
    ys.push(b * x + d * y + f);
  }
  return {
    minX: Math.min(...xs),
    minY: Math.min(...ys),
    maxX: Math.max(...xs),
    maxY: Math.max(...ys),
  };
}

/**
 * Whether a matrix only moves and scales (no rotation or skew): then a mapped box is exact.
 *
 * @param matrix - the matrix
 * @returns `true` for translate/scale only
 */
export function isAxisAligned(matrix: Matrix): boolean {
  return Math.abs(matrix[1]) < 1e-9 && Math.abs(matrix[2]) < 1e-9;
}
